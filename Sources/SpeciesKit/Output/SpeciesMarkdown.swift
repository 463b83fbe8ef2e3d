/// Species as a GitHub Markdown table: a header row of field names and a
/// row per species, columns padded to line up, numbers aligned right. In a
/// cell, `|`, `\`, `[`, `]` and the backtick are escaped with `\` (so a
/// server's text makes no link, image or code), `<`, `>` and `&` are written as
/// HTML's entities (so no tag of a server's reaches a Markdown renderer),
/// and a line break is `<br>`; control characters are escaped
/// (`\u{1B}`); an absent value is empty.
package enum SpeciesMarkdown {
    /// The header row, the separator and a row per species, of `fields`.
    package static func render(_ species: [StarWarsSpecies], fields: [SpeciesField] = SpeciesField.defaults) -> String {
        guard !fields.isEmpty else { return "" }
        let rows = [fields.map(\.name)] + species.map { item in fields.map { cell($0.text(of: item) ?? "") } }
        // A separator cell has three characters at least.
        let widths = fields.indices.map { column in max(3, rows.map { DisplayWidth.of($0[column]) }.max() ?? 0) }
        func line(_ cells: [String]) -> String {
            let padded = cells.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - DisplayWidth.of(cell))
                return fields[column].isNumber ? padding + cell : cell + padding
            }
            return "| " + padded.joined(separator: " | ") + " |\n"
        }
        let separator = fields.indices.map {
            String(repeating: "-", count: widths[$0] - 1) + (fields[$0].isNumber ? ":" : "-")
        }
        return line(rows[0]) + "| " + separator.joined(separator: " | ") + " |\n" + rows.dropFirst().map(line).joined()
    }

    private static let escapes: [Character: String] = [
        "&": "&amp;", "<": "&lt;", ">": "&gt;", "\\": "\\\\", "|": "\\|", "[": "\\[", "]": "\\]", "`": "\\`",
    ]

    private static func cell(_ value: String) -> String {
        let lines = value.map { escapes[$0] ?? String($0) }.joined().split(
            omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        return TerminalText.escape(lines.joined(separator: "<br>"))
    }
}
