import Foundation

/// SWAPI's species as the API serves them, in whichever dialect it speaks,
/// through one attempt at the service (and so its cache): a page, every
/// page, one species, and the names of what species link to. Every body is
/// checked as it arrives; a field that could not be read is a warning,
/// which the attempt holds, as it hears what is handed over.
///
/// A service that is not SWAPI gives way (`SpeciesError.meansUnanswered`):
/// one whose species list answers 404 or is empty, or whose listing is not
/// whole (`WholeListing`), on any path that reads one. A 404 for one
/// species, page or resource is SWAPI's answer only once the species list
/// has answered as SWAPI's does: a service that answers 404 to everything
/// has none of them.
struct RemoteCatalog: SpeciesSource {
    /// More pages than this is taken for a server that never ends.
    static let maxPages = 500
    /// Requests at once, as many as URLSession's connections to a host.
    static let concurrency = 6

    let attempt: Attempt
    /// Follow `next` one page at a time.
    let serial: Bool

    var root: APIRoot { attempt.root }

    /// The listing at `url`, which must be in `expected`'s dialect (with its
    /// results in full). When it is not, and the listing is the first answer
    /// of its walk, the dialect is learnt and `DialectMismatch` thrown, so
    /// that the walk starts again in the service's own; a later page in
    /// another dialect is an answer that is not SWAPI's. The page that
    /// `opens` a listing is never missing.
    func listing(at url: URL, expected: Dialect, first: Bool = true, opens: Bool) async throws -> ListingBody {
        let listing: ListingBody
        do {
            listing = try await read(listing: url, expected: expected, first: first)
        } catch SpeciesError.httpStatus(404, let url) where opens {
            throw SpeciesError.notSWAPI(url: url, status: 404)
        }
        attempt.learn(listing.dialect)
        guard listing.dialect == expected, listing.expanded else {
            throw DialectMismatch(dialect: listing.dialect, url: url)
        }
        for issue in listing.issues {
            attempt.warning(issue.description)
        }
        return listing
    }

    private func read(listing url: URL, expected: Dialect, first: Bool) async throws -> ListingBody {
        try await attempt.get(url) { body, url throws(SpeciesError) in
            let listing = try ResponseBody.decode(ListingBody.self, from: body, url: url)
            if listing.dialect == .tech, expected == .tech, !listing.expanded {
                throw .invalidResponse(url: url, .namesOnly)
            }
            if !first, listing.dialect != expected || !listing.expanded {
                throw .invalidResponse(url: url, .formChanged(to: listing.dialect.service, from: expected.service))
            }
            return listing
        }
    }

    /// Page `number`: swapi.dev's or swapi.tech's own, held to what it can
    /// tell of its listing (`WholeListing.page`), or a slice of what the
    /// client filtered.
    func page(_ number: Int, search: String?) async throws -> SpeciesPage {
        try await inDialect { dialect in
            if Self.comesWhole(dialect, search) {
                return try SpeciesPage(
                    slicing: try await everything(in: dialect, matching: search), page: number, search: search)
            }
            let url = dialect.listingURL(root, page: number, search: search)
            let page: SpeciesPage
            do {
                let listing = try await self.listing(
                    at: url, expected: dialect, opens: number == 1)
                page = try WholeListing.page(listing, number: number, at: url, search: search)
            } catch SpeciesError.httpStatus(404, _) where number > 1 {
                // swapi.dev's page past the last: page 1 says how many there are.
                let first = dialect.listingURL(root, page: 1, search: search)
                let listing = try await self.listing(at: first, expected: dialect, opens: true)
                let pages = try WholeListing.page(listing, number: 1, at: first, search: search).pageCount
                throw SpeciesError.noSuchPage(number, pages: pages, search: search)
            }
            attempt.handedOver(page: url, species: page.species.count)
            return page
        }
    }

    /// Every page, or, with a `limit`, as few as hold that many species.
    func species(matching search: String?, limit: Int?) async throws -> [StarWarsSpecies] {
        try await inDialect { dialect in
            if Self.comesWhole(dialect, search) {
                return try await everything(in: dialect, matching: search)
            }
            let first = dialect.listingURL(root, page: 1, search: search)
            var plan = serial ? (pages: 1, source: "") : expectedPages(at: first, in: dialect, search: search)
            if let limit, limit < plan.pages * SpeciesPage.size {
                plan = (limit.dividedRoundingUp(by: SpeciesPage.size), "as many as hold the \(limit) species wanted")
            }
            attempt.trace(
                serial
                    ? "page plan: one page at a time, each from the last one's next link"
                    : "page plan: \(plan.pages == 1 ? "page 1" : "pages 1 to \(plan.pages) at once") (\(plan.source)), "
                        + (limit.map { "then more while fewer than \($0) have come" }
                            ?? "then the rest that page 1 counts"))
            let walk = PageWalk(
                catalog: self, dialect: dialect, search: search, expectedPages: plan.pages, limit: limit)
            var species: [StarWarsSpecies] = []
            try await walk.run { url, page in
                attempt.handedOver(page: url, species: page.count)
                species += page
            }
            return species
        }
    }

