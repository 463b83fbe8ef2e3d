import Foundation

/// SWAPI's species as the API serves them, in whichever dialect it speaks,
/// through the fetcher (and so its cache): a page, every page, one species,
/// and the names of what species link to. Every body is checked as it
/// arrives; a field that could not be read is reported as a warning, to the
/// draft of the answer (`AnswerDraft`), which also hears what is handed over.
///
/// A service that is not SWAPI gives way (`SpeciesError.meansUnanswered`):
/// one whose species list answers 404 or is empty, or whose pages do not
/// hold the species its first page counts. A 404 for one species, page or
/// resource is SWAPI's answer only once the species list has answered as
/// SWAPI's does: a service that answers 404 to everything has none of them.
struct RemoteCatalog: SpeciesSource {
    /// More pages than this is taken for a server that never ends.
    static let maxPages = 500
    /// Requests at once, as many as URLSession's connections to a host.
    static let concurrency = 6

    let root: APIRoot
    let fetcher: Fetcher
    /// Follow `next` one page at a time.
    let serial: Bool
    let memory: ServiceMemory

    private var draft: AnswerDraft { fetcher.draft }
    private var diagnostics: any Diagnostics { draft }

    /// The same catalog, answering from the cache alone, whatever its age.
    func cacheOnly() -> RemoteCatalog {
        RemoteCatalog(root: root, fetcher: fetcher.cacheOnly(), serial: serial, memory: memory)
    }

    /// The dialect of the API: as its answers showed, in this process or an
    /// earlier one; else the one its host is known for; else drf's.
    var dialect: Dialect {
        memory.dialect(of: root) ?? Dialect.guess(for: root)
    }

    /// The listing at `url`, which must be in `expected`'s dialect (with its
    /// results in full). When it is not, and the listing is the first answer
    /// of its walk, the dialect is learnt and `DialectMismatch` thrown, so
    /// that the walk starts again in the service's own; a later page in
    /// another dialect is an answer that is not SWAPI's. The page that
    /// `opens` a listing is never missing, and the one that opens the
    /// `whole` species list is never empty: SWAPI always has species.
    func listing(at url: URL, expected: Dialect, first: Bool = true, opens: Bool, whole: Bool = false) async throws
        -> ListingBody
    {
        let listing: ListingBody
        do {
            listing = try await read(listing: url, expected: expected, first: first, whole: whole)
        } catch SpeciesError.httpStatus(404, let url) where opens {
            throw SpeciesError.notSWAPI(url: url, problem: "its species list answered HTTP 404 Not Found")
        }
        memory.learn(listing.dialect, for: root, trace: diagnostics.trace)
        guard listing.dialect == expected, listing.expanded else {
            throw DialectMismatch(dialect: listing.dialect, url: url)
        }
        for issue in listing.issues {
            diagnostics.warning(issue.description)
        }
        return listing
    }

    private func read(listing url: URL, expected: Dialect, first: Bool, whole: Bool) async throws -> ListingBody {
        try await fetcher.get(url) { body, url throws(SpeciesError) in
            let listing = try ResponseBody.decode(ListingBody.self, from: body, url: url)
            if whole, listing.species.isEmpty, listing.dialect == expected, listing.expanded {
                throw .notSWAPI(url: url, problem: "its species list is empty")
            }
            if listing.dialect == .tech, expected == .tech, !listing.expanded {
                throw .invalidResponse(url: url, problem: "its results are names only, though asked with expanded=true")
            }
            if !first, listing.dialect != expected || !listing.expanded {
                throw .invalidResponse(
                    url: url,
                    problem:
                        "it answers in \(listing.dialect.service) form, where the first page answered in \(expected.service)"
                )
            }
            return listing
        }
    }

    /// Page `number`: swapi.dev's own, swapi.tech's (which repeats its last
    /// page for any later one), or a slice of what the client filtered.
    func page(_ number: Int, search: String?) async throws -> SpeciesPage {
        try await inDialect { dialect in
            let terms = SearchTerms(search ?? "")
            switch dialect {
            case .drf:
                let url = dialect.listingURL(root, page: number, search: search)
                let listing: ListingBody
                do {
                    listing = try await self.listing(
                        at: url, expected: .drf, opens: number == 1, whole: number == 1 && search == nil)
                } catch SpeciesError.httpStatus(404, _) where number > 1 {
                    let first = try await self.listing(
                        at: dialect.listingURL(root, page: 1, search: search), expected: .drf, opens: true,
                        whole: search == nil)
                    throw SpeciesError.noSuchPage(number, pages: PageWalk.pageCount(of: first), search: search)
                }
                draft.handedOver(page: url, species: listing.species.count)
                let count = listing.count ?? listing.species.count
                let pages =
                    listing.next == nil
                    ? number : max(number.saturatingAdd(1), count.dividedRoundingUp(by: max(1, listing.species.count)))
                return SpeciesPage(number: number, count: count, pageCount: pages, species: listing.species)
            case .tech where terms.terms.isEmpty:
                let url = dialect.listingURL(root, page: number, search: nil)
                let listing = try await self.listing(at: url, expected: .tech, opens: number == 1, whole: number == 1)
                let pages = max(1, listing.pageCount ?? number)
                guard number <= pages else { throw SpeciesError.noSuchPage(number, pages: pages, search: search) }
                draft.handedOver(page: url, species: listing.species.count)
                return SpeciesPage(
                    number: number, count: listing.count ?? listing.species.count, pageCount: pages,
                    species: listing.species)
            case .tech, .info:
                let species = try await everything(in: dialect, matching: terms)
                return try SpeciesPage(slicing: species, page: number, search: search)
            }
        }
    }

