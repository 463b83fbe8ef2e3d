import Foundation

/// What `species show` was asked for: a name, an id, or a URL.
public enum SpeciesQuery: Sendable, Equatable {
    case name(String)
    case id(Int)
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
        let isSpecies = { (url: URL, root: APIRoot) in
            root.contains(url) && url.query == nil && url.fragment == nil
                && ResourceReference(url.path)?.kind == .species
                && url.path.dropFirst(root.path.count).split(separator: "/").count == 2
        }
        guard let url = URL(string: text), roots.contains(where: { isSpecies(url, $0) }) else {
            let expected = (roots.first ?? .swapi).speciesURL(id: 3).redacted.replacingOccurrences(
                of: "/3/", with: "/<id>/")
            throw .notASpeciesURL(text, expected: expected)
        }
        self = .url(url)
    }

    /// `'Wookie'`, `species 3`, or the URL, for messages.
    public var description: String {
        switch self {
        case .name(let name): "'\(Excerpt.of(name))'"
        case .id(let id): "species \(id)"
        case .url(let url): "the species at \(url.redacted)"
        }
    }
}
