/// Levenshtein distance: the fewest insertions, deletions and substitutions
/// of characters that turn one string into the other.
package enum EditDistance {
    package static func between(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }

    /// The candidates closest to `word`, at most `limit`, nearest first, and
    /// only those within a third of its length (at least 2 edits).
    package static func closest(to word: String, among candidates: [String], limit: Int = 3) -> [String] {
        let key = word.lowercased()
        let tolerance = max(2, key.count / 3)
        return candidates.map { (candidate: $0, distance: between(key, $0.lowercased())) }.filter {
            $0.distance <= tolerance
        }.sorted { ($0.distance, $0.candidate) < ($1.distance, $1.candidate) }.prefix(limit).map(\.candidate)
    }

    /// `; did you mean 'A'?`, or `'A' or 'B'`: the one way species suggests;
    /// nothing without a suggestion.
    package static func didYouMean(_ suggestions: [String]) -> String {
        suggestions.isEmpty ? "" : "; did you mean " + Phrase.alternatives(suggestions.map { "'\($0)'" }) + "?"
    }
}
