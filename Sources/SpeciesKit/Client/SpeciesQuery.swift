import Foundation

/// What `species show` was asked for: a name, an id, or a URL.
public enum SpeciesQuery: Sendable, Equatable {
    case name(String)
    case id(Int)
    case url(URL)

    /// Digits are an id; an `http(s)` URL must be a species of the API at
    /// `root` (any dialect's form: `.../species/3/`, `.../species/3`,
    /// `.../species/3.json`); anything else is a name.
    /// - Throws: `SpeciesError.notASpeciesURL` for any other URL.
    public init(_ text: String, root: APIRoot) throws(SpeciesError) {
        let text = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }), let id = Int(text) {
            self = .id(id)
            return
        }
        guard ["http://", "https://"].contains(where: text.lowercased().hasPrefix) else {
            self = .name(text)
            return
        }
        let expected = root.speciesURL(id: 3).redacted.replacingOccurrences(of: "/3/", with: "/<id>/")
        guard let url = URL(string: text), let origin = Origin(url), root.origin.admits(origin),
            url.query == nil, url.fragment == nil, let reference = ResourceReference(url.path), reference.kind == .species,
            url.path.lowercased().hasPrefix(root.path.lowercased()),
            url.path.dropFirst(root.path.count).split(separator: "/").count == 2
        else { throw .notASpeciesURL(text, expected: expected) }
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
