import Foundation

/// The species of SWAPI: a page, every page, one species by id, URL or
/// name, and the names of what a species links to.
///
/// The services of the configuration's `roots` are asked in turn, and no
/// host but theirs. Each call is one answer, which ends within
/// ``Configuration/timeout`` whatever the network does, and comes whole
/// from one source, which the ``Answer`` names: a service, its cache, or
/// the SWAPI data built into SpeciesKit. Every question, and the
/// configuration, is checked before any request. Every failure is a
/// ``SpeciesError``.
public struct SpeciesClient: Sendable {
    /// Which services, and how the client asks them.
    public struct Configuration: Sendable, Equatable {
        /// Seconds: the default of `timeout`.
        public static let defaultTimeout = 15.0
        /// The default of `retries`.
        public static let defaultRetries = 3
        /// 100 MiB: the default of `maxResponseSize`.
        public static let defaultMaxResponseSize = 100 * 1024 * 1024

        /// The services, asked in this order; one means that one only. An
        /// empty list is refused, as a bad question: SWAPI's public services
        /// are ``APIRoot/publicServices``, the default.
        public var roots: [APIRoot]
        /// Seconds for each answer (each call of the client), a finite
        /// number above 0: every service, page, retry, wait, redirect and
        /// related resource it asks of the network ends within them; then
        /// the cache or the built-in data answers, as `fallback` says.
        public var timeout: Double
        /// Retries of HTTP 429, 500, 502, 503, 504 and dropped connections,
        /// from 0, by the last service of `roots` (the others give way at
        /// once), within `timeout`.
        public var retries: Int
        /// Bytes, from 1; a larger response is refused, whatever the transport.
        public var maxResponseSize: Int
        /// Follow `next` one page at a time, never fetching pages at once.
        public var serial: Bool
        /// Seconds a service of `roots` may go without a sign of life (a
        /// response, or a failure) before the next is asked beside it, as
        /// RFC 8305's Connection Attempt Delay staggers addresses; the
        /// answer is still the first service's, in the list's order, that
        /// answers whole. `.infinity` asks them one after another.
        public var attemptDelay: Double
        /// Where responses are kept, and when they answer.
        public var cache: CachePolicy
        /// When no service can answer, answer from the cache, whatever its
        /// age, and for SWAPI's public services from the SWAPI data built in;
        /// off by default: only what is asked for stands in, and
        /// ``Answer/source`` says what did.
        public var fallback: Bool
        /// The `User-Agent` of every request of the default transport.
        public var userAgent: String

        /// A quarter of a second, RFC 8305's: the default of `attemptDelay`.
        public static let defaultAttemptDelay = 0.25

        /// SWAPI's public services, a 15-second timeout, three retries, no
        /// cache and no stand-in.
        public init(
            roots: [APIRoot] = APIRoot.publicServices, timeout: Double = defaultTimeout, retries: Int = defaultRetries,
            maxResponseSize: Int = defaultMaxResponseSize, serial: Bool = false,
            attemptDelay: Double = defaultAttemptDelay, cache: CachePolicy = CachePolicy(directory: nil),
            fallback: Bool = false, userAgent: String = "SpeciesKit/\(SpeciesRelease.version)"
        ) {
            self.roots = roots
            self.timeout = timeout
            self.retries = retries
            self.maxResponseSize = maxResponseSize
            self.serial = serial
            self.attemptDelay = attemptDelay
            self.cache = cache
            self.fallback = fallback
            self.userAgent = userAgent
        }

        /// Why the client cannot work with these settings; nil when it can.
        func problem() -> Fault? {
            if roots.isEmpty {
                return .badQuestion(
                    "no service to ask: the list of roots is empty (APIRoot.publicServices are SWAPI's)",
                    setting: .roots)
            }
            if let directory = cache.directory, !directory.isFileURL || !directory.relativePath.hasPrefix("/") {
                return .badQuestion(
                    "the cache directory must be an absolute path, not '\(Excerpt.of(directory.relativePath))'",
                    setting: .cacheDirectory)
            }
            if !timeout.isFinite || timeout <= 0 {
                return .badQuestion(
                    "the timeout must be a finite number of seconds above 0, not \(timeout)", setting: .timeout)
            }
            if retries < 0 { return .badQuestion("retries must be 0 or more, not \(retries)", setting: .retries) }
            if maxResponseSize < 1 {
                return .badQuestion(
                    "the largest response must be 1 byte or more, not \(maxResponseSize)", setting: .maxResponseSize)
            }
            if attemptDelay.isNaN || attemptDelay < 0 {
                return .badQuestion(
                    "the attempt delay must be 0 seconds or more, not \(attemptDelay)", setting: .attemptDelay)
            }
            if let kept = cache.memoryLifetime, !kept.isFinite || kept < 0 {
                return .badQuestion(
                    "the memory's lifetime must be a finite number of seconds, 0 or more, not \(kept)",
                    setting: .memoryLifetime)
            }
            if !cache.maxAge.isFinite || cache.maxAge < 0 {
                return .badQuestion(
                    "the cache's maximum age must be a finite number of seconds, 0 or more, not \(cache.maxAge)",
                    setting: .maxAge)
            }
            return nil
        }
    }

