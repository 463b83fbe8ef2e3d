/// The aligned table of `species list`.
public enum SpeciesTable {
    /// Shown for an absent value.
    static let missing = "-"

    /// A header row and one row per species, columns two spaces apart, with
    /// no trailing spaces; nothing at all for no species. Control characters
    /// in the server's values are escaped (`TerminalText`). Within `width`
    /// the widest columns are narrowed, their long cells ending in `…`, and
    /// the headers last; with `color`, the header is bold and absent values
    /// are dim.
    public static func render(
        _ species: [StarWarsSpecies], fields: [SpeciesField] = SpeciesField.defaults, width: Int? = nil,
        color: Bool = false
    ) -> String {
        guard !species.isEmpty, !fields.isEmpty else { return "" }
        let rows = species.map { item in fields.map { $0.text(of: item).map(TerminalText.escape) } }
        let contentWidths = fields.indices.map { column in rows.map { DisplayWidth.of($0[column] ?? missing) }.max() ?? 0 }
        var widths = fields.indices.map { max(DisplayWidth.of(fields[$0].title), contentWidths[$0]) }
        if let width { narrow(&widths, to: width, fields: fields) }

        let bold = color ? { "\u{1B}[1m\($0)\u{1B}[0m" } : { $0 }
        let dim = color ? { "\u{1B}[2m\($0)\u{1B}[0m" } : { $0 }
        var text = line(fields.map(\.title), widths: widths, fields: fields) { _, cell in bold(cell) } + "\n"
        for values in rows {
            text += line(values.map { $0 ?? missing }, widths: widths, fields: fields) { column, cell in
                values[column] == nil ? dim(cell) : cell
            } + "\n"
        }
        return text
    }

    /// Takes a column at a time until the table fits, from the widest that
    /// can give: first down to its header's width, cutting values; then, when
    /// every column is down to its header, the headers too. Numbers are never
    /// cut (a cut number would read as another number); text keeps at least
    /// four columns.
    private static func narrow(_ widths: inout [Int], to width: Int, fields: [SpeciesField]) {
        let minimums = fields.indices.map { fields[$0].isNumber ? widths[$0] : min(4, widths[$0]) }
        let headers = fields.indices.map { max(minimums[$0], DisplayWidth.of(fields[$0].title)) }
        var total = widths.reduce(0, +) + 2 * (widths.count - 1)
        for floors in [headers, minimums] {
            while total > width {
                guard let column = widths.indices.filter({ widths[$0] > floors[$0] }).max(by: { widths[$0] < widths[$1] })
                else { break }
                widths[column] -= 1
                total -= 1
            }
        }
    }

    /// One row: each cell cut to its column, styled, and padded outside the
    /// style, so that escape sequences never count as width.
    private static func line(
        _ texts: [String], widths: [Int], fields: [SpeciesField], style: (Int, String) -> String
    ) -> String {
        var line = ""
        for (column, text) in texts.enumerated() {
            let cell = DisplayWidth.truncate(text, to: widths[column])
            let padding = String(repeating: " ", count: max(0, widths[column] - DisplayWidth.of(cell)))
            if column > 0 { line += "  " }
            line += fields[column].isNumber ? padding + style(column, cell) : style(column, cell) + padding
        }
        while line.last == " " { line.removeLast() }
        return line
    }
}
