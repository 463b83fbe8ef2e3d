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
        let printed = allPages ? try await everyPage(context) : try await onePage(context)
        if printed == 0, let search {
            throw SpeciesError.noResults(search: search)
        }
    }

    /// Prints one page, and on stderr where it stands among the others.
    private func onePage(_ context: CommandContext) async throws -> Int {
        let url = context.client.root.speciesURL(page: page, search: search)
        let result: SpeciesPage
        do {
            result = try await context.client.page(at: url)
        } catch SpeciesError.httpStatus(404, _) where page > 1 {
            throw SpeciesError.notFound(what: "page \(page)" + searchDescription, url: url)
        }
        let printed =
            format == .jsonl
            ? await SpeciesJSON.writeLines(result.species, to: context.output) : write([result.species], to: context.output)
        if let summary = summary(of: result) {
            // At a terminal the hint belongs below the table.
            context.output.flush()
            context.diagnostics.note(summary)
        }
        return printed
    }

    /// Follows `next` to the last page. `--jsonl` prints each page as it
    /// arrives; the table and `--json` print only once every page is in, so
    /// a failure leaves stdout empty. Pages wait as their response bodies;
    /// species are decoded as they are printed.
    private func everyPage(_ context: CommandContext) async throws -> Int {
        var pages: [SpeciesList] = []
        var printed = 0
        try await context.client.forEachPage(from: context.client.root.speciesURL(page: page, search: search)) { result in
            if format == .jsonl {
                printed += await SpeciesJSON.writeLines(result.species, to: context.output)
                context.output.flush()
            } else {
                pages.append(result.species)
            }
        }
        return format == .jsonl ? printed : write(pages, to: context.output)
    }

    /// Prints the species of `pages` in the format asked; returns how many.
    private func write(_ pages: [SpeciesList], to output: any OutputSink) -> Int {
        let species = pages.joined()
        switch format {
        case .table:
            let all = Array(species)
            output.write(SpeciesTable.render(all))
            return all.count
        case .json:
            return SpeciesJSON.writeArray(species, to: output)
        case .jsonl:
            return SpeciesJSON.writeLines(species, to: output)
        }
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
