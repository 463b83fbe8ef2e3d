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
        /// When the API cannot answer, answer from the cache, whatever its
        /// age, and for SWAPI's own hosts from the data built into species.
        public var fallback: Bool

        public init(
            root: APIRoot = .swapi, timeout: Double = defaultTimeout, retries: Int = defaultRetries,
            maxResponseSize: Int = URLSessionTransport.defaultMaxResponseSize, serial: Bool = false,
            cache: CachePolicy = CachePolicy(directory: nil), fallback: Bool = true
        ) {
            self.root = root
            self.timeout = timeout
            self.retries = retries
            self.maxResponseSize = maxResponseSize
            self.serial = serial
            self.cache = cache
            self.fallback = fallback
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
    ///     when nil. The client follows redirects, and adds the deadline and
    ///     the retries.
    ///   - diagnostics: where warnings, notes and progress go.
    public init(configuration: Configuration = Configuration(), transport: (any HTTPTransport)? = nil, diagnostics: (any Diagnostics)? = nil) {
        let diagnostics = diagnostics ?? NoDiagnostics()
        let base = transport ?? URLSessionTransport(maxResponseSize: configuration.maxResponseSize, idleTimeout: configuration.timeout + 1)
        let network = RetryingTransport(
            DeadlineTransport(RedirectingTransport(base), seconds: configuration.timeout),
            policy: .init(retries: configuration.retries), diagnostics: diagnostics)
        let fetcher = Fetcher(
            network: network,
            cache: configuration.cache.directory.map { ResponseCache(directory: $0, maxBodySize: configuration.maxResponseSize) },
            maxAge: configuration.cache.maxAge, mode: configuration.cache.mode, diagnostics: diagnostics,
            valueLimits: JSONValueCount(maxSize: configuration.maxResponseSize))
        self.configuration = configuration
        self.diagnostics = diagnostics
        self.catalog = RemoteCatalog(
            root: configuration.root, fetcher: fetcher, diagnostics: diagnostics, serial: configuration.serial,
            dialects: DialectMemory())
    }

    public var root: APIRoot { configuration.root }

    /// Page `number` of the species, or of those whose name matches `search`.
    public func page(_ number: Int = 1, search: String? = nil) async throws -> Page {
        try await answer { try await $0.page(number, search: search) } bundled: { try $0.page(number, search: search) }
    }

    /// Every page from the first, each handed to `body` as it comes, in API
    /// order. When the cache or the built-in data takes over from an API
    /// that failed after some pages, `body` gets only what follows them.
    public func forEachPage(search: String? = nil, _ body: ([StarWarsSpecies]) async throws -> Void) async throws {
        var handedOver = 0
        try await answer { remote in
            var seen = 0
            try await remote.forEachPage(search: search) { species in
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
            try await species(what: "species \(id)") { try await $0.species(id: id) } bundled: { try $0.species(id: id) }
        case .url(let url):
            try await species(what: "the species at \(url.redacted)") { try await $0.species(at: url) } bundled: { bundled throws(SpeciesError) in
                guard let reference = ResourceReference(url.absoluteString), reference.kind == .species else {
                    throw .notInBundledData(what: "the species at \(url.redacted)")
                }
                return try bundled.species(id: reference.id)
            }
        case .name(let name):
            try await species(named: name)
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
        what: String, _ remote: (RemoteCatalog) async throws -> StarWarsSpecies,
        bundled: (BundledCatalog) throws -> StarWarsSpecies
    ) async throws -> StarWarsSpecies {
        do {
            return try await answer(remote, bundled: bundled)
        } catch SpeciesError.httpStatus(404, let url) {
            throw SpeciesError.notFound(what: what, url: url)
        }
    }

    func answer<Value>(
        _ remote: (RemoteCatalog) async throws -> Value, bundled: (BundledCatalog) throws -> Value
    ) async throws -> Value {
        try await answer(remote, bundled: bundled, then: { $0 })
    }

    /// The answer of `remote`, from the API through the cache. When the API
    /// cannot answer (`meansUnanswered`), the cache's, whatever its age;
    /// then, for SWAPI's own hosts, the built-in data's, handed to `finish`.
    /// Offline, the cache's, else the built-in data's, for any host. Where
    /// the answer came from is said once on stderr.
    func answer<Value, Partial>(
        _ remote: (RemoteCatalog) async throws -> Value, bundled: (BundledCatalog) throws -> Partial,
        then finish: (Partial) async throws -> Value
    ) async throws -> Value {
        let builtIn = { BundledCatalog(root: root, dialect: catalog.dialect) }
        if configuration.cache.mode == .offline {
            do {
                return try await remote(catalog)
            } catch SpeciesError.notCached {
                notices.once { diagnostics.note("offline: answering from the SWAPI data built into species (recorded \(BundledCatalog.recorded))") }
                return try await finish(try bundled(builtIn()))
            }
        }
        do {
            return try await remote(catalog)
        } catch let error as SpeciesError where configuration.fallback && error.meansUnanswered {
            let host = root.origin.authority
            let cached = CacheAnswers()
            if let value = try? await remote(catalog.cacheOnly(telling: cached)), let fetched = cached.oldest {
                let age = TimeSpan.describe(Date().timeIntervalSince(fetched))
                notices.once { diagnostics.note("\(host) did not answer (\(error.cause)): answering from the cache, as fetched \(age) ago") }
                return value
            }
            guard Dialect.ofPublicHost(root) != nil else { throw SpeciesError.unanswered(error, host: host) }
            notices.once {
                diagnostics.note("\(host) did not answer (\(error.cause)): answering from the SWAPI data built into species (recorded \(BundledCatalog.recorded))")
            }
            return try await finish(try bundled(builtIn()))
        }
    }
}

extension SpeciesError {
    /// The API gave no answer: the network or the service failed, or what
    /// came is not SWAPI JSON or sends the client elsewhere (a captive
    /// portal's page or redirect). A 404 or an empty search is an answer;
    /// so is a rule of the client broken.
    var meansUnanswered: Bool {
        switch self {
        case .unreachable(let error): error.meansUnreachable
        case .httpStatus(let status, _): status == 429 || (500..<600).contains(status)
        case .rateLimited, .invalidResponse, .redirected: true
        default: false
        }
    }

    /// Why the API did not answer, in a few words.
    var cause: String {
        switch self {
        case .unreachable(let error): error.detail
        case .httpStatus(let status, _), .rateLimited(_, let status, _): "HTTP \(status) \(HTTPStatusText.reason(status))"
        case .invalidResponse: "its answer is not SWAPI JSON"
        case .redirected(_, let problem): problem
        default: message
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

    /// Digits are an id; an `http(s)` URL must be a species of the API at
    /// `root` (any dialect's form: `.../species/3/`, `.../species/3`,
    /// `.../species/3.json`); anything else is a name.
    /// - Throws: `SpeciesError.notASpeciesURL` for any other URL.
    public init(_ text: String, root: APIRoot) throws(SpeciesError) {
        let text = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }), let id = Int(text) {
            self = .id(id)
            return
        }
        guard ["http://", "https://"].contains(where: text.lowercased().hasPrefix) else {
            self = .name(text)
            return
        }
        let expected = root.speciesURL(id: 3).redacted.replacingOccurrences(of: "/3/", with: "/<id>/")
        guard let url = URL(string: text), let origin = Origin(url), root.origin.admits(origin),
            url.query == nil, url.fragment == nil, let reference = ResourceReference(url.path), reference.kind == .species,
            url.path.lowercased().hasPrefix(root.path.lowercased()),
            url.path.dropFirst(root.path.count).split(separator: "/").count == 2
        else { throw .notASpeciesURL(text, expected: expected) }
        self = .url(url)
    }
}
