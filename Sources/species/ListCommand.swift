import SpeciesKit

/// `--format`.
enum OutputFormat: String, CaseIterable, Sendable { case table, tsv, csv, markdown, json, jsonl }

/// `species list`: one page of species, every page, or the first `limit`,
/// as a table, TSV, CSV, Markdown or JSON. A search that matches nothing
/// prints nothing (`--json`: `[]`), and ends with exit status 1, as grep
/// does.
struct ListCommand: Sendable, Equatable {
    var page = 1
    var allPages = false
    var search: String?
    var format = OutputFormat.table
    /// `--sort`; nil keeps API order.
    var order: SpeciesOrder?
    /// `--reverse`: the order, or API order, backwards.
    var reversed = false
    /// `--fields`: the columns, or the JSON keys; nil for the default
    /// columns, and every key.
    var fields: [SpeciesField]?
    /// `--limit`: at most this many species, from the first page on.
    var limit: Int?
    /// The table's width, and the colour of the table and the JSON.
    var terminal = Terminal()

    func run(_ context: CommandContext) async throws {
        if allPages || limit != nil { try await everyPage(context) } else { try await onePage(context) }
    }

    /// Prints one page, and on stderr where it stands among the others.
    private func onePage(_ context: CommandContext) async throws {
        let result = try await context.client.page(page, search: search).value
        context.diagnostics.progressEnded()
        try checkFound(result.species.count, context)
        write(result.species, context)
        // At a terminal the hint belongs below the table; after a failed
        // write, the one line on stderr is the error.
        context.output.flush()
        if result.count > result.species.count, !result.species.isEmpty, context.output.writeError == nil {
            var hint = "page \(page) of \(result.pageCount), \(result.count) species" + Phrase.matching(search)
            if page < result.pageCount { hint += "; use --page \(page + 1) or --all-pages" }
            context.diagnostics.hint(hint)
        }
    }

    /// Every page, or, with a limit and no order to sort by, the pages that
    /// hold `limit` species; printed once the whole listing is in, from one
    /// source, whatever the format (docs/cli.md, "One answer, one source"),
    /// so a failure leaves stdout empty.
    private func everyPage(_ context: CommandContext) async throws {
        let species = try await context.client.allSpecies(search: search, limit: reorders ? nil : limit).value
        context.diagnostics.progressEnded()
        try checkFound(species.count, context)
        write(species, context)
    }

    /// A search that found nothing fails, as grep does; JSON still says
    /// so as an empty array, which `jq length` reads as 0.
    private func checkFound(_ count: Int, _ context: CommandContext) throws {
        guard count == 0, let search else { return }
        if format == .json { write([], context) }
        throw CommandError("no species matches '\(Excerpt.of(search))'", .nothingMatched)
    }

    private var reorders: Bool { order != nil || reversed }

    /// The species in the format and order asked, the first `limit` of them.
    /// A table too wide for the terminal leaves columns out, and says which;
    /// one of `--fields` cuts cells instead.
    private func write(_ species: [StarWarsSpecies], _ context: CommandContext) {
        let output = context.output
        let ordered = order.map { $0.sorted(species, reversed: reversed) } ?? (reversed ? species.reversed() : species)
        let species = limit.map { Array(ordered.prefix($0)) } ?? ordered
        let columns = fields ?? SpeciesField.defaults
        switch format {
        case .table:
            // Columns that --fields names are all shown, their cells cut.
            let shown = fields == nil ? SpeciesTable.columns(species, fields: columns, width: terminal.width) : columns
            if let width = terminal.width, shown.count < columns.count, !species.isEmpty {
                let left = columns.filter { !shown.contains($0) }.map(\.name)
                context.diagnostics.hint(
                    "the table leaves out \(Phrase.alternatives(left, conjunction: "and")) to fit in \(width) columns; --fields chooses them"
                )
            }
            output.write(
                SpeciesTable.render(
                    species, fields: columns, width: terminal.width, cutsCells: fields != nil, color: terminal.color))
        case .tsv: output.write(SpeciesTSV.render(species, fields: columns))
        case .csv: output.write(SpeciesCSV.render(species, fields: columns))
        case .markdown: output.write(SpeciesMarkdown.render(species, fields: columns))
        case .json: SpeciesJSON.writeArray(species, fields: jsonFields, colored: terminal.color, to: output.write)
        case .jsonl: SpeciesJSON.writeLines(species, fields: jsonFields, colored: terminal.color, to: output.write)
        }
    }

    /// The keys of the JSON: those of `--fields`, else every one.
    private var jsonFields: [SpeciesField] { fields ?? SpeciesField.allCases }
}

