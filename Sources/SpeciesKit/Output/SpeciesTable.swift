/// The aligned table of `species list`.
public enum SpeciesTable {
    public enum Alignment: Sendable {
        case left, right
    }

    public struct Column: Sendable {
        public let header: String
        public let alignment: Alignment
        public let value: @Sendable (StarWarsSpecies) -> String?
    }

    /// Shown for an absent value.
    public static let missing = "-"

    public static let columns: [Column] = [
        Column(header: "NAME", alignment: .left) { $0.name },
        Column(header: "CLASSIFICATION", alignment: .left) { $0.classification },
        Column(header: "DESIGNATION", alignment: .left) { $0.designation },
        Column(header: "HEIGHT", alignment: .right) { $0.averageHeight.map(String.init) },
        Column(header: "LIFESPAN", alignment: .left) { $0.averageLifespan },
        Column(header: "LANGUAGE", alignment: .left) { $0.language },
    ]

    /// A header row and one row per species, columns two spaces apart, with
    /// no trailing spaces; nothing at all for no species. Control characters
    /// in the server's values are escaped (`TerminalText`).
    public static func render(_ species: [StarWarsSpecies], columns: [Column] = columns) -> String {
        guard !species.isEmpty else { return "" }
        let rows = [columns.map(\.header)] + species.map { item in
            columns.map { $0.value(item).map(TerminalText.escape) ?? missing }
        }
        let widths = columns.indices.map { index in
            rows.map { $0[index].count }.max() ?? 0
        }
        var text = ""
        for row in rows {
            var line = ""
            for (index, cell) in row.enumerated() {
                let padding = String(repeating: " ", count: widths[index] - cell.count)
                if index > 0 { line += "  " }
                line += columns[index].alignment == .right ? padding + cell : cell + padding
            }
            while line.last == " " { line.removeLast() }
            text += line + "\n"
        }
        return text
    }
}
