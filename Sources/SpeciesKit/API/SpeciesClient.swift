import Foundation

/// Fetches and decodes species and pages of species, checking the HTTP status
/// of every response (URLSession does not throw on a 404), and follows `next`
/// links under the rules of `LinkPolicy`.
public struct SpeciesClient: Sendable {
    /// More pages than this is taken for a server that never ends.
    public static let maxPages = 500
    /// Pages fetched at once, as many as URLSession's connections to a host.
    public static let defaultPageConcurrency = 6

    public let root: APIRoot
    private let transport: any HTTPTransport
    let diagnostics: any Diagnostics
    private let pageConcurrency: Int

    /// - Parameter pageConcurrency: pages fetched at once when page 1 shows
    ///   the `?page=N` pattern; 1 follows `next` one page at a time.
    public init(
        root: APIRoot, transport: any HTTPTransport, diagnostics: any Diagnostics,
        pageConcurrency: Int = defaultPageConcurrency
    ) {
        self.root = root
        self.transport = transport
        self.diagnostics = diagnostics
        self.pageConcurrency = max(1, pageConcurrency)
    }

    /// The page at `url`, checked whole; its species are decoded as they are
    /// iterated, with a warning for each field of the wrong type.
    public func page(at url: URL) async throws -> SpeciesPage {
        var page = try ResponseDecoder.page(from: try await fetch(url), url: url)
        page.species = page.species.reporting(to: { [diagnostics] in Self.reportInvalidFields(of: $0, to: diagnostics) })
        return page
    }

    public func species(at url: URL) async throws -> StarWarsSpecies {
        let species = try ResponseDecoder.species(from: try await fetch(url), url: url)
        guard species.name != nil || species.url != nil else {
            throw SpeciesError.invalidResponse(url: url, problem: "the object has neither 'name' nor 'url': it is not a species")
        }
        Self.reportInvalidFields(of: species, to: diagnostics)
        return species
    }

    /// Fetches the page at `first`, then each page its `next` link names,
    /// until `next` is null, handing each page over in API order. When page 1
    /// links to `...?page=2`, pages 2 to N are fetched at once (`PagePlan`),
    /// each checked against its neighbours' links; where the chain differs
    /// from the plan, the rest is followed one page at a time. A link off the
    /// API's host, a loop, or more than `maxPages` pages end it with exit
    /// status 65; so does a `next` link that answers 404.
    public func forEachPage(from first: URL, _ body: (SpeciesPage) async throws -> Void) async throws {
        diagnostics.progress("fetching page 1…")
        var walk = PageWalk(url: first, page: try await page(at: first))
        let counted = walk.page.previous == nil ? walk.page.count : nil
        walk.pages = counted.flatMap { count in walk.page.species.isEmpty ? nil : count.dividedRoundingUp(by: walk.page.species.count) }
        try await walk.deliver(to: body)
        if pageConcurrency > 1, let next = walk.page.next,
            let plan = PagePlan(first: walk.page, next: try LinkPolicy.resolve(next, of: first, root: root), maxPages: Self.maxPages)
        {
            walk = try await fetchConcurrently(plan, after: walk, body)
        }
        while let next = walk.page.next {
            let nextURL = try LinkPolicy.resolve(next, of: walk.url, root: root)
            guard walk.visited.insert(nextURL.absoluteString).inserted else {
                throw SpeciesError.refused(
                    url: walk.url, problem: "its 'next' link leads back to \(nextURL.absoluteString), a page already read: a loop")
            }
            guard walk.visited.count <= Self.maxPages else {
                throw SpeciesError.refused(url: nextURL, problem: "more than \(Self.maxPages) pages; stopped here")
            }
            diagnostics.progress(walk.fetching(walk.visited.count))
            walk.advance(to: nextURL, page: try await page(at: nextURL, linkedFrom: walk.url))
            try await walk.deliver(to: body)
        }
        if let counted, counted != walk.received {
            diagnostics.warning("the API counted \(counted) species but sent \(walk.received), from \(first.absoluteString)")
        }
    }

