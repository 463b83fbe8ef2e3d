import Foundation
import Synchronization

/// The species of SWAPI: a page, every page, one species by id, URL or
/// name, and the names of what a species links to.
///
/// The services of `roots` are asked in turn (`ServiceList`): SWAPI's
/// public ones unless told otherwise. Requests go through the transport
/// (URLSession unless another is given), each bounded by `timeout` from
/// its first byte to its last and retried as `retries` says, and through
/// the cache of `cache`. Every response is checked; what cannot be read is
/// reported to the diagnostics.
public struct SpeciesClient: Sendable {
    public struct Configuration: Sendable, Equatable {
        public static let defaultTimeout = 15.0
        public static let defaultRetries = 3

        /// The services, asked in this order; one means that one only, and
        /// none means SWAPI's public services.
        public var roots: [APIRoot]
        /// Seconds for each request, first byte to last; and for a walk
        /// down `roots` until one answers.
        public var timeout: Double
        /// Retries of HTTP 429, 500, 502, 503, 504 and dropped connections,
        /// by the last service of `roots` (the others give way at once).
        public var retries: Int
        /// Bytes; a larger response is refused.
        public var maxResponseSize: Int
        /// Follow `next` one page at a time, never fetching pages at once.
        public var serial: Bool
        public var cache: CachePolicy
        /// When no service can answer, answer from the cache, whatever its
        /// age, and for SWAPI's own hosts from the data built into species.
        public var fallback: Bool

        public init(
            roots: [APIRoot] = APIRoot.publicServices, timeout: Double = defaultTimeout, retries: Int = defaultRetries,
            maxResponseSize: Int = URLSessionTransport.defaultMaxResponseSize, serial: Bool = false,
            cache: CachePolicy = CachePolicy(directory: nil), fallback: Bool = true
        ) {
            self.roots = roots
            self.timeout = timeout
            self.retries = retries
            self.maxResponseSize = maxResponseSize
            self.serial = serial
            self.cache = cache
            self.fallback = fallback
        }
    }

    public let configuration: Configuration
    let diagnostics: any Diagnostics
    let services: ServiceList

    /// - Parameters:
    ///   - transport: how requests reach the network; a `URLSessionTransport`
    ///     when nil. The client follows redirects, and adds the deadline and
    ///     the retries.
    ///   - diagnostics: where warnings, notes, progress and traces go.
    public init(configuration: Configuration = Configuration(), transport: (any HTTPTransport)? = nil, diagnostics: (any Diagnostics)? = nil) {
        let diagnostics = diagnostics ?? NoDiagnostics()
        let base = RedirectingTransport(
            transport ?? URLSessionTransport(maxResponseSize: configuration.maxResponseSize, idleTimeout: configuration.timeout + 1))
        let cache = configuration.cache.directory.map { ResponseCache(directory: $0, maxBodySize: configuration.maxResponseSize) }
        let dialects = DialectMemory()
        var roots: [APIRoot] = []
        for root in configuration.roots where !roots.contains(root) {
            roots.append(root)
        }
        if roots.isEmpty { roots = APIRoot.publicServices }
        self.configuration = configuration
        self.diagnostics = diagnostics
        services = ServiceList(
            roots: roots, memory: ServiceMemory(roots: roots, cache: cache, maxAge: configuration.cache.maxAge),
            mode: configuration.cache.mode, fallback: configuration.fallback, timeout: configuration.timeout, diagnostics: diagnostics
        ) { root, turn in
            // Only the last service of a walk retries: the others give way.
            let retries = turn?.followed == true ? 0 : configuration.retries
            let network = RetryingTransport(
                TracingTransport(DeadlineTransport(base, seconds: configuration.timeout, turn: turn), diagnostics: diagnostics),
                policy: .init(retries: retries), diagnostics: diagnostics)
            let fetcher = Fetcher(
                network: network, cache: cache, maxAge: configuration.cache.maxAge, mode: configuration.cache.mode,
                diagnostics: diagnostics, valueLimits: JSONValueCount(maxSize: configuration.maxResponseSize))
            return RemoteCatalog(root: root, fetcher: fetcher, diagnostics: diagnostics, serial: configuration.serial, dialects: dialects)
        }
    }

    /// The services asked, in the list's order.
    public var roots: [APIRoot] { services.roots }

    /// Page `number` of the species, or of those whose name matches `search`.
    public func page(_ number: Int = 1, search: String? = nil) async throws -> SpeciesPage {
        try await services.answer { try await $0.page(number, search: search) } bundled: { try $0.page(number, search: search) }
    }

    /// Every page from the first, each handed to `body` as it comes, in API
    /// order. When the cache or the built-in data takes over from an API
    /// that failed after some pages, `body` gets only what follows them.
    /// With a `limit`, only as many pages are fetched as hold that many
    /// species (the last may hold more).
    public func forEachPage(search: String? = nil, limit: Int? = nil, _ body: ([StarWarsSpecies]) async throws -> Void) async throws {
        var handedOver = 0
        try await services.answer { remote in
            var seen = 0
            try await remote.forEachPage(search: search, limit: limit) { species in
                let fresh = species.dropFirst(max(0, handedOver - seen))
                seen += species.count
                guard !fresh.isEmpty else { return }
                try await body(Array(fresh))
                handedOver += fresh.count
            }
        } bundled: { bundled in
            Array(bundled.species(matching: search).dropFirst(handedOver))
        } then: { rest in
            if !rest.isEmpty { try await body(rest) }
        }
    }

    /// Every species, or every one whose name matches `search`, in API order.
    public func allSpecies(search: String? = nil) async throws -> [StarWarsSpecies] {
        var species: [StarWarsSpecies] = []
        try await forEachPage(search: search) { species += $0 }
        return species
    }

    /// The species `query` designates.
    public func species(_ query: SpeciesQuery) async throws -> StarWarsSpecies {
        switch query {
        case .id(let id):
            return try await species(query) { try await $0.species(id: id) } bundled: { try $0.species(id: id) }
        case .url(let url):
            // Its own service is asked for the URL; another, for the same id.
            let id = ResourceReference(url.absoluteString).flatMap { $0.kind == .species ? $0.id : nil }
            return try await species(query) { catalog in
                if let id, !catalog.root.contains(url) { try await catalog.species(id: id) } else { try await catalog.species(at: url) }
            } bundled: { bundled in
                guard let id else { throw SpeciesError.notInBundledData(what: query.description) }
                return try bundled.species(id: id)
            }
        case .name(let name):
            return try await species(named: name)
        }
    }

    /// An exact name (ignoring case) wins; else the single species whose
    /// name matches every word of `name` (as `--search` does); else
    /// `SpeciesError.ambiguousName` or `.noSuchName` with the closest names.
    /// The API's search comes first, usually one request; only when it finds
    /// nothing is every species read, for the suggestions.
    private func species(named name: String) async throws -> StarWarsSpecies {
        if let match = try NameMatcher.match(name, in: try await allSpecies(search: name)) {
            return match
        }
        let everyone = try await allSpecies()
        throw SpeciesError.noSuchName(name, suggestions: EditDistance.closest(to: name, among: everyone.compactMap(\.name)))
    }

    private func species(
        _ query: SpeciesQuery, _ remote: (RemoteCatalog) async throws -> StarWarsSpecies,
        bundled: (BundledCatalog) throws -> StarWarsSpecies
    ) async throws -> StarWarsSpecies {
        do {
            return try await services.answer(remote, bundled: bundled)
        } catch SpeciesError.httpStatus(404, let url) {
            throw SpeciesError.notFound(what: query.description, url: url)
        }
    }
}