    /// Every page, or, with a `limit`, as few as hold that many species.
    func species(matching search: String?, limit: Int?) async throws -> [StarWarsSpecies] {
        try await inDialect { dialect in
            let terms = SearchTerms(search ?? "")
            if dialect == .info || (dialect == .tech && !terms.terms.isEmpty) {
                return try await everything(in: dialect, matching: terms)
            }
            let pageURL: @Sendable (Int) -> URL = { [root] in dialect.listingURL(root, page: $0, search: search) }
            let first = pageURL(1)
            var plan = serial ? (pages: 1, source: "") : expectedPages(at: first, in: dialect, search: search)
            if let limit, limit < plan.pages * SpeciesPage.size {
                plan = (limit.dividedRoundingUp(by: SpeciesPage.size), "as many as hold the \(limit) species wanted")
            }
            diagnostics.trace(
                serial
                    ? "page plan: one page at a time, each from the last one's next link"
                    : "page plan: \(plan.pages == 1 ? "page 1" : "pages 1 to \(plan.pages) at once") (\(plan.source)), "
                        + (limit.map { "then more while fewer than \($0) have come" }
                            ?? "then the rest that page 1 counts"))
            let walk = PageWalk(
                root: root, diagnostics: diagnostics, pageURL: pageURL, expectedPages: plan.pages,
                concurrency: serial ? 1 : Self.concurrency, limit: limit,
                listing: { url in
                    try await listing(
                        at: url, expected: dialect, first: url == first, opens: url == first,
                        whole: url == first && search == nil)
                })
            var species: [StarWarsSpecies] = []
            let summary = try await walk.run { url, page in
                draft.handedOver(page: url, species: page.count)
                species += page
            }
            if summary.missing > 0, !summary.reached(limit) {
                let shifted =
                    summary.repeated == 0
                    ? "" : "; \(summary.repeated) came twice: they changed while they were read"
                throw SpeciesError.incomplete(
                    url: first,
                    problem: "its pages hold \(summary.received) of the \(summary.counted ?? 0) species it counts"
                        + shifted)
            }
            if summary.repeated > 0 {
                diagnostics.warning(
                    "the pages of \(first.redacted) changed while they were read: \(summary.repeated) species came twice, and are printed once"
                )
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
        if let body = fetcher.cache?.read(first)?.body,
            let listing = try? ResponseBody.decode(ListingBody.self, from: body, url: first), listing.dialect == dialect
        {
            return (PageWalk.pageCount(of: listing), "as many as the cached page 1 counts")
        }
        return (BundledCatalog.pageCount(matching: search), "as many as the SWAPI data built into species fills")
    }

    /// Runs `body` in the API's dialect; when an answer shows another, runs
    /// it again in that one. A service whose answers go back to a dialect
    /// already tried does not answer as SWAPI does.
    private func inDialect<Value>(_ body: (Dialect) async throws -> Value) async throws -> Value {
        var dialect = self.dialect
        var tried: Set<Dialect> = []
        while true {
            tried.insert(dialect)
            do {
                return try await body(dialect)
            } catch let mismatch as DialectMismatch {
                guard !tried.contains(mismatch.dialect) else {
                    throw SpeciesError.invalidResponse(
                        url: mismatch.url,
                        problem:
                            "it answers in \(mismatch.dialect.service) form, where an answer before was in \(dialect.service)"
                    )
                }
                dialect = mismatch.dialect
            }
        }
    }

    /// Every species of swapi.info's one answer, or of swapi.tech's search,
    /// whose name matches `terms`, in id order.
    private func everything(in dialect: Dialect, matching terms: SearchTerms) async throws -> [StarWarsSpecies] {
        let url =
            dialect == .tech
            ? dialect.techSearchURL(root, terms: terms) : dialect.listingURL(root, page: 1, search: nil)
        guard let url else { return [] }
        let species = try await listing(at: url, expected: dialect, opens: true, whole: dialect == .info).species.filter
        { terms.matches($0.name) }
        draft.handedOver(page: url, species: species.count)
        return species
    }

    func species(id: Int) async throws -> StarWarsSpecies {
        try await species(at: dialect.url(of: ResourceReference(.species, id), under: root), what: "species \(id)")
    }

    /// The species at `url`; at another service's URL, the species of the
    /// same id here.
    func species(at url: URL) async throws -> StarWarsSpecies {
        if !root.contains(url),
            let id = ResourceReference(url.absoluteString).flatMap({ $0.kind == .species ? $0.id : nil })
        {
            return try await species(id: id)
        }
        return try await species(at: url, what: "the species at \(url.redacted)")
    }

    private func species(at url: URL, what: String) async throws -> StarWarsSpecies {
        let decoded = try await answeringNotFound(what) {
            try await fetcher.get(url) { body, url throws(SpeciesError) in
                let decoded = try ResponseBody.decode(DetailBody<StarWarsSpecies.Decoded>.self, from: body, url: url)
                    .value
                guard decoded.species.name != nil || decoded.species.url != nil else {
                    throw .invalidResponse(url: url, problem: "it has neither 'name' nor 'url': it is not a species")
                }
                return decoded
            }
        }
        for field in decoded.invalidFields {
            diagnostics.warning(SpeciesIssue(species: decoded.species.displayName, field: field).description)
        }
        draft.handedOver(species: url)
        return decoded.species
    }

    /// The name or title, and episode, of a planet, person or film.
    func resource(_ reference: ResourceReference) async throws -> RelatedResource? {
        try await answeringNotFound(reference.description) {
            try await fetcher.get(dialect.url(of: reference, under: root)) { body, url throws(SpeciesError) in
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
                try await listing(
                    at: dialect.listingURL(root, page: 1, search: nil), expected: dialect, opens: true, whole: true)
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
