/// SWAPI's comma-separated colour lists, such as `"blue, green, yellow"`.
enum CommaList {
    /// Splits on `,` and trims spaces and tabs from each part, keeping every
    /// part, empty ones included: `"n/a"` gives `["n/a"]` and `""` gives `[""]`.
    /// It works on UTF-8 bytes: `,`, space and tab never occur inside a
    /// multi-byte character.
    static func split(_ text: String) -> [String] {
        var parts: [String] = []
        let utf8 = text.utf8
        var start = utf8.startIndex
        while true {
            let end = utf8[start...].firstIndex(of: UInt8(ascii: ",")) ?? utf8.endIndex
            parts.append(trimmed(utf8[start..<end]))
            guard end < utf8.endIndex else { return parts }
            start = utf8.index(after: end)
        }
    }

    private static func trimmed(_ part: Substring.UTF8View) -> String {
        let isBlank = { (byte: UInt8) in byte == 0x20 || byte == 0x09 }
        guard let first = part.firstIndex(where: { !isBlank($0) }), let last = part.lastIndex(where: { !isBlank($0) })
        else { return "" }
        return String(Substring(part[first...last]))
    }
}
