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

    /// The one reading of what a user types (docs/cli.md, "show"): a whole
    /// number from 1, in digits, is an id; an `http(s)` URL must be a
    /// species of the API at one of `roots`; anything else is a name, which
    /// holds a word.
    /// - Throws: a `badQuestion` error for a number that is no id (`0`,
    ///   `1.5`, `-1`, `+2`), a URL that is no species of `roots`, or a name
    ///   with no word (`,`) or longer than any.
    public init(_ text: String, roots: [APIRoot]) throws(SpeciesError) {
        let text = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if let id = SWAPINumber.whole(text), id >= 1 {
            self = .id(id)
        } else if Self.isNumber(text) {
            throw SpeciesError(.badQuestion(Self.noID(text), setting: nil))
        } else if ["http://", "https://"].contains(where: text.lowercased().hasPrefix) {
            self = .url(URL(string: text) ?? URL(fileURLWithPath: "/"))
        } else {
            self = .name(text)
        }
        self = try resolved(roots: roots)
    }

    /// `checked(roots:)`, its fault a `SpeciesError`.
    func resolved(roots: [APIRoot]) throws(SpeciesError) -> SpeciesQuery {
        do throws(Fault) { return try checked(roots: roots) } catch { throw SpeciesError(error) }
    }

    /// Whether `text` reads as a number of some kind (`-1`, `+2`, `1.5`,
    /// `1e3`), though not as an id.
    private static func isNumber(_ text: String) -> Bool {
        text.contains(where: \.isNumber) && text.allSatisfy { "0123456789+-.eE".contains($0) } && Double(text) != nil
    }

    private static func noID(_ text: String) -> String {
        "'\(Excerpt.of(text))' is no species id: an id is a whole number from 1"
    }

    /// The query as it is asked of `roots`: a URL as the service it names
    /// writes it.
    /// - Throws: `Fault.badQuestion` or `.notASpeciesURL` for a question
    ///   that cannot be asked.
    func checked(roots: [APIRoot]) throws(Fault) -> SpeciesQuery {
        switch self {
        case .id(let id) where id < 1: throw .badQuestion(Self.noID(String(id)), setting: nil)
        case .name(let name):
            if let problem = SearchTerms.problem(with: name) { throw problem }
            return self
        case .url(let url):
            // A copy's listing may print the species URLs of the public
            // service it copies: asked, and taken when its answer prints
            // the same (`DetailReader`).
            guard let normalised = (roots + APIRoot.publicServices).lazy.compactMap({ $0.speciesURL(url) }).first else {
                throw .notASpeciesURL(url.absoluteString, of: roots.first ?? .swapi)
            }
            return .url(normalised)
        default: return self
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
