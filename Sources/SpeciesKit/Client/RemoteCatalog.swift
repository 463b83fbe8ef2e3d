import Foundation

/// A service's species through one attempt (and so its cache): it feeds
/// `ListingReader` the pages it asks for, at most `concurrency` at once (one
/// when `serial`), and reads one species or resource. What a listing must
/// be is the reader's; how it is fetched is this shell's.
///
/// A 404 for one species or resource is SWAPI's answer only once the
/// species list has answered whole: a service that answers 404 to
/// everything has none of them.
struct RemoteCatalog: SpeciesSource {
    /// Requests at once, as many as URLSession's connections to a host.
    static let concurrency = 6

    let attempt: Attempt
    /// Follow `next` one page at a time.
    let serial: Bool
    let diagnostics: any Diagnostics

    private var root: APIRoot { attempt.root }

    func page(_ number: Int, search: String?) async throws(Fault) -> SpeciesPage {
        let whole = try await listing(.page(number), search: search)
        return SpeciesPage(
            number: number, count: whole.paging.count, pageCount: whole.paging.pages, species: whole.species)
    }

    func species(matching search: String?, limit: Int?) async throws(Fault) -> [StarWarsSpecies] {
        try await listing(.species(limit: limit), search: search).species
    }

    /// The listing's answer; when it does not add up with pages the cache
    /// answered, it is read again from the service, once, so that no page
    /// cached earlier condemns a service that answers whole now.
    private func listing(_ question: ListingReader.Question, search: String?) async throws(Fault)
        -> ListingReader.Whole
    {
        do {
            return try await read(question, search: search)
        } catch  where attempt.limits != nil && attempt.answeredFromCache && error.kind == .badAnswer {
            diagnostics.trace { "reading \(root.url.redacted) again from the service: with the cache, \(error)" }
            attempt.readAgain()
            return try await read(question, search: search)
        }
    }

    /// Feeds the reader until it says the answer is whole, or not.
    private func read(_ question: ListingReader.Question, search: String?) async throws(Fault)
        -> ListingReader.Whole
    {
        var reader = ListingReader(
            root: root, form: Dialect.ofPublicHost(root), guess: attempt.dialect, question: question, search: search,
            expectedPages: expectedPages(question, search: search))
        var step = reader.start()
        // One page at a time needs no task group, and no thread to run one.
        while case .fetch(let urls) = step, urls.count == 1 {
            sayWaiting(for: reader)
            step = reader.read(urls[0], await fetch(urls[0]))
        }
        if case .fetch(let urls) = step {
            sayWaiting(for: reader)
            step =
                await CappedRequests.run(urls, limit: serial ? 1 : Self.concurrency, fetch) {
                    url, answer -> CappedRequests.Next<URL, ListingReader.Step> in
                    let step = reader.read(url, answer)
                    sayWaiting(for: reader)
                    switch step {
                    case .fetch(let more): return .more(more)
                    case .wait: return .more([])
                    case let ending: return .end(ending)
                    }
                } ?? .wait
            if case .alone = step { step = reader.readAlone() }
        }
        if let form = reader.form { attempt.learn(form) }
        attempt.handedOver(pages: reader.pagesTaken, of: reader.count)
        switch step {
        case .done(let whole):
            attempt.warn(whole.issues)
            return whole
        case .failed(let error): throw error
        // The reader asks for every page it waits for: only a cancelled
        // task ends its requests first.
        case .fetch, .wait, .alone: throw .cancelled
        }
    }