    /// Pages 2 to N of `plan`, at most `pageConcurrency` in flight, handed
    /// over in order as soon as the pages before them are. Each is handed
    /// over only if the page before links to it; it stops where a `next` or
    /// `previous` link is not the plan's, and returns the walk as it stands
    /// at the last page handed over.
    private func fetchConcurrently(
        _ plan: PagePlan, after start: PageWalk, _ body: (SpeciesPage) async throws -> Void
    ) async throws -> PageWalk {
        try await withThrowingTaskGroup(of: PageFetch.self, returning: PageWalk.self) { group in
            defer { group.cancelAll() }
            var walk = start
            var arrived: [Int: Result<SpeciesPage, any Error>] = [:]
            var nextToStart = 2
            var inFlight = 0
            for number in 2...plan.lastPage {
                guard let url = plan.url(page: number), links(walk.page.next, from: walk.url, to: url) else { break }
                diagnostics.progress(walk.fetching(number))
                while arrived[number] == nil {
                    while inFlight < pageConcurrency, nextToStart <= plan.lastPage {
                        addFetch(of: nextToStart, in: plan, to: &group)
                        nextToStart += 1
                        inFlight += 1
                    }
                    guard let done = try await group.next() else { break }
                    arrived[done.number] = done.result
                    inFlight -= 1
                }
                guard let result = arrived.removeValue(forKey: number) else { break }
                walk.advance(to: url, page: try result.get())
                walk.visited.insert(url.absoluteString)
                try await walk.deliver(to: body)
                guard let previous = plan.url(page: number - 1), links(walk.page.previous, from: url, to: previous) else {
                    break
                }
            }
            return walk
        }
    }

    /// A struct, not a tuple: Swift 6.3.1 at -O returns a child task's
    /// `(Int, Result<SpeciesPage, any Error>)` with a wrong Int.
    private struct PageFetch: Sendable {
        let number: Int
        let result: Result<SpeciesPage, any Error>
    }

    private func addFetch(of number: Int, in plan: PagePlan, to group: inout ThrowingTaskGroup<PageFetch, any Error>) {
        guard let url = plan.url(page: number), let previous = plan.url(page: number - 1) else { return }
        group.addTask {
            do {
                return PageFetch(number: number, result: .success(try await page(at: url, linkedFrom: previous)))
            } catch {
                return PageFetch(number: number, result: .failure(error))
            }
        }
    }

    /// Whether `link`, found on the page at `page`, leads to `target`.
    private func links(_ link: String?, from page: URL, to target: URL) -> Bool {
        guard let link, let url = try? LinkPolicy.resolve(link, of: page, root: root) else { return false }
        return url.absoluteString == target.absoluteString
    }

    /// Every species of every page from `first` on, in API order.
    public func allSpecies(from first: URL) async throws -> [StarWarsSpecies] {
        var species: [StarWarsSpecies] = []
        try await forEachPage(from: first) { species += $0.results }
        return species
    }

    /// A page reached through the `next` link of `previous`: if it is not
    /// there, the fault is the link's.
    private func page(at url: URL, linkedFrom previous: URL) async throws -> SpeciesPage {
        do {
            return try await page(at: url)
        } catch SpeciesError.httpStatus(404, _) {
            throw SpeciesError.invalidResponse(
                url: previous, problem: "its 'next' link \(url.absoluteString) answered 404 Not Found")
        }
    }

    /// The body of a 2xx answer to GET `url`.
    func fetch(_ url: URL) async throws -> Data {
        let response: HTTPResponse
        do {
            response = try await transport.send(HTTPRequest(url: url))
        } catch let error as TransportError {
            throw Self.failure(error, url: url)
        }
        guard (200..<300).contains(response.status) else {
            throw SpeciesError.httpStatus(response.status, url: url)
        }
        return response.body
    }

