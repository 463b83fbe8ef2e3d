import Foundation
import Synchronization

/// The species of SWAPI: a page, every page, one species by id, URL or
/// name, and the names of what a species links to.
///
/// The services of `roots` are asked in turn: SWAPI's public ones unless
/// told otherwise, and no host but theirs. Each call is one answer, which
/// ends within `timeout` whatever the network does, and comes whole from
/// one source, which the ``Answer`` names: a service, its cache, or the
/// SWAPI data built in. Requests go through the cache of `cache`, then the
/// retries (`retries`, of the last service asked) to the transport
/// (URLSession unless another is given). Every response is checked; what
/// cannot be read is reported to the diagnostics. Every failure is a
/// ``SpeciesError``.
public struct SpeciesClient: Sendable {
    /// Which services, and how the client asks them.
    public struct Configuration: Sendable, Equatable {
        /// Seconds: the default of `timeout`.
        public static let defaultTimeout = 15.0
        /// The default of `retries`.
        public static let defaultRetries = 3

        /// The services, asked in this order; one means that one only, and
        /// none means SWAPI's public services.
        public var roots: [APIRoot]
        /// Seconds for each answer (each call of the client): every
        /// service, page, retry, wait, redirect and related resource it
        /// asks of the network ends within them; then the cache or the
        /// built-in data answers, as `fallback` says.
        public var timeout: Double
        /// Retries of HTTP 429, 500, 502, 503, 504 and dropped connections,
        /// by the last service of `roots` (the others give way at once),
        /// within `timeout`.
        public var retries: Int
        /// Bytes; a larger response is refused.
        public var maxResponseSize: Int
        /// Follow `next` one page at a time, never fetching pages at once.
        public var serial: Bool
        /// Where responses are kept, and when they answer.
        public var cache: CachePolicy
        /// When no service can answer, answer from the cache, whatever its
        /// age, and for SWAPI's own hosts from the data built into species.
        public var fallback: Bool

        /// SWAPI's public services, with the defaults of `species`.
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

    /// What the client was made with.
    public let configuration: Configuration
    let diagnostics: any Diagnostics
    let services: ServiceList

    /// A client of the services of `configuration`.
    ///
    /// - Parameters:
    ///   - configuration: the services, and how to ask them.
    ///   - transport: how requests reach the network; a
    ///     ``URLSessionTransport`` (which follows redirects within an
    ///     origin) when nil. It must end each request by its deadline and
    ///     keep its pace (``RequestLimits``); the client adds the retries.
    ///   - diagnostics: where warnings, notes, progress and traces go.
    ///   - clock: what `timeout` is measured on; tests pass one they drive.
    public init(
        configuration: Configuration = Configuration(), transport: (any HTTPTransport)? = nil,
        diagnostics: (any Diagnostics)? = nil, clock: some Clock<Duration> = ContinuousClock()
    ) {
        let diagnostics = diagnostics ?? NoDiagnostics()
        let network = HTTPPipeline(
            transport: transport ?? URLSessionTransport(maxResponseSize: configuration.maxResponseSize),
            middlewares: [Retries(diagnostics: diagnostics), Tracing(diagnostics: diagnostics)])
        let cache = configuration.cache.directory.map {
            ResponseCache(directory: $0, maxBodySize: configuration.maxResponseSize)
        }
        var roots: [APIRoot] = []
        for root in configuration.roots where !roots.contains(root) {
            roots.append(root)
        }
        if roots.isEmpty { roots = APIRoot.publicServices }
        let memory = ServiceMemory(roots: roots, cache: cache, maxAge: configuration.cache.maxAge)
        self.configuration = configuration
        self.diagnostics = diagnostics
        services = ServiceList(
            roots: roots, memory: memory, cache: cache, mode: configuration.cache.mode,
            fallback: configuration.fallback, deadline: { Deadline(seconds: configuration.timeout, clock: clock) },
            retries: configuration.retries, diagnostics: diagnostics
        ) { root, limits, draft in
            let fetcher = Fetcher(
                network: network, cache: cache, maxAge: configuration.cache.maxAge, mode: configuration.cache.mode,
                draft: draft, limits: limits, valueLimits: JSONValueCount(maxSize: configuration.maxResponseSize))
            return RemoteCatalog(root: root, fetcher: fetcher, serial: configuration.serial, memory: memory)
        }
    }

