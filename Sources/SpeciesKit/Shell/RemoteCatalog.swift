import Foundation

/// A service's species through one attempt (and so its cache): it feeds
/// `ListingReader` the pages it asks for, at most `concurrency` at once (one
/// when `serial`), and reads one species or resource. What a listing must
/// be is the reader's; how it is fetched is this shell's.
struct RemoteCatalog: SpeciesCatalog {
    /// Requests at once, as many as URLSession's connections to a host.
    static let concurrency = 6

    let attempt: Attempt
    /// Follow `next` one page at a time.
    let serial: Bool
    let diagnostics: any Diagnostics

    var root: APIRoot { attempt.root }
    var dialect: Dialect { attempt.dialect }

    func page(_ number: Int, search: String?, size: PageSize? = nil) async throws(Fault) -> SpeciesPage {
        let whole = try await listing(.page(number), search: search, size: size?.of(root))
        return SpeciesPage(
            number: number, count: whole.paging.count, pageCount: whole.paging.pages, species: whole.species)
    }

    func species(matching search: String?, limit: Int?) async throws(Fault) -> [StarWarsSpecies] {
        try await listing(.species(limit: limit), search: search).species
    }

    /// Feeds the reader until it says the answer is whole, or not.
    private func listing(_ question: ListingReader.Question, search: String?, size: Int? = nil) async throws(Fault)
        -> ListingReader.Whole
    {
        // The count of the listing when the cache's page 1 was whole, of any
        // age; else that of the SWAPI data built in. A page alone needs none.
        var expected: (count: Int, from: String)?
        if case .species = question, !serial {
            let first = ListingReader.url(ofPage: 1, root: root, dialect: dialect, search: search)
            expected =
                attempt.cachedCount(ofListingAt: first).map { ($0, "as many as the cached page 1 counts") } ?? (
                    BundledCatalog.count(matching: search), "as many as the SWAPI data built in fills"
                )
        }
        var reader = ListingReader(
            root: root, dialect: Dialect.ofPublicHost(root), guess: dialect, question: question, search: search,
            expectedCount: expected?.count, size: size)
        tracePlan(of: reader, expected: expected?.from ?? "")
        var step = reader.start()
        // One page at a time needs no task group, and no thread to run one.
        while case .fetch(let urls) = step, urls.count == 1 {
            sayWaiting(for: reader)
            step = reader.read(urls[0], await fetch(urls[0]))
        }
        if case .fetch(let urls) = step {
            sayWaiting(for: reader)
            let (began, requests) = (reader, StoppableRequests())
            let fetchPage: @Sendable (URL) async -> Result<Data, Fault> = { url in
                await requests.run(url) {
                    await fetch(url) { bytes in if began.comesAlone(url, begins: bytes) { requests.stop(except: url) } }
                }
            }
            step =
                await CappedRequests.run(urls, limit: serial ? 1 : Self.concurrency, fetchPage) {
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
        if let dialect = reader.dialect { attempt.learn(dialect) }
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

    /// `page plan: pages 1 to 4 at once (...), then the rest that page 1
    /// counts`, when a listing of pages goes to the network: once for each
    /// service asked, never for a cache alone.
    private func tracePlan(of reader: ListingReader, expected: String) {
        guard case .species(let limit) = reader.question, attempt.network, attempt.limits != nil,
            !ListingReader.comesWhole(in: dialect, search: reader.search)
        else { return }
        let (pages, heldByLimit) = reader.firstAsk
        diagnostics.trace {
            serial
                ? "page plan: one page at a time, each after the one before"
                : "page plan: \(pages == 1 ? "page 1" : "pages 1 to \(pages)") at once ("
                    + (heldByLimit ? "as many as hold the \(limit ?? 0) species wanted" : expected) + "), "
                    + (limit.map { "then more while fewer than \($0) have come" } ?? "then the rest that page 1 counts")
        }
    }

    /// `fetching page 2 of 4 from swapi.dev (14 s left)…`: the page the
    /// reader waits for.
    private func sayWaiting(for reader: ListingReader) {
        guard let (number, pages) = reader.progress else { return }
        let left = attempt.limits.map { " (\(TimeSpan.describe($0.deadline.secondsLeft)) left)" } ?? ""
        diagnostics.progress(
            "fetching page \(number)\(pages.map { " of \($0)" } ?? "") from \(root.origin.authority)\(left)…")
    }

    @Sendable private func fetch(_ url: URL, firstBytes: (@Sendable (Data) -> Void)? = nil) async -> Result<Data, Fault>
    { do { return .success(try await attempt.get(url, firstBytes: firstBytes)) } catch { return .failure(error) } }

    func species(_ reference: ResourceReference, pasted: URL?) async throws(Fault) -> StarWarsSpecies {
        try await species(DetailReader(reference, of: root, in: dialect, pasted: pasted))
    }

    private func species(_ reader: DetailReader) async throws(Fault) -> StarWarsSpecies {
        guard
            let (decoded, url) = try await detail(
                reader, { reader, body throws(Fault) in try reader.species(in: body) })
        else { throw .notFound(what: "species \(reader.reference.id)", url: reader.url) }
        attempt.warn(decoded.invalidFields.map { SpeciesIssue(species: decoded.species.displayName, field: $0) })
        attempt.handedOver(url, species: true)
        return decoded.species
    }

    func resource(_ reference: ResourceReference) async throws(Fault) -> RelatedAnswer {
        let reader = DetailReader(reference, of: root, in: dialect)
        guard
            let (resource, url) = try await detail(
                reader, { reader, body throws(Fault) in try reader.resource(in: body) })
        else { return .absent }
        attempt.handedOver(url)
        return .found(resource)
    }

    /// What `reader` reads of its URL, and that URL; nil when its 404 is
    /// SWAPI's answer, which it is only once the service's species list
    /// answers whole (else that list's error is the answer).
    private func detail<Value>(_ reader: DetailReader, _ read: (DetailReader, Data) throws(Fault) -> Value)
        async throws(Fault) -> (Value, URL)?
    {
        do { return (try read(reader, try await attempt.get(reader.url)), reader.url) } catch .httpStatus(404, _, _) {
            _ = try await listing(.page(1), search: nil)
            guard let again = reader.afterNotFound(listed: dialect) else { return nil }
            return try await detail(again, read)
        }
    }
}