    private static func failure(_ error: TransportError, url: URL) -> SpeciesError {
        switch error.kind {
        case .tooLarge:
            .refused(url: url, problem: error.detail + " (--max-response-size)")
        case .redirectRefused:
            .refused(url: url, problem: error.detail)
        case .throttled(let status, let retryAfter):
            .rateLimited(url: url, status: status, retryAfter: retryAfter, until: Date().addingTimeInterval(retryAfter))
        default:
            .unreachable(error)
        }
    }

    private static func reportInvalidFields(of species: StarWarsSpecies, to diagnostics: any Diagnostics) {
        for field in species.invalidFields {
            let problem = field == "created" || field == "edited" ? "is not a UTC timestamp" : "has the wrong JSON type"
            diagnostics.warning("species \(species.displayName): field '\(field)' \(problem); treated as absent")
        }
    }
}

/// Where a walk through the pages stands: the last page handed over, the
/// URLs read, and the species received.
private struct PageWalk {
    var url: URL
    var page: SpeciesPage
    var visited: Set<String>
    var received = 0
    /// How many pages page 1 says there are.
    var pages: Int?

    init(url: URL, page: SpeciesPage) {
        self.url = url
        self.page = page
        self.visited = [url.absoluteString]
    }

    mutating func advance(to url: URL, page: SpeciesPage) {
        self.url = url
        self.page = page
    }

    /// "fetching page 3 of 4…".
    func fetching(_ number: Int) -> String {
        "fetching page \(number)" + (pages.map { number <= $0 ? " of \($0)" : "" } ?? "") + "…"
    }

    mutating func deliver(to body: (SpeciesPage) async throws -> Void) async throws {
        received += page.results.count
        try await body(page)
    }
}

/// How the client talks to the network.
public struct ConnectionSettings: Sendable, Equatable {
    public static let defaultTimeout = 15.0
    public static let defaultRetries = 3
    public static let defaultMaxResponseSize = 100 * 1024 * 1024

    /// Bound on each request, first byte to last, in seconds.
    public var timeout: Double
    /// Retries of 429, 500, 502, 503, 504 and dropped connections.
    public var retries: Int
    public var maxResponseSize: Int
    /// Follow `next` one page at a time, never fetching pages at once.
    public var serial: Bool

    public init(
        timeout: Double = defaultTimeout, retries: Int = defaultRetries,
        maxResponseSize: Int = defaultMaxResponseSize, serial: Bool = false
    ) {
        self.timeout = timeout
        self.retries = retries
        self.maxResponseSize = maxResponseSize
        self.serial = serial
    }
}

extension SpeciesClient {
    /// The client of the tool: the disk cache first, then URLSession in the
    /// HTTP helper, each request bounded by the timeout and retried as
    /// `RetryingTransport` says. Offline, the bundled snapshot stands in for
    /// the network.
    public static func live(
        root: APIRoot, connection: ConnectionSettings, cache: CacheSettings, helper: URL, diagnostics: any Diagnostics
    ) -> SpeciesClient {
        let network = RetryingTransport(
            DeadlineTransport(
                HelperTransport(.init(executable: helper, maxResponseSize: connection.maxResponseSize, idleTimeout: connection.timeout)),
                seconds: connection.timeout),
            policy: .init(retries: connection.retries), diagnostics: diagnostics)
        let transport = CachingTransport(
            network: network, cache: cache.directory.map(ResponseCache.init),
            snapshot: cache.mode == .offline ? SnapshotTransport(root: root, diagnostics: diagnostics) : nil,
            maxAge: cache.maxAge, mode: cache.mode, diagnostics: diagnostics)
        return SpeciesClient(
            root: root, transport: transport, diagnostics: diagnostics,
            pageConcurrency: connection.serial ? 1 : defaultPageConcurrency)
    }
}
