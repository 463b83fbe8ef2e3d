/// SWAPI's comma-separated colour lists, such as `"blue, green, yellow"`.
public enum CommaList {
    /// Splits on `,` and trims spaces and tabs from each part, keeping every
    /// part, empty ones included: `"n/a"` gives `["n/a"]` and `""` gives `[""]`.
    public static func split(_ text: String) -> [String] {
        text.split(separator: ",", omittingEmptySubsequences: false).map { part in
            let trimmed = part.drop { $0 == " " || $0 == "\t" }
            var end = trimmed.endIndex
            while end > trimmed.startIndex {
                let before = trimmed.index(before: end)
                guard trimmed[before] == " " || trimmed[before] == "\t" else { break }
                end = before
            }
            return String(trimmed[..<end])
        }
    }
}
