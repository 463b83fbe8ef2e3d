import SpeciesKit

/// `--format`.
enum OutputFormat: String, CaseIterable, Sendable {
    case table, tsv, json, jsonl
}

/// `species list`: one page of species, or every page, as a table, TSV or
/// JSON. A search that matches nothing prints nothing, whatever the format,
/// and ends with exit status 1, as grep does.
struct ListCommand: Sendable, Equatable {
    var page = 1
    var allPages = false
    var search: String?
    var format = OutputFormat.table
    /// `--sort`; nil keeps API order.
    var order: SpeciesOrder?
    /// `--reverse`: the order, or API order, backwards.
    var reversed = false
    /// The columns of the table and of TSV.
    var fields = SpeciesField.defaults
    /// The table's width and colour.
    var terminal = Terminal()

    func run(_ context: CommandContext) async throws {
        if allPages {
            try await everyPage(context)
        } else {
            try await onePage(context)
        }
    }

    /// Prints one page, and on stderr where it stands among the others.
    private func onePage(_ context: CommandContext) async throws {
        context.diagnostics.progress("fetching page \(page)…")
        let result = try await context.client.page(page, search: search)
        context.diagnostics.progressEnded()
        try checkFound(result.species.count)
        write(result.species, to: context.output)
        // At a terminal the hint belongs below the table; after a failed
        // write, the one line on stderr is the error.
        context.output.flush()
        if result.count > result.species.count, !result.species.isEmpty, context.output.writeError == nil {
            var hint = "page \(page) of \(result.pageCount), \(result.count) species" + SpeciesError.matching(search)
            if page < result.pageCount { hint += "; use --page \(page + 1) or --all-pages" }
            context.diagnostics.note(hint)
        }
    }

    /// Every page. `--jsonl` in API order prints each page as it arrives;
    /// the other formats, and any order, print once every page is in, so a
    /// failure leaves stdout empty.
    private func everyPage(_ context: CommandContext) async throws {
        let streams = format == .jsonl && !reorders
        var species: [StarWarsSpecies] = []
        var printed = 0
        try await context.client.forEachPage(search: search) { page in
            guard streams else { return species += page }
            context.diagnostics.progressEnded()
            SpeciesJSON.writeLines(page, to: context.output.write)
            context.output.flush()
            printed += page.count
        }
        context.diagnostics.progressEnded()
        try checkFound(streams ? printed : species.count)
        if !streams { write(species, to: context.output) }
    }

    private func checkFound(_ count: Int) throws {
        if count == 0, let search {
            throw SpeciesError.noResults(search: search)
        }
    }

    private var reorders: Bool { order != nil || reversed }

    /// The species in the format and order asked.
    private func write(_ species: [StarWarsSpecies], to output: any OutputSink) {
        let species = order.map { $0.sorted(species, reversed: reversed) } ?? (reversed ? species.reversed() : species)
        switch format {
        case .table: output.write(SpeciesTable.render(species, fields: fields, width: terminal.width, color: terminal.color))
        case .tsv: output.write(SpeciesTSV.render(species, fields: fields))
        case .json: SpeciesJSON.writeArray(species, to: output.write)
        case .jsonl: SpeciesJSON.writeLines(species, to: output.write)
        }
    }
}