    /// The services asked, in the list's order.
    public var roots: [APIRoot] { services.roots }

    /// Page `number` of the species, or of those whose name matches
    /// `search`: every word of it is part of the name, ignoring case.
    /// - Throws: `SpeciesError.noSuchPage` past the last page, or why no
    ///   source could answer.
    public func page(_ number: Int = 1, search: String? = nil) async throws(SpeciesError) -> Answer<SpeciesPage> {
        try await answer { try await $0.page(number, search: search) }
    }

    /// Every species, or every one whose name matches `search`, in API
    /// order, all from one source. With a `limit`, the first `limit` of
    /// them, and only as many pages are fetched as hold them.
    /// - Throws: why no source could answer.
    public func allSpecies(search: String? = nil, limit: Int? = nil) async throws(SpeciesError)
        -> Answer<[StarWarsSpecies]>
    {
        var answer = try await answer { try await $0.species(matching: search, limit: limit) }
        if let limit { answer.value = Array(answer.value.prefix(limit)) }
        return answer
    }

    /// The species `query` designates.
    /// - Throws: `SpeciesError.noSuchName`, `.ambiguousName`, `.notFound` or
    ///   `.notInBundledData` when there is none; `.notASpeciesURL`, before
    ///   any request, for a URL that is no species of the client's services;
    ///   or why no source could answer.
    public func species(_ query: SpeciesQuery) async throws(SpeciesError) -> Answer<StarWarsSpecies> {
        try query.check(roots: roots)
        return try await answer { try await Self.species(query, in: $0) }
    }

    /// The species `query` designates, and the names behind its links, all
    /// from one source.
    /// - Throws: as ``species(_:)`` does.
    public func speciesAndRelated(_ query: SpeciesQuery) async throws(SpeciesError) -> Answer<
        (species: StarWarsSpecies, related: RelatedResources)
    > {
        try query.check(roots: roots)
        return try await answer { source in
            let species = try await Self.species(query, in: source)
            return (species, try await related(of: species, in: source))
        }
    }

    /// What `body` makes of the first source that answers it whole. Every
    /// failure is a `SpeciesError`: the sources throw nothing else but the
    /// cancellation of the task that asks.
    private func answer<Value>(_ body: (any SpeciesSource) async throws -> Value) async throws(SpeciesError)
        -> Answer<Value>
    {
        do {
            return try await services.answer(body)
        } catch let error as SpeciesError {
            throw error
        } catch {
            throw .cancelled
        }
    }

    /// An id or a URL is asked for; a name is matched: an exact name
    /// (ignoring case) wins; else the single species whose name matches
    /// every word of `name` (as `--search` does); else
    /// `SpeciesError.ambiguousName` or `.noSuchName` with the closest
    /// names. The API's search comes first, usually one request; only when
    /// it finds nothing is every species read, for the suggestions.
    private static func species(_ query: SpeciesQuery, in source: any SpeciesSource) async throws -> StarWarsSpecies {
        switch query {
        case .id(let id):
            return try await source.species(id: id)
        case .url(let url):
            return try await source.species(at: url)
        case .name(let name):
            if let match = try NameMatcher.match(name, in: try await source.species(matching: name, limit: nil)) {
                return match
            }
            let everyone = try await source.species(matching: nil, limit: nil)
            throw SpeciesError.noSuchName(
                name, suggestions: EditDistance.closest(to: name, among: everyone.compactMap(\.name)))
        }
    }
}
