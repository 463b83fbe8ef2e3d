/// Species as CSV, as RFC 4180 writes it: a header row of field names, then
/// one record per species, each line ended by CRLF. A value holding a comma,
/// a double quote, a CR or an LF is quoted, its quotes doubled; a list is one
/// cell, `a, b, c`; an absent value is empty. Control characters are
/// escaped (`\u{1B}`), but for the CR and LF a quoted cell may hold.
///
/// A spreadsheet runs a cell that begins with `=`, `+`, `-` or `@` as a
/// formula (and some, one that begins with a tab or a CR, or with spaces
/// before the sign, or with a fullwidth `＝`, `＋`, `－` or `＠`): such a
/// cell gets a `'` before it, as OWASP's advice on CSV injection says,
/// unless it is a number (`-5`, `+1.5`), which stays a number.
package enum SpeciesCSV {
    /// The header row and a record per species, of `fields`.
    package static func render(_ species: [StarWarsSpecies], fields: [SpeciesField] = SpeciesField.defaults) -> String {
        var text = record(fields.map(\.name))
        for item in species { text += record(fields.map { $0.text(of: item) ?? "" }) }
        return text
    }

    private static func record(_ values: [String]) -> String { values.map(cell).joined(separator: ",") + "\r\n" }

    private static func cell(_ value: String) -> String {
        let safe = TerminalText.escape(runsAsAFormula(value) ? "'" + value : value, keepingLineBreaks: true)
        guard safe.unicodeScalars.contains(where: { ["\r", "\n", ",", "\""].contains($0) }) else { return safe }
        return "\"" + safe.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    private static func runsAsAFormula(_ value: String) -> Bool {
        let signs = "=+-@\t\r＝＋－＠".unicodeScalars
        guard let first = value.unicodeScalars.first(where: { $0 != " " }), signs.contains(first) else { return false }
        return Double(value) == nil || !value.unicodeScalars.allSatisfy { "+-.0123456789".unicodeScalars.contains($0) }
    }
}
