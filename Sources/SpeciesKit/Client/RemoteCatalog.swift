import Foundation

/// SWAPI's species as the API serves them, through the fetcher (and so its
/// cache): pages, every page, one species, and the names of what species
/// link to. Every body is checked as it arrives; a field that could not be
/// read is reported as a warning.
struct RemoteCatalog: Sendable {
    /// More pages than this is taken for a server that never ends.
    static let maxPages = 500
    /// Requests at once, as many as URLSession's connections to a host.
    static let concurrency = 6

    let root: APIRoot
    let fetcher: Fetcher
    let diagnostics: any Diagnostics
    /// Follow `next` one page at a time.
    let serial: Bool

    /// The page of a listing at `url`.
    func listing(at url: URL) async throws -> Fetcher.Fetched<ListingPage> {
        let fetched = try await fetcher.get(url) { body, url throws(SpeciesError) in
            let page = try ResponseBody.decode(SpeciesPage.self, from: body, url: url)
            return ListingPage(count: page.count, next: page.next, previous: page.previous, species: page.results, issues: page.issues)
        }
        report(fetched.value.issues)
        return fetched
    }

    func page(_ number: Int, search: String?) async throws -> SpeciesClient.Page {
        let url = root.speciesURL(page: number, search: search)
        let page: ListingPage
        do {
            page = try await listing(at: url).value
        } catch SpeciesError.httpStatus(404, _) where number > 1 {
            throw SpeciesError.notFound(what: "page \(number)" + Self.matching(search), url: url)
        }
        let count = page.count ?? page.species.count
        let pages = page.next == nil ? number : max(number + 1, count.dividedRoundingUp(by: max(1, page.species.count)))
        return SpeciesClient.Page(number: number, count: count, pageCount: pages, species: page.species)
    }

    func forEachPage(search: String?, _ deliver: ([StarWarsSpecies]) async throws -> Void) async throws {
        let first = root.speciesURL(page: 1, search: search)
        let walk = PageWalk(
            catalog: self, first: first, pageURL: { [root] in root.speciesURL(page: $0, search: search) },
            expectedPages: 1, concurrency: serial ? 1 : Self.concurrency)
        let summary = try await walk.run(deliver)
        if let counted = summary.counted, counted != summary.received {
            diagnostics.warning("the API counted \(counted) species but sent \(summary.received), from \(first.redacted)")
        }
    }

    func species(at url: URL) async throws -> StarWarsSpecies {
        let decoded = try await fetcher.get(url) { body, url throws(SpeciesError) in
            let decoded = try ResponseBody.decode(StarWarsSpecies.Decoded.self, from: body, url: url)
            guard decoded.species.name != nil || decoded.species.url != nil else {
                throw .invalidResponse(url: url, problem: "it has neither 'name' nor 'url': it is not a species")
            }
            return decoded
        }.value
        report(decoded.invalidFields.map { SpeciesIssue(species: decoded.species.displayName, field: $0) })
        return decoded.species
    }

    /// The name or title, and episode, of a planet, person or film.
    func resource(_ reference: ResourceReference) async throws -> RelatedResource {
        try await fetcher.get(root.url.appendingPathComponent(reference.path + "/")) { body, url throws(SpeciesError) in
            try ResponseBody.decode(RelatedResource.self, from: body, url: url)
        }.value
    }

    private func report(_ issues: [SpeciesIssue]) {
        for issue in issues {
            diagnostics.warning(issue.description)
        }
    }

    /// ` of the species matching 'an'`, for messages.
    static func matching(_ search: String?) -> String {
        search.map { " of the species matching '\(Excerpt.of($0))'" } ?? ""
    }
}

/// A page of species as the API lists them.
struct ListingPage: Sendable {
    var count: Int?
    var next: String?
    var previous: String?
    var species: [StarWarsSpecies]
    var issues: [SpeciesIssue]
}