    /// How many pages to ask for at once, before page 1 has said: as many as
    /// the cache's copy of page 1, of any age, says; else as many as the
    /// matching species fill in the SWAPI data built into species. When the
    /// guess is right, every page comes in one round trip; when it is not,
    /// `PageWalk` fetches the rest, or drops the pages past the end.
    private func expectedPages(at first: URL, in dialect: Dialect, search: String?) -> (pages: Int, source: String) {
        if let body = attempt.cache?.read(first)?.body,
            let listing = try? ResponseBody.decode(ListingBody.self, from: body, url: first), listing.dialect == dialect
        {
            let pages = Paging(count: listing.count, size: listing.species.count).pages
            return (min(pages, Self.maxPages), "as many as the cached page 1 counts")
        }
        return (BundledCatalog.pageCount(matching: search), "as many as the SWAPI data built into species fills")
    }

    /// Runs `body` in the API's dialect; when an answer shows another, runs
    /// it again in that one. A service whose answers go back to a dialect
    /// already tried does not answer as SWAPI does.
    private func inDialect<Value>(_ body: (Dialect) async throws -> Value) async throws -> Value {
        var dialect = attempt.dialect
        var tried: Set<Dialect> = []
        while true {
            tried.insert(dialect)
            do {
                return try await body(dialect)
            } catch let mismatch as DialectMismatch {
                guard !tried.contains(mismatch.dialect) else {
                    throw SpeciesError.invalidResponse(
                        url: mismatch.url, .formChanged(to: mismatch.dialect.service, from: dialect.service))
                }
                dialect = mismatch.dialect
            }
        }
    }

    /// Whether the listing comes in one answer, which the client pages:
    /// swapi.info's, and swapi.tech's search.
    private static func comesWhole(_ dialect: Dialect, _ search: String?) -> Bool {
        dialect == .info || (dialect == .tech && !SearchTerms(search ?? "").terms.isEmpty)
    }

    /// Every species of swapi.info's one answer, or of swapi.tech's search
    /// by the longest term of `search` (each of which must match that term),
    /// whose name matches `search`, in id order.
    private func everything(in dialect: Dialect, matching search: String?) async throws -> [StarWarsSpecies] {
        let terms = SearchTerms(search ?? "")
        let term = dialect == .tech ? terms.terms.max { $0.count < $1.count } : nil
        let url = term.map { dialect.techSearchURL(root, term: $0) } ?? dialect.listingURL(root, page: 1, search: nil)
        let listing = try await listing(at: url, expected: dialect, opens: true)
        // One answer holds the whole listing: one page of all its species.
        var whole = WholeListing(search: term, pageSize: .max)
        let species = try whole.add(listing, number: 1, at: url).filter { terms.matches($0.name) }
        attempt.handedOver(page: url, species: species.count)
        return species
    }

    func species(id: Int) async throws -> StarWarsSpecies {
        try await species(
            at: attempt.dialect.url(of: ResourceReference(.species, id), under: root), what: "species \(id)")
    }

    /// The species at `url`; at another service's URL, the species of the
    /// same id here.
    func species(at url: URL) async throws -> StarWarsSpecies {
        if !root.contains(url), let id = ResourceReference.species(in: url.absoluteString) {
            return try await species(id: id)
        }
        return try await species(at: url, what: "the species at \(url.redacted)")
    }

    private func species(at url: URL, what: String) async throws -> StarWarsSpecies {
        let decoded = try await answeringNotFound(what) {
            try await attempt.get(url) { body, url throws(SpeciesError) in
                let decoded = try ResponseBody.decode(DetailBody<StarWarsSpecies.Decoded>.self, from: body, url: url)
                    .value
                guard decoded.species.name != nil || decoded.species.url != nil else {
                    throw .invalidResponse(url: url, .notASpecies)
                }
                return decoded
            }
        }
        for field in decoded.invalidFields {
            attempt.warning(SpeciesIssue(species: decoded.species.displayName, field: field).description)
        }
        attempt.handedOver(species: url)
        return decoded.species
    }

    /// The name or title, and episode, of a planet, person or film.
    func resource(_ reference: ResourceReference) async throws -> RelatedResource? {
        try await answeringNotFound(reference.description) {
            try await attempt.get(attempt.dialect.url(of: reference, under: root)) { body, url throws(SpeciesError) in
                try ResponseBody.decode(DetailBody<RelatedResource>.self, from: body, url: url).value
            }
        }
    }

    /// What `body` fetches; its 404 is SWAPI's answer that `what` does not
    /// exist once the service's species list answers as SWAPI's does, and
    /// else the error of that list, which says why the service is not SWAPI.
    private func answeringNotFound<Value>(_ what: String, _ body: () async throws -> Value) async throws -> Value {
        do {
            return try await body()
        } catch SpeciesError.httpStatus(404, let url) {
            _ = try await inDialect { dialect in
                let first = dialect.listingURL(root, page: 1, search: nil)
                return try WholeListing.page(
                    try await listing(at: first, expected: dialect, opens: true), number: 1, at: first,
                    search: nil)
            }
            throw SpeciesError.notFound(what: what, url: url)
        }
    }
}

/// An answer in another dialect than the one expected.
struct DialectMismatch: Error {
    let dialect: Dialect
    let url: URL
}
