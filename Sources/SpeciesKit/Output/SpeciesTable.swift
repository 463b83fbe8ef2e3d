/// Species as an aligned text table, fitted to a width when one is given.
package enum SpeciesTable {
    /// Shown for an absent value.
    static let missing = "-"
    /// The fewest columns a cut column keeps: fewer show no useful part of
    /// its values.
    static let usefulWidth = 6

    /// A header row and one row per species, columns two spaces apart, with
    /// no trailing spaces; nothing at all for no species. Control characters
    /// in the server's values are escaped (`\u{1B}`). Within `width`, only
    /// the columns of `columns(_:fields:width:)`, or, when every one of
    /// `fields` was asked for (`cutsCells`), all of them, their text cells
    /// cut (`…`) to fit (docs/cli.md, "list"); with `color`, the header is
    /// bold and absent values are dim.
    package static func render(
        _ species: [StarWarsSpecies], fields: [SpeciesField] = SpeciesField.defaults, width: Int? = nil,
        cutsCells: Bool = false, color: Bool = false
    ) -> String {
        guard !species.isEmpty, !fields.isEmpty else { return "" }
        let layout = Layout(species, fields: fields, width: width, cutsCells: cutsCells)
        let bold = color ? { "\u{1B}[1m\($0)\u{1B}[0m" } : { $0 }
        let dim = color ? { "\u{1B}[2m\($0)\u{1B}[0m" } : { $0 }
        var text = layout.line(layout.columns.map(\.field.title)) { _, cell in bold(cell) } + "\n"
        for row in species.indices {
            let values = layout.columns.map { $0.cells[row] }
            text +=
                layout.line(values.map { $0 ?? missing }) { column, cell in values[column] == nil ? dim(cell) : cell }
                + "\n"
        }
        return text
    }

    /// The fields a table of `species` shows within `width`, in their
    /// order. The name (else the first field) stays, whole, at any width;
    /// the others are left out whole, from the last, until the rest fits.
    /// Then the first left out comes back cut, when what is left shows a
    /// useful part of it (text only: a cut number would read as another
    /// number).
    package static func columns(_ species: [StarWarsSpecies], fields: [SpeciesField], width: Int?) -> [SpeciesField] {
        Layout(species, fields: fields, width: width).columns.map(\.field)
    }

    private struct Layout {
        typealias Column = (place: Int, field: SpeciesField, cells: [String?], width: Int)
        var columns: [Column]

        init(_ species: [StarWarsSpecies], fields: [SpeciesField], width: Int?, cutsCells: Bool = false) {
            columns = fields.enumerated().map { place, field in
                let cells = species.map { field.text(of: $0).map(TerminalText.escape) }
                let width = cells.map { DisplayWidth.of($0 ?? missing) }.reduce(DisplayWidth.of(field.title), max)
                return (place, field, cells, width)
            }
            guard let width, Self.total(columns) > width else { return }
            if cutsCells {
                cut(to: width)
                return
            }
            let anchor = fields.firstIndex(of: .name) ?? 0
            var leftOut: Column?
            while Self.total(columns) > width, let last = columns.lastIndex(where: { $0.place != anchor }) {
                leftOut = columns.remove(at: last)
            }
            let room = width - Self.total(columns) - 2
            if var cut = leftOut, !cut.field.isNumber, room >= max(usefulWidth, DisplayWidth.of(cut.field.title)) {
                cut.width = room
                columns.insert(cut, at: columns.firstIndex { $0.place > cut.place } ?? columns.count)
            }
        }

        /// Narrows the widest text column by one, over and over, until the
        /// table fits or each is down to `usefulWidth`: no column goes, the
        /// name stays whole, and no number is cut (it would read as another).
        private mutating func cut(to width: Int) {
            while Self.total(columns) > width {
                let widest = columns.indices.filter {
                    columns[$0].field != .name && !columns[$0].field.isNumber && columns[$0].width > usefulWidth
                }.max { columns[$0].width < columns[$1].width }
                guard let widest else { return }
                columns[widest].width -= 1
            }
        }

        private static func total(_ columns: [Column]) -> Int {
            columns.map(\.width).reduce(0, +) + 2 * max(0, columns.count - 1)
        }

        /// One row: each cell cut to its column, styled, and padded outside
        /// the style, so that escape sequences never count as width.
        func line(_ texts: [String], style: (Int, String) -> String) -> String {
            var line = ""
            for (index, text) in texts.enumerated() {
                let column = columns[index]
                let cell = DisplayWidth.truncate(text, to: column.width)
                let padding = String(repeating: " ", count: max(0, column.width - DisplayWidth.of(cell)))
                if index > 0 { line += "  " }
                line += column.field.isNumber ? padding + style(index, cell) : style(index, cell) + padding
            }
            while line.last == " " { line.removeLast() }
            return line
        }
    }
}
