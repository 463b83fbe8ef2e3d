/// swapi.dev's search (Django REST Framework's `SearchFilter` on `name`):
/// the text is split on white space and commas into terms, and a name
/// matches when every term is a part of it, ignoring case. No terms match
/// every name. `dor kel`, `kel,dor` and `KEL  DOR` all find Kel Dor.
package struct SearchTerms: Sendable, Equatable {
    /// Lowercased.
    package let terms: [String]

    package init(_ text: String) {
        terms = text.split { $0 == "," || $0.isWhitespace || $0 == "\0" }.map { $0.lowercased() }
    }

    func matches(_ name: String?) -> Bool {
        guard !terms.isEmpty else { return true }
        guard let name = name?.lowercased() else { return false }
        return terms.allSatisfy(name.contains)
    }
}

extension SearchTerms {
    /// Why `text` can be neither a name nor a search (docs/cli.md, "show"):
    /// it holds no word, or is longer than any name; nil when it can be.
    static func problem(with text: String) -> Fault? {
        if SearchTerms(text).terms.isEmpty {
            return .badQuestion("'\(Excerpt.of(text))' holds no word, so it names no species", setting: nil)
        }
        if text.count > SpeciesClient.maxNameLength {
            return .badQuestion(
                "a name or search is at most \(SpeciesClient.maxNameLength) characters, not \(text.count)", setting: nil
            )
        }
        return nil
    }
}
