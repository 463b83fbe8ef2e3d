import Foundation
import Synchronization

/// SWAPI's species as the API serves them, in whichever dialect it speaks,
/// through the fetcher (and so its cache): a page, every page, one species,
/// and the names of what species link to. Every body is checked as it
/// arrives; a field that could not be read is reported as a warning.
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
    let dialects: DialectMemory

    /// The same catalog, answering from the cache alone, whatever its age.
    func cacheOnly(telling answers: CacheAnswers) -> RemoteCatalog {
        RemoteCatalog(root: root, fetcher: fetcher.cacheOnly(telling: answers), diagnostics: diagnostics, serial: serial, dialects: dialects)
    }

    /// The dialect of the API: as its answers showed, in this process or an
    /// earlier one; else the one its host is known for; else drf's.
    var dialect: Dialect {
        dialects.known(for: root, in: fetcher.cache) ?? guess
    }

    /// The dialect of a service not heard from yet.
    private var guess: Dialect {
        Dialect.ofPublicHost(root) ?? .drf
    }

    /// The listing at `url`, which must be in `expected`'s dialect (with its
    /// results in full). When it is not, and the listing is the first answer
    /// of its walk, the dialect is learnt and `DialectMismatch` thrown, so
    /// that the walk starts again in the service's own; a later page in
    /// another dialect is an answer that is not SWAPI's.
    func listing(at url: URL, expected: Dialect, first: Bool = true) async throws -> ListingPage {
        let page = try await fetcher.get(url) { body, url throws(SpeciesError) in
            let page = try ResponseBody.decode(ListingPage.self, from: body, url: url)
            if page.dialect == .tech, expected == .tech, !page.expanded {
                throw .invalidResponse(url: url, problem: "its results are names only, though asked with expanded=true")
            }
            if !first, page.dialect != expected || !page.expanded {
                throw .invalidResponse(
                    url: url, problem: "it answers in \(page.dialect.service) form, where the first page answered in \(expected.service)")
            }
            return page
        }
        dialects.learn(page.dialect, for: root, in: fetcher.cache, guess: guess)
        guard page.dialect == expected, page.expanded else {
            throw DialectMismatch(dialect: page.dialect, url: url)
        }
        for issue in page.issues {
            diagnostics.warning(issue.description)
        }
        return page
    }

    /// Page `number`: swapi.dev's own, swapi.tech's (which repeats its last
    /// page for any later one), or a slice of what the client filtered.
    func page(_ number: Int, search: String?) async throws -> SpeciesClient.Page {
        try await inDialect { dialect in
            let terms = SearchTerms(search ?? "")
            switch dialect {
            case .drf:
                let url = dialect.listingURL(root, page: number, search: search)
                let page: ListingPage
                do {
                    page = try await listing(at: url, expected: .drf)
                } catch SpeciesError.httpStatus(404, _) where number > 1 {
                    throw SpeciesError.notFound(what: "page \(number)" + Self.matching(search), url: url)
                }
                let count = page.count ?? page.species.count
                let pages = page.next == nil ? number : max(number.saturatingAdd(1), count.dividedRoundingUp(by: max(1, page.species.count)))
                return SpeciesClient.Page(number: number, count: count, pageCount: pages, species: page.species)
            case .tech where terms.terms.isEmpty:
                let page = try await listing(at: dialect.listingURL(root, page: number, search: nil), expected: .tech)
                let pages = max(1, page.pageCount ?? number)
                guard number <= pages else { throw SpeciesError.noSuchPage(number, pages: pages, search: search) }
                return SpeciesClient.Page(number: number, count: page.count ?? page.species.count, pageCount: pages, species: page.species)
            case .tech, .info:
                return try Self.slice(try await everything(in: dialect, matching: terms), page: number, search: search)
            }
        }
    }

    func forEachPage(search: String?, _ deliver: ([StarWarsSpecies]) async throws -> Void) async throws {
        try await inDialect { dialect in
            let terms = SearchTerms(search ?? "")
            if dialect == .info || (dialect == .tech && !terms.terms.isEmpty) {
                try await deliver(try await everything(in: dialect, matching: terms))
            } else {
                let pageURL: @Sendable (Int) -> URL = { [root] in dialect.listingURL(root, page: $0, search: search) }
                let walk = PageWalk(
                    root: root, diagnostics: diagnostics, first: pageURL(1), pageURL: pageURL,
                    expectedPages: serial ? 1 : expectedPages(at: pageURL(1), in: dialect, search: search),
                    concurrency: serial ? 1 : Self.concurrency,
                    listing: { [first = pageURL(1)] url in try await listing(at: url, expected: dialect, first: url == first) })
                let summary = try await walk.run(deliver)
                if summary.repeated > 0 {
                    diagnostics.warning(
                        "the pages of \(pageURL(1).redacted) changed while they were read: \(summary.repeated) species came twice, and are printed once")
                } else if let counted = summary.counted, counted != summary.received {
                    diagnostics.warning("the API counted \(counted) species but sent \(summary.received), from \(pageURL(1).redacted)")
                }
            }
        }
    }

    /// How many pages to ask for at once, before page 1 has said: as many as
    /// the cache's copy of page 1, of any age, says; else as many as the
    /// matching species fill in the SWAPI data built into species. When the
    /// guess is right, every page comes in one round trip; when it is not,
    /// `PageWalk` fetches the rest, or drops the pages past the end.
    private func expectedPages(at first: URL, in dialect: Dialect, search: String?) -> Int {
        if let body = fetcher.cache?.read(first)?.body,
            let page = try? ResponseBody.decode(ListingPage.self, from: body, url: first), page.dialect == dialect
        {
            return PageWalk.pageCount(of: page)
        }
        return BundledCatalog.pageCount(matching: search)
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
                        problem: "it answers in \(mismatch.dialect.service) form, where an answer before was in \(dialect.service)")
                }
                dialect = mismatch.dialect
            }
        }
    }

    /// Every species of swapi.info's one answer, or of swapi.tech's search,
    /// whose name matches `terms`, in id order.
    private func everything(in dialect: Dialect, matching terms: SearchTerms) async throws -> [StarWarsSpecies] {
        let url = dialect == .tech ? dialect.techSearchURL(root, terms: terms) : dialect.listingURL(root, page: 1, search: nil)
        guard let url else { return [] }
        return try await listing(at: url, expected: dialect).species.filter { terms.matches($0.name) }
    }

    /// Page `number` of a list the client holds whole, 10 a page.
    static func slice(_ species: [StarWarsSpecies], page number: Int, search: String?) throws(SpeciesError) -> SpeciesClient.Page {
        let pages = max(1, species.count.dividedRoundingUp(by: Dialect.pageSize))
        guard number <= pages else { throw .noSuchPage(number, pages: pages, search: search) }
        let first = (number - 1) * Dialect.pageSize
        return SpeciesClient.Page(
            number: number, count: species.count, pageCount: pages,
            species: Array(species[first..<min(first + Dialect.pageSize, species.count)]))
    }

    func species(id: Int) async throws -> StarWarsSpecies {
        try await species(at: dialect.url(of: ResourceReference(.species, id), under: root))
    }

    func species(at url: URL) async throws -> StarWarsSpecies {
        let decoded = try await fetcher.get(url) { body, url throws(SpeciesError) in
            let decoded = try ResponseBody.decode(DetailBody<StarWarsSpecies.Decoded>.self, from: body, url: url).value
            guard decoded.species.name != nil || decoded.species.url != nil else {
                throw .invalidResponse(url: url, problem: "it has neither 'name' nor 'url': it is not a species")
            }
            return decoded
        }
        for field in decoded.invalidFields {
            diagnostics.warning(SpeciesIssue(species: decoded.species.displayName, field: field).description)
        }
        return decoded.species
    }

    /// The name or title, and episode, of a planet, person or film.
    func resource(_ reference: ResourceReference) async throws -> RelatedResource {
        try await fetcher.get(dialect.url(of: reference, under: root)) { body, url throws(SpeciesError) in
            try ResponseBody.decode(DetailBody<RelatedResource>.self, from: body, url: url).value
        }
    }

    /// ` of the species matching 'an'`, for messages.
    static func matching(_ search: String?) -> String {
        search.map { " of the species matching '\(Excerpt.of($0))'" } ?? ""
    }
}

