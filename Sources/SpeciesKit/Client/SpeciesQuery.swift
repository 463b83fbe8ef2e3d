import Foundation

/// The species to look up: by name, by id, or by URL.
public enum SpeciesQuery: Sendable, Equatable {
    /// A name, matched ignoring case: an exact name wins, else the one
    /// species whose name holds every word of it.
    case name(String)
    /// The number at the end of a species' URL, such as 3 for the Wookie.
    case id(Int)
    /// A species URL of one of the client's services, in any of their
    /// forms; the client refuses any other before it asks anything.
    case url(URL)

    /// Digits are an id; an `http(s)` URL must be a species of the API at
    /// one of `roots` (any dialect's form: `.../species/3/`,
    /// `.../species/3`, `.../species/3.json`); anything else is a name.
    /// - Throws: `SpeciesError.notASpeciesURL` for any other URL.
    public init(_ text: String, roots: [APIRoot]) throws(SpeciesError) {
        let text = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }), let id = Int(text) {
            self = .id(id)
            return
        }
        guard ["http://", "https://"].contains(where: text.lowercased().hasPrefix) else {
            self = .name(text)
            return
        }
        guard let url = URL(string: text) else { throw Self.notASpeciesURL(text, roots: roots) }
        self = .url(url)
        try check(roots: roots)
    }

    /// Throws for a URL that is no species of the API at one of `roots`.
    func check(roots: [APIRoot]) throws(SpeciesError) {
        guard case .url(let url) = self,
            !roots.contains(where: { root in
                root.contains(url) && url.query == nil && url.fragment == nil
                    && ResourceReference.species(in: url.path) != nil
                    && url.path.dropFirst(root.path.count).split(separator: "/").count == 2
            })
        else { return }
        throw Self.notASpeciesURL(url.absoluteString, roots: roots)
    }

    private static func notASpeciesURL(_ text: String, roots: [APIRoot]) -> SpeciesError {
        let expected = (roots.first ?? .swapi).speciesURL(id: 3).redacted.replacingOccurrences(
            of: "/3/", with: "/<id>/")
        return .notASpeciesURL(text, expected: expected)
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