    /// How many pages to ask for at once, before page 1 has said: as many
    /// as the listing had when the cache's page 1 was whole, of any age;
    /// else as many as the matching species fill in the SWAPI data built in.
    /// When the guess is right, every page comes in one round trip; when it
    /// is not, the reader asks for the rest, or takes no page past the end.
    private func expectedPages(_ question: ListingReader.Question, search: String?) -> Int {
        guard case .species(let limit) = question, !ListingReader.comesWhole(in: attempt.dialect, search: search) else {
            return 1
        }
        let first = attempt.dialect.listingURL(root, page: 1, search: search)
        var plan =
            attempt.cachedCount(ofListingAt: first).map {
                (
                    min(Paging(count: $0, size: SpeciesPage.size).pages, ListingReader.maxPages),
                    "as many as the cached page 1 counts"
                )
            } ?? (BundledCatalog.pageCount(matching: search), "as many as the SWAPI data built in fills")
        if let limit, limit < plan.0 * SpeciesPage.size {
            plan = (
                max(1, limit.dividedRoundingUp(by: SpeciesPage.size)), "as many as hold the \(limit) species wanted"
            )
        }
        // Of requests: the fresh cache alone sends none.
        if attempt.network {
            diagnostics.trace {
                serial
                    ? "page plan: one page at a time, each after the one before"
                    : "page plan: \(plan.0 == 1 ? "page 1" : "pages 1 to \(plan.0)") at once (\(plan.1)), "
                        + (limit.map { "then more while fewer than \($0) have come" }
                            ?? "then the rest that page 1 counts")
            }
        }
        return serial ? 1 : plan.0
    }

    /// `fetching page 2 of 4 from swapi.dev (14 s left)…`: the page the
    /// reader waits for.
    private func sayWaiting(for reader: ListingReader) {
        guard let number = reader.waitingFor else { return }
        let left = attempt.limits.map { " (\(TimeSpan.describe($0.deadline.secondsLeft)) left)" } ?? ""
        diagnostics.progress(
            "fetching page \(number)\(reader.pages > 1 ? " of \(reader.pages)" : "") from \(root.origin.authority)\(left)…"
        )
    }

    @Sendable private func fetch(_ url: URL) async -> Result<Data, Fault> {
        do {
            return .success(try await attempt.get(url))
        } catch {
            return .failure(error)
        }
    }

    func species(id: Int) async throws(Fault) -> StarWarsSpecies {
        try await species(at: ResourceReference(.species, id), what: "species \(id)")
    }

    /// The species at `url`; at another service's URL, the species of the
    /// same id here.
    func species(at url: URL) async throws(Fault) -> StarWarsSpecies {
        if !root.contains(url), let id = ResourceReference.species(in: url.absoluteString) {
            return try await species(id: id)
        }
        return try await species(at: url, what: "the species at \(url.redacted)")
    }

    private func species(at reference: ResourceReference, what: String) async throws(Fault)
        -> StarWarsSpecies
    {
        try await answeringNotFound(what) { dialect throws(Fault) in
            try await species(at: dialect.url(of: reference, under: root), what: what)
        }
    }

    private func species(at url: URL, what: String) async throws(Fault) -> StarWarsSpecies {
        let body = try await attempt.get(url)
        let decoded = try ResponseBody.decode(DetailBody<StarWarsSpecies.Decoded>.self, from: body, url: url).value
        guard ServiceSpecies(root: root, form: Dialect.ofPublicHost(root)).id(of: decoded.species) != nil else {
            throw .invalidResponse(url: url, .notASpecies)
        }
        attempt.warn(decoded.invalidFields.map { SpeciesIssue(species: decoded.species.displayName, field: $0) })
        attempt.handedOver(url, species: true)
        return decoded.species
    }

    /// The name or title, and episode, of a planet, person or film.
    func resource(_ reference: ResourceReference) async throws(Fault) -> RelatedResource? {
        try await answeringNotFound(reference.description) { dialect throws(Fault) in
            let url = dialect.url(of: reference, under: root)
            let resource = try ResponseBody.decode(
                DetailBody<RelatedResource>.self, from: try await attempt.get(url), url: url)
            attempt.handedOver(url)
            return resource.value
        }
    }

    /// What `body` fetches in the service's dialect. Its 404 is SWAPI's
    /// answer that `what` does not exist once the service's species list
    /// answers whole, and else the error of that list; when that list
    /// shows another dialect than the one asked in, `body` is asked again
    /// in it.
    private func answeringNotFound<Value>(
        _ what: String, _ body: (Dialect) async throws(Fault) -> Value
    ) async throws(Fault) -> Value {
        let dialect = attempt.dialect
        do {
            return try await body(dialect)
        } catch .httpStatus(404, let url) {
            _ = try await listing(.page(1), search: nil)
            guard attempt.dialect == dialect else { return try await answeringNotFound(what, body) }
            throw .notFound(what: what, url: url)
        }
    }
}
