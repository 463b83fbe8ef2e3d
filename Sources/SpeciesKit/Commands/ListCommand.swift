/// `species list`: one page of species, or every page, as a table, TSV or JSON.
public struct ListCommand: Sendable, Equatable {
    public enum Format: Sendable, Equatable {
        case table, tsv, json, jsonl
    }

    public var page: Int
    public var allPages: Bool
    public var search: String?
    public var format: Format
    /// `--sort`; nil keeps API order.
    public var order: SpeciesOrder?
    /// `--reverse`: the order, or API order, backwards.
    public var reversed: Bool
    /// The columns of the table and of TSV.
    public var fields: [SpeciesField]
    /// The table's width and colour.
    public var terminal: Terminal

    public init(
        page: Int = 1, allPages: Bool = false, search: String? = nil, format: Format = .table,
        order: SpeciesOrder? = nil, reversed: Bool = false, fields: [SpeciesField] = SpeciesField.defaults,
        terminal: Terminal = Terminal()
    ) {
        self.page = page
        self.allPages = allPages
        self.search = search
        self.format = format
        self.order = order
        self.reversed = reversed
        self.fields = fields
        self.terminal = terminal
    }

    public func run(_ context: CommandContext) async throws {
        let printed = allPages ? try await everyPage(context) : try await onePage(context)
        if printed == 0, let search {
            throw SpeciesError.noResults(search: search)
        }
    }

    /// Prints one page, and on stderr where it stands among the others.
    private func onePage(_ context: CommandContext) async throws -> Int {
        let url = context.client.root.speciesURL(page: page, search: search)
        let result: SpeciesPage
        context.diagnostics.progress("fetching page \(page)…")
        do {
            result = try await context.client.page(at: url)
        } catch SpeciesError.httpStatus(404, _) where page > 1 {
            throw SpeciesError.notFound(what: "page \(page)" + searchDescription, url: url)
        }
        context.diagnostics.progressEnded()
        let printed = await write([result.species], to: context.output)
        if let summary = summary(of: result) {
            // At a terminal the hint belongs below the table.
            context.output.flush()
            context.diagnostics.note(summary)
        }
        return printed
    }

    /// Follows `next` to the last page. `--jsonl` in API order prints each
    /// page as it arrives; the other formats, and any order, print only once
    /// every page is in, so a failure leaves stdout empty. Pages wait as
    /// their response bodies; species are decoded as they are printed.
    private func everyPage(_ context: CommandContext) async throws -> Int {
        let streams = format == .jsonl && !reorders
        var pages: [SpeciesList] = []
        var printed = 0
        try await context.client.forEachPage(from: context.client.root.speciesURL(page: page, search: search)) { result in
            if streams {
                context.diagnostics.progressEnded()
                printed += await SpeciesJSON.writeLines(result.species, to: context.output)
                context.output.flush()
            } else {
                pages.append(result.species)
            }
        }
        context.diagnostics.progressEnded()
        return streams ? printed : await write(pages, to: context.output)
    }

    private var reorders: Bool { order != nil || reversed }

    /// Prints the species of `pages` in the format and order asked; returns
    /// how many. JSON in API order is written as it is decoded; a table, TSV
    /// or another order needs every species first.
    private func write(_ pages: [SpeciesList], to output: any OutputSink) async -> Int {
        switch (format, reorders) {
        case (.json, false):
            return SpeciesJSON.writeArray(pages.joined(), to: output)
        case (.jsonl, false):
            return pages.count == 1
                ? await SpeciesJSON.writeLines(pages[0], to: output) : SpeciesJSON.writeLines(pages.joined(), to: output)
        default:
            let species = arranged(Array(pages.joined()))
            switch format {
            case .table: output.write(SpeciesTable.render(species, fields: fields, width: terminal.width, color: terminal.color))
            case .tsv: output.write(SpeciesTSV.render(species, fields: fields))
            case .json: SpeciesJSON.writeArray(species, to: output)
            case .jsonl: SpeciesJSON.writeLines(species, to: output)
            }
            return species.count
        }
    }

    /// `--sort` and `--reverse` applied.
    private func arranged(_ species: [StarWarsSpecies]) -> [StarWarsSpecies] {
        if let order { return order.sorted(species, reversed: reversed) }
        return reversed ? species.reversed() : species
    }

    /// "page 1 of 4, 37 species; use --page 2 or --all-pages", when there
    /// is more than one page.
    private func summary(of result: SpeciesPage) -> String? {
        let size = result.species.count
        guard let count = result.count, count > size, size > 0 else { return nil }
        let pages = result.next == nil ? page : count.dividedRoundingUp(by: size)
        var text = "page \(page) of \(pages), \(count) species\(searchDescription)"
        if result.next != nil, page < Int.max {
            text += "; use --page \(page + 1) or --all-pages"
        }
        return text
    }

    private var searchDescription: String {
        search.map { " matching '\($0)'" } ?? ""
    }
}
