import Foundation

/// The species to look up: by name, by id, or by URL.
public enum SpeciesQuery: Sendable, Hashable, CustomStringConvertible {
    /// A name, matched ignoring case: an exact name wins, else the one
    /// species whose name holds every word of it. Not blank, and at most
    /// ``SpeciesClient/maxNameLength`` characters.
    case name(String)
    /// The number at the end of a species' URL, from 1, such as 3 for the
    /// Wookie.
    case id(Int)
    /// A species URL of one of the client's services, in any of their
    /// forms (`.../species/3/`, `.../species/3`): its scheme, host and port
    /// the service's (case aside), with no user or password. The client
    /// refuses any other before it asks anything, and asks for exactly this
    /// URL, as the service writes it.
    case url(URL)

    /// Digits are an id; an `http(s)` URL must be a species of the API at
    /// one of `roots`; anything else is a name.
    /// - Throws: a `badQuestion` error for a URL that is no species of
    ///   `roots`, a blank name or one longer than any.
    public init(_ text: String, roots: [APIRoot]) throws(SpeciesError) {
        let text = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }), let id = Int(text) {
            self = .id(id)
        } else if ["http://", "https://"].contains(where: text.lowercased().hasPrefix) {
            self = .url(URL(string: text) ?? URL(fileURLWithPath: "/"))
        } else {
            self = .name(text)
        }
        do throws(Fault) {
            self = try checked(roots: roots)
        } catch {
            throw SpeciesError(error)
        }
    }

    /// The query as it is asked of `roots`: a URL as the service it names
    /// writes it.
    /// - Throws: `Fault.badQuestion` or `.notASpeciesURL` for a question
    ///   that cannot be asked.
    func checked(roots: [APIRoot]) throws(Fault) -> SpeciesQuery {
        switch self {
        case .id(let id) where id < 1:
            throw .badQuestion("species ids are numbered from 1, not \(id)", setting: nil)
        case .name(let name) where name.allSatisfy(\.isWhitespace):
            throw .badQuestion("a name must hold a word", setting: nil)
        case .name(let name) where name.count > SpeciesClient.maxNameLength:
            throw .badQuestion(
                "a name is at most \(SpeciesClient.maxNameLength) characters, not \(name.count)", setting: nil)
        case .url(let url):
            guard let normalised = roots.lazy.compactMap({ $0.speciesURL(url) }).first else {
                let expected = (roots.first ?? .swapi).url.withoutCredentials.absoluteString + "species/<id>/"
                throw .notASpeciesURL(url.absoluteString, expected: expected)
            }
            return .url(normalised)
        default:
            return self
        }
    }

    /// How a message names it: `'Wookie'`, `species 3`, or the URL.
    public var description: String {
        switch self {
        case .name(let name): "'\(Excerpt.of(name))'"
        case .id(let id): "species \(id)"
        case .url(let url): "the species at \(url.redacted)"
        }
    }
}