    /// The longest name or search the client asks: longer than any SWAPI name.
    public static let maxNameLength = 100

    /// What the client was made with.
    public let configuration: Configuration
    /// The services asked, in the list's order, each once.
    public let roots: [APIRoot]
    let diagnostics: any Diagnostics
    let cache: ResponseCache?
    /// What each attempt is handed.
    var fetching: Fetching
    /// What its callers share, and what it remembers (`Memory`).
    let shared: SharedAnswers

    /// A client of the services of `configuration`.
    ///
    /// - Parameters:
    ///   - configuration: the services, and how to ask them.
    ///   - transport: how requests reach the network; a
    ///     ``URLSessionTransport`` (which follows redirects within an
    ///     origin) when nil. It must end each request by its deadline and
    ///     keep its pace (``RequestLimits``); the client adds the retries,
    ///     and holds every response to ``Configuration/maxResponseSize``.
    ///   - diagnostics: where warnings, notes, progress and traces go.
    ///   - clock: what every time of the client is read from: the timeout,
    ///     waits, and the dates of the cache; tests pass one they drive.
    public init(
        configuration: Configuration = Configuration(), transport: (any HTTPTransport)? = nil,
        diagnostics: (any Diagnostics)? = nil, clock: some Clock<Duration> = ContinuousClock()
    ) {
        self.configuration = configuration
        let roots = configuration.roots.reduce(into: [APIRoot]()) { if !$0.contains($1) { $0.append($1) } }
        self.roots = roots
        let diagnostics = diagnostics ?? NoDiagnostics()
        self.diagnostics = diagnostics
        let size = max(1, configuration.maxResponseSize)
        let cache = configuration.cache.directory.map { ResponseCache(directory: $0, maxBodySize: size) }
        self.cache = cache
        fetching = Fetching(
            transport: transport ?? URLSessionTransport(maxResponseSize: size, userAgent: configuration.userAgent),
            cache: cache, policy: configuration.cache, maxResponseSize: size, time: ClientTime(clock),
            diagnostics: diagnostics, jitter: { Double.random(in: 0..<1) })
        shared = SharedAnswers(Memory(maxAge: configuration.cache.maxAge, hasCache: cache != nil))
    }

    var time: ClientTime { fetching.time }
    /// Every time limit, from the one timeout.
    var limits: TimeLimits { TimeLimits(timeout: configuration.timeout, stagger: configuration.attemptDelay) }

    /// Page `number`, from 1, of the species, or of those whose name
    /// matches `search`: every word of it is part of the name, ignoring case.
    /// `cache`, for this call, is how the cache and what the client keeps
    /// answer (nil: the configuration's ``CachePolicy/mode``): `.refresh`
    /// asks the network and replaces what is kept, for every later call.
    /// - Throws: a `nothingMatched` error past the last page, which says how
    ///   many there are; a `badQuestion` one for a page below 1 or a search
    ///   without a word; or why no source could answer.
    public func page(_ number: Int = 1, search: String? = nil, cache: CachePolicy.Mode? = nil)
        async throws(SpeciesError) -> Answer<SpeciesPage>
    { try await page(number, search: search, cache: cache, size: nil) }

    /// Page `number`, asked alone of the service whose page 1 showed `size`.
    func page(_ number: Int, search: String?, cache: CachePolicy.Mode?, size: PageSize?) async throws(SpeciesError)
        -> Answer<SpeciesPage>
    {
        try await answer(
            .page(number, search: search, size: size), cache: cache, checking: Self.check(page: number),
            Self.check(search: search)
        ) { source throws(Fault) in try await source.page(number, search: search, size: size) }
    }

    /// Every species, or every one whose name matches `search`, in API
    /// order, all from one source. With a `limit`, from 0, the first `limit`
    /// of them, and only as many pages are fetched as hold them: none for
    /// 0, which answers `[]` from ``AnswerSource/unasked``. `cache`: as
    /// ``page(_:search:cache:)`` says.
    /// - Throws: a `badQuestion` error for a limit below 0 or a search
    ///   without a word; or why no source could answer.
    public func allSpecies(search: String? = nil, limit: Int? = nil, cache: CachePolicy.Mode? = nil)
        async throws(SpeciesError) -> Answer<[StarWarsSpecies]>
    {
        let limitProblem: Fault? = limit.flatMap {
            $0 < 0 ? .badQuestion("a limit must be 0 or more, not \($0)", setting: nil) : nil
        }
        if limit == 0 {
            if let problem = configuration.problem() ?? Self.check(search: search) { throw SpeciesError(problem) }
            return Answer([], from: .unasked)
        }
        var answer = try await answer(
            .species(search: search, limit: limit), cache: cache, checking: limitProblem, Self.check(search: search)
        ) { source throws(Fault) in try await source.species(matching: search, limit: limit) }
        if let limit { answer.value = Array(answer.value.prefix(limit)) }
        return answer
    }

