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
