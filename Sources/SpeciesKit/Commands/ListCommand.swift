/// `species list`: one page of species, or every page, as a table or JSON.
public struct ListCommand: Sendable, Equatable {
    public enum Format: Sendable, Equatable {
        case table, json, jsonl
    }

    public var page: Int
    public var allPages: Bool
    public var search: String?
    public var format: Format

    public init(page: Int = 1, allPages: Bool = false, search: String? = nil, format: Format = .table) {
        self.page = page
        self.allPages = allPages
        self.search = search
        self.format = format
    }

    public func run(_ context: CommandContext) async throws {
        let species = allPages ? try await everyPage(context) : try await onePage(context)
        if species.isEmpty, let search {
            throw SpeciesError.noResults(search: search)
        }
    }

    /// Prints one page, and on stderr where it stands among the others.
    private func onePage(_ context: CommandContext) async throws -> [StarWarsSpecies] {
        let url = context.client.root.speciesURL(page: page, search: search)
        let result: SpeciesPage
        do {
            result = try await context.client.page(at: url)
        } catch SpeciesError.httpStatus(404, _) where page > 1 {
            throw SpeciesError.notFound(what: "page \(page)" + searchDescription, url: url)
        }
        context.output.write(render(result.results))
        if let summary = summary(of: result) {
            // At a terminal the hint belongs below the table.
            context.output.flush()
            context.diagnostics.note(summary)
        }
        return result.results
    }

    /// Follows `next` to the last page. `--jsonl` prints each page as it
    /// arrives; the table and `--json` print only once every page is in, so
    /// a failure leaves stdout empty.
    private func everyPage(_ context: CommandContext) async throws -> [StarWarsSpecies] {
        var species: [StarWarsSpecies] = []
        try await context.client.forEachPage(from: context.client.root.speciesURL(page: page, search: search)) { result in
            species += result.results
            if format == .jsonl {
                context.output.write(SpeciesJSON.lines(result.results))
                context.output.flush()
            }
        }
        if format != .jsonl {
            context.output.write(render(species))
        }
        return species
    }

    private func render(_ species: [StarWarsSpecies]) -> String {
        switch format {
        case .table: SpeciesTable.render(species)
        case .json: SpeciesJSON.document(species)
        case .jsonl: SpeciesJSON.lines(species)
        }
    }

    /// "page 1 of 4, 37 species; use --page 2 or --all-pages", when there
    /// is more than one page.
    private func summary(of result: SpeciesPage) -> String? {
        guard let count = result.count, count > result.results.count, !result.results.isEmpty else { return nil }
        let pages = result.next == nil ? page : (count + result.results.count - 1) / result.results.count
        var text = "page \(page) of \(pages), \(count) species\(searchDescription)"
        if result.next != nil {
            text += "; use --page \(page + 1) or --all-pages"
        }
        return text
    }

    private var searchDescription: String {
        search.map { " matching '\($0)'" } ?? ""
    }
}