    /// The species `query` designates. `cache`: as
    /// ``page(_:search:cache:)`` says.
    /// - Throws: a `nothingMatched` error when there is none; a
    ///   `badQuestion` one, before any request, for an id below 1, a blank or
    ///   overlong name, or a URL that is no species of the client's
    ///   services; or why no source could answer.
    public func species(_ query: SpeciesQuery, cache: CachePolicy.Mode? = nil) async throws(SpeciesError) -> Answer<
        StarWarsSpecies
    > {
        let resolved = try query.resolved(roots: roots)
        return try await answer(.one(resolved), cache: cache) { source throws(Fault) in
            try await Self.species(resolved, in: source)
        }
    }

    /// The species `query` designates, and the names behind its links, all
    /// from one source. `cache`: as ``page(_:search:cache:)`` says.
    /// - Throws: as ``species(_:cache:)`` does.
    public func speciesAndRelated(_ query: SpeciesQuery, cache: CachePolicy.Mode? = nil) async throws(SpeciesError)
        -> Answer<(species: StarWarsSpecies, related: RelatedResources)>
    {
        let resolved = try query.resolved(roots: roots)
        return try await answer(.related(resolved), cache: cache) { source throws(Fault) in
            let species = try await Self.species(resolved, in: source)
            return (species, try await related(of: species, in: source))
        }
    }

    /// The answer `body` makes of `question`, once the configuration and
    /// `problems` (of the question) say it may be asked: the one kept, the
    /// one being fetched for another caller, or a new one (`SharedAnswers`).
    private func answer<Value: Sendable>(
        _ question: Question, cache: CachePolicy.Mode?, checking problems: Fault?...,
        body: @escaping @Sendable (any SpeciesCatalog) async throws(Fault) -> Value
    ) async throws(SpeciesError) -> Answer<Value> {
        if let problem = configuration.problem() ?? problems.lazy.compactMap({ $0 }).first {
            throw SpeciesError(problem)
        }
        let mode = cache ?? configuration.cache.mode
        let shared = await shared.answer(to: question, mode: mode, lifetime: configuration.cache.keptFor, now: time.now)
        { flight, isolation in
            do throws(Fault) {
                return .success(
                    try await firstWholeAnswer(question, mode: mode, flight: flight, body, isolation: isolation))
            } catch { return .failure(error) }
        }
        switch shared {
        case .success(let answer):
            guard let value = answer.value as? Value else { throw SpeciesError(.cancelled) }
            return Answer(value, from: answer.source)
        case .failure(let error): throw SpeciesError(error)
        }
    }

    /// Drops every answer the client keeps in memory, and has the fetches
    /// under way keep none: the next call of each question asks its
    /// sources again. What the cache folder holds stays (``CachePolicy``).
    public func invalidate() { shared.handle(.invalidated) }

    static func check(page number: Int) -> Fault? {
        number < 1 ? .badQuestion("pages are numbered from 1, not \(number)", setting: nil) : nil
    }

    /// A search holds a word, and is not longer than a name could be.
    static func check(search: String?) -> Fault? { search.flatMap(SearchTerms.problem(with:)) }

    /// An id or a URL is asked for; a name is matched: an exact name
    /// (ignoring case) wins; else the single species whose name matches
    /// every word of `name` (as a search does); else an ambiguous name, or
    /// no such name with the closest names. The API's search comes first,
    /// usually one request; only when it finds nothing is every species
    /// read, for the suggestions.
    private static func species(_ query: SpeciesQuery, in source: any SpeciesCatalog) async throws(Fault)
        -> StarWarsSpecies
    {
        switch query {
        case .id(let id): return try await source.species(ResourceReference(.species, id), pasted: nil)
        case .url(let url):
            // A checked query's URL is a species URL (`SpeciesQuery.checked`).
            guard let reference = ResourceReference(url.absoluteString), reference.kind == .species else {
                throw .notASpeciesURL(url.absoluteString, of: source.root)
            }
            return try await source.species(reference, pasted: url)
        case .name(let name):
            if let match = try NameMatcher.match(name, in: try await source.species(matching: name, limit: nil)) {
                return match
            }
            let everyone = try await source.species(matching: nil, limit: nil)
            throw NameMatcher.miss(name, searchedAt: source.searchURL(name), listing: everyone)
        }
    }
}
