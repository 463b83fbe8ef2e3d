import Foundation
import Synchronization

/// The species of a SWAPI service: a page, every page, one species by id,
/// URL or name, and the names of what a species links to.
///
/// Requests go through the transport (URLSession unless another is given),
/// each bounded by `timeout` from its first byte to its last and retried as
/// `retries` says, and through the cache of `cache`. Every response is
/// checked; what cannot be read is reported to the diagnostics.
public struct SpeciesClient: Sendable {
    public struct Configuration: Sendable, Equatable {
        public static let defaultTimeout = 15.0
        public static let defaultRetries = 3

        public var root: APIRoot
        /// Seconds for each request, first byte to last.
        public var timeout: Double
        /// Retries of HTTP 429, 500, 502, 503, 504 and dropped connections.
        public var retries: Int
        /// Bytes; a larger response is refused.
        public var maxResponseSize: Int
        /// Follow `next` one page at a time, never fetching pages at once.
        public var serial: Bool
        public var cache: CachePolicy

        public init(
            root: APIRoot = .swapi, timeout: Double = defaultTimeout, retries: Int = defaultRetries,
            maxResponseSize: Int = URLSessionTransport.defaultMaxResponseSize, serial: Bool = false,
            cache: CachePolicy = CachePolicy(directory: nil)
        ) {
            self.root = root
            self.timeout = timeout
            self.retries = retries
            self.maxResponseSize = maxResponseSize
            self.serial = serial
            self.cache = cache
        }
    }

    /// One page of a listing.
    public struct Page: Sendable, Equatable {
        /// From 1.
        public var number: Int
        /// Species in the whole listing.
        public var count: Int
        public var pageCount: Int
        public var species: [StarWarsSpecies]

        public init(number: Int, count: Int, pageCount: Int, species: [StarWarsSpecies]) {
            self.number = number
            self.count = count
            self.pageCount = pageCount
            self.species = species
        }
    }

    public let configuration: Configuration
    let diagnostics: any Diagnostics
    let catalog: RemoteCatalog
    private let notices = Notices()

    /// - Parameters:
    ///   - transport: how requests reach the network; a `URLSessionTransport`
    ///     when nil. The client adds the deadline and the retries.
    ///   - diagnostics: where warnings, notes and progress go.
    public init(configuration: Configuration = Configuration(), transport: (any HTTPTransport)? = nil, diagnostics: (any Diagnostics)? = nil) {
        let diagnostics = diagnostics ?? NoDiagnostics()
        let base = transport ?? URLSessionTransport(maxResponseSize: configuration.maxResponseSize, idleTimeout: configuration.timeout + 1)
        let network = RetryingTransport(
            DeadlineTransport(base, seconds: configuration.timeout),
            policy: .init(retries: configuration.retries), diagnostics: diagnostics)
        let fetcher = Fetcher(
            network: network, cache: configuration.cache.directory.map(ResponseCache.init),
            maxAge: configuration.cache.maxAge, mode: configuration.cache.mode, diagnostics: diagnostics)
        self.configuration = configuration
        self.diagnostics = diagnostics
        self.catalog = RemoteCatalog(root: configuration.root, fetcher: fetcher, diagnostics: diagnostics, serial: configuration.serial)
    }

    public var root: APIRoot { configuration.root }

    /// Page `number` of the species, or of those whose name matches `search`.
    public func page(_ number: Int = 1, search: String? = nil) async throws -> Page {
        try await answer { try await $0.page(number, search: search) } bundled: { try $0.page(number, search: search) }
    }

    /// Every page from the first, each handed to `body` as it comes, in API order.
    public func forEachPage(search: String? = nil, _ body: ([StarWarsSpecies]) async throws -> Void) async throws {
        var delivered = 0
        try await answer { remote in
            try await remote.forEachPage(search: search) { species in
                try await body(species)
                delivered += species.count
            }
        } bundled: { bundled in
            // Whatever the cache gave before it ran out stays given.
            Array(bundled.species(matching: search).dropFirst(delivered))
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
        case .id(let id): try await species(at: root.speciesURL(id: id), what: "species \(id)")
        case .url(let url): try await species(at: url, what: "the species at \(url.redacted)")
        case .name(let name): try await species(named: name)
        }
    }

    /// An exact name (ignoring case) wins; else a single partial match; else
    /// `SpeciesError.ambiguousName` or `.noSuchName` with the closest names.
    /// The API's own search comes first, usually one request; only when it
    /// finds nothing is every species read, for the suggestions.
    private func species(named name: String) async throws -> StarWarsSpecies {
        if let match = try NameMatcher.match(name, in: try await allSpecies(search: name)) {
            return match
        }
        let everyone = try await allSpecies()
        if let match = try NameMatcher.match(name, in: everyone) {
            return match
        }
        throw SpeciesError.noSuchName(name, suggestions: EditDistance.closest(to: name, among: everyone.compactMap(\.name)))
    }

    private func species(at url: URL, what: String) async throws -> StarWarsSpecies {
        do {
            return try await answer { try await $0.species(at: url) } bundled: { bundled throws(SpeciesError) in
                guard let reference = ResourceReference(url.absoluteString), reference.kind == .species else {
                    throw .notInBundledData(what: what)
                }
                return try bundled.species(id: reference.id)
            }
        } catch SpeciesError.httpStatus(404, _) {
            throw SpeciesError.notFound(what: what, url: url)
        }
    }

    /// The answer of `remote`, through the cache. Offline, when the cache
    /// holds no answer, the answer of `bundled`, said once on stderr.
    func answer<Value>(
        _ remote: (RemoteCatalog) async throws -> Value, bundled: (BundledCatalog) throws -> Value
    ) async throws -> Value {
        try await answer(remote, bundled: bundled, then: { $0 })
    }

    func answer<Value, Partial>(
        _ remote: (RemoteCatalog) async throws -> Value, bundled: (BundledCatalog) throws -> Partial,
        then finish: (Partial) async throws -> Value
    ) async throws -> Value {
        do {
            return try await remote(catalog)
        } catch SpeciesError.notCached where configuration.cache.mode == .offline {
            let value = try bundled(BundledCatalog(root: root))
            notices.once {
                diagnostics.note("offline: answering from the SWAPI data built into species (recorded \(BundledCatalog.recorded))")
            }
            return try await finish(value)
        }
    }
}

/// Notes said once per client.
final class Notices: Sendable {
    private let said = Mutex(false)

    func once(_ say: () -> Void) {
        guard !said.withLock({ said in defer { said = true }; return said }) else { return }
        say()
    }
}

/// What `species show` was asked for: a name, an id, or a URL.
public enum SpeciesQuery: Sendable, Equatable {
    case name(String)
    case id(Int)
    case url(URL)

    /// Digits are an id; an `http(s)` URL is a URL; anything else a name.
    public init(_ text: String) {
        let text = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }), let id = Int(text) {
            self = .id(id)
        } else if ["http://", "https://"].contains(where: text.lowercased().hasPrefix), let url = URL(string: text) {
            self = .url(url)
        } else {
            self = .name(text)
        }
    }
}
