/// `--format csv`, as RFC 4180 writes it: a header row of field names, then
/// one record per species, each line ended by CRLF. A value holding a comma,
/// a double quote, a CR or an LF is quoted, its quotes doubled; a list is one
/// cell, `a, b, c`; an absent value is empty. What could fool a terminal
/// (`TerminalText`) is escaped, but for the CR and LF a quoted cell may hold.
public enum SpeciesCSV {
    public static func render(_ species: [StarWarsSpecies], fields: [SpeciesField] = SpeciesField.defaults) -> String {
        var text = record(fields.map(\.name))
        for item in species {
            text += record(fields.map { $0.text(of: item) ?? "" })
        }
        return text
    }

    private static func record(_ values: [String]) -> String {
        values.map(cell).joined(separator: ",") + "\r\n"
    }

    private static func cell(_ value: String) -> String {
        let safe = TerminalText.escape(value, keepingLineBreaks: true)
        guard safe.unicodeScalars.contains(where: { ["\r", "\n", ",", "\""].contains($0) }) else { return safe }
        return "\"" + safe.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