extension ListCommand {
    static let page = Option<Self>.option(
        OptionDefinition(
            names: ["--page"], valueName: "n", shownDefault: "1",
            summary: "Print page <n>; SWAPI pages hold \(SpeciesPage.size) species"), \.page
    ) { text throws(ValueProblem) in try Read.wholeNumber(text, in: 1...Int.max, expected: "a whole number from 1 up") }
    static let allPages = Option<Self>.flag(
        OptionDefinition(names: ["-a", "--all-pages"], summary: "Follow the API's next links and print every species"),
        \.allPages, true)
    static let search = Option<Self>.option(
        OptionDefinition(
            names: ["--search"], valueName: "text",
            summary: "Only species whose name holds every word of <text>, ignoring case (swapi.dev's search)"),
        // SpeciesKit reads it, and refuses one with no word, as `show` does.
        \.search
    ) { text throws(ValueProblem) -> String? in text }
    static let format = Option<Self>.option(
        OptionDefinition(
            names: ["-o", "--format"], valueName: "format", choices: OutputFormat.allCases.map(\.rawValue),
            shownDefault: OutputFormat.table.rawValue,
            summary:
                "\(Phrase.alternatives(OutputFormat.allCases.map(\.rawValue))): an aligned table fitted to the terminal, tab-separated values, CSV (RFC 4180), a Markdown table, one JSON array, or one JSON object a line"
        ), \.format, read: Read.choice)
    static let json = Option<Self>.flag(
        OptionDefinition(names: ["--json"], summary: "The same as --format json: one JSON array"), \.format, .json)
    static let jsonl = Option<Self>.flag(
        OptionDefinition(names: ["--jsonl"], summary: "The same as --format jsonl: one compact JSON object a line"),
        \.format, .jsonl)
    static let sort = Option<Self>.option(
        OptionDefinition(
            names: ["--sort"], valueName: "key", choices: SpeciesOrder.allCases.map(\.rawValue),
            summary:
                "Order by \(Phrase.alternatives(SpeciesOrder.allCases.map(\.rawValue))); numbers as numbers, unknown values last"
        ), \.order
    ) { text throws(ValueProblem) -> SpeciesOrder? in try Read.choice(text) }
    static let reverse = Option<Self>.flag(
        OptionDefinition(names: ["--reverse"], summary: "Reverse the order (of --sort, or of the API)"), \.reversed,
        true)
    static let fields = Option<Self>.option(
        OptionDefinition(
            names: ["--fields"], valueName: "a,b,...", choices: SpeciesField.allCases.map(\.name), takesList: true,
            shownDefault: SpeciesField.defaults.map(\.name).joined(separator: ", ") + "; with JSON, every key",
            summary:
                "The columns, or with JSON the keys, in this order, among \(SpeciesField.allCases.map(\.name).joined(separator: ", "))"
        ), \.fields
    ) { text throws(ValueProblem) -> [SpeciesField]? in
        var fields: [SpeciesField] = []
        let names = SpeciesField.allCases.map(\.name)
        // A comma may end the list, as fish's completion leaves it.
        for word in (text.hasSuffix(",") ? text.dropLast() : Substring(text)).split(
            separator: ",", omittingEmptySubsequences: false)
        {
            let word = word.trimmingCharacters(in: .whitespaces)
            guard let field = SpeciesField(named: word) else {
                throw ValueProblem(expected: "fields among " + Phrase.alternatives(names), value: word, nearest: names)
            }
            // A field given twice is one column, one key.
            if !fields.contains(field) { fields.append(field) }
        }
        return fields
    }
    static let limit = Option<Self>.option(
        OptionDefinition(
            names: ["-n", "--limit"], valueName: "n",
            summary:
                "Print at most <n> species from the first on, after the search and the sort (not with --page); without a sort, fetch only the pages they fill"
        ), \.limit
    ) { text throws(ValueProblem) -> Int? in
        try Read.wholeNumber(text, in: 1...Int.max, expected: "a whole number from 1 up")
    }

    /// The options of `species list` (docs/cli.md), each read into its property.
    static let options = [
        Self.page, Self.allPages, Self.search, Self.format, Self.json, Self.jsonl, Self.sort, Self.reverse, Self.fields,
        Self.limit,
    ]

    /// Options that contradict each other: at most one may be given. (The
    /// spellings of one setting, `--format`, `--json` and `--jsonl`, do not:
    /// the last given wins.)
    static let exclusive = [[Self.page, Self.allPages], [Self.page, Self.limit]].map { $0.map(\.definition) }

    /// The spellings of the format.
    static let formats = [Self.format, Self.json, Self.jsonl].map(\.definition)
}