/// An answer in another dialect than the one expected.
struct DialectMismatch: Error {
    let dialect: Dialect
    let url: URL
}

/// Which dialect each API root speaks, once its answers have shown it: in
/// this process, and, when it is not the one species would guess, in the
/// cache (an entry of its own, `<root>#dialect`), so that the next run asks
/// in the right form at once.
final class DialectMemory: Sendable {
    private let known = Mutex<[String: Dialect]>([:])

    private static func key(_ root: APIRoot) -> URL {
        URL(string: "#dialect", relativeTo: root.url)?.absoluteURL ?? root.url
    }

    func known(for root: APIRoot, in cache: ResponseCache?) -> Dialect? {
        let key = Self.key(root)
        if let dialect = known.withLock({ $0[key.absoluteString] }) { return dialect }
        guard let entry = cache?.read(key), let dialect = Dialect(rawValue: String(decoding: entry.body, as: UTF8.self))
        else { return nil }
        known.withLock { $0[key.absoluteString] = dialect }
        return dialect
    }

    func learn(_ dialect: Dialect, for root: APIRoot, in cache: ResponseCache?, guess: Dialect) {
        let remembered = known(for: root, in: cache)
        guard remembered != dialect else { return }
        let key = Self.key(root)
        known.withLock { $0[key.absoluteString] = dialect }
        if remembered != nil || dialect != guess {
            try? cache?.write(.init(url: ResponseCache.key(key), fetched: Date(), body: Data(dialect.rawValue.utf8)))
        }
    }
}
