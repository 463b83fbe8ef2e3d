/// Species as tab-separated values: a header row of field names, then one
/// line per species. In values, a backslash, tab, newline or carriage
/// return is written `\\`, `\t`, `\n`, `\r`; other control characters
/// are escaped (`\u{1B}`); an absent value is empty.
package enum SpeciesTSV {
    /// The header row and a line per species, of `fields`.
    package static func render(_ species: [StarWarsSpecies], fields: [SpeciesField] = SpeciesField.defaults) -> String {
        var text = fields.map(\.name).joined(separator: "\t") + "\n"
        for item in species { text += fields.map { escape($0.text(of: item) ?? "") }.joined(separator: "\t") + "\n" }
        return text
    }

    static func escape(_ value: String) -> String {
        var escaped = ""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\\": escaped += "\\\\"
            case "\t": escaped += "\\t"
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            default: escaped += TerminalText.escape(String(scalar))
            }
        }
        return escaped
    }
}
