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
        /// 100 MiB: the default of `maxResponseSize`.
        public static let defaultMaxResponseSize = 100 * 1024 * 1024

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
            maxResponseSize: Int = defaultMaxResponseSize, serial: Bool = false,
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
    /// The services asked, in the list's order, each once.
    public let roots: [APIRoot]
    let diagnostics: any Diagnostics
    let transport: any HTTPTransport
    let cache: ResponseCache?
    var time: ClientTime
    let memory: Memory
    /// Uniform in 0..<1: the jitter of the retries' back-off.
    var jitter: @Sendable () -> Double = { Double.random(in: 0..<1) }

    /// A client of the services of `configuration`.
    ///
    /// - Parameters:
    ///   - configuration: the services, and how to ask them.
    ///   - transport: how requests reach the network; a
    ///     ``URLSessionTransport`` (which follows redirects within an
    ///     origin) when nil. It must end each request by its deadline and
    ///     keep its pace (``RequestLimits``); the client adds the retries.
    ///   - diagnostics: where warnings, notes, progress and traces go.
    ///   - clock: what every time of the client is read from: `timeout`,
    ///     waits, and the dates of the cache; tests pass one they drive.
    public init(
        configuration: Configuration = Configuration(), transport: (any HTTPTransport)? = nil,
        diagnostics: (any Diagnostics)? = nil, clock: some Clock<Duration> = ContinuousClock()
    ) {
        self.configuration = configuration
        let roots = configuration.roots.reduce(into: [APIRoot]()) { if !$0.contains($1) { $0.append($1) } }
        self.roots = roots.isEmpty ? APIRoot.publicServices : roots
        self.diagnostics = diagnostics ?? NoDiagnostics()
        self.transport = transport ?? URLSessionTransport(maxResponseSize: configuration.maxResponseSize)
        cache = configuration.cache.directory.map {
            ResponseCache(directory: $0, maxBodySize: configuration.maxResponseSize)
        }
        time = ClientTime(clock)
        memory = Memory(cache: cache)
    }

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
    private func answer<Value: Sendable>(_ body: (any SpeciesSource) async throws -> Value) async throws(SpeciesError)
        -> Answer<Value>
    {
        do {
            return try await firstWholeAnswer(body)
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

// MARK: The services in turn

extension SpeciesClient {
    /// What `body` makes of the first source that answers it whole, and
    /// which source that is (docs/swapi-dialects.md, "Which service
    /// answers"; docs/cli.md, "One answer, one source").
    ///
    /// The services are asked in turn: first the one that answered in this
    /// process, else the one the cache remembers while its record is fresh,
    /// then the rest in the list's order. Each is one attempt (`Attempt`),
    /// which is kept whole or dropped whole. One that gives no answer
    /// (`SpeciesError.meansUnanswered`), at its first request or part way,
    /// gives way to the next at once. Every request of the answer ends by
    /// one deadline, `timeout` from its start, and the services it leaves
    /// no time for are not asked; while others follow a service, its
    /// requests keep a minimum pace, and are not retried. When none
    /// answers: the cache of each, whatever its age; then, when one of them
    /// is SWAPI's own, the data built into SpeciesKit. Offline: the cache
    /// of each, then the built-in data, for any host. What stood in, or
    /// which service took over, is said once for the life of the client.
    private func firstWholeAnswer<Value: Sendable>(_ body: (any SpeciesSource) async throws -> Value) async throws
        -> Answer<Value>
    {
        let order = memory.order(roots, maxAge: configuration.cache.maxAge, now: time.now)
        if configuration.cache.mode == .offline {
            if let (answer, source) = await fromCache(order, body) { return Answer(try answer.get(), from: source) }
            note("offline: answering from the SWAPI data built into species (recorded \(BundledCatalog.recorded))")
            return Answer(try await body(builtIn(at: order[0])), from: .builtInData(recorded: BundledCatalog.recorded))
        }
        let deadline = Deadline(seconds: configuration.timeout, time: time)
        var failures: [ServiceFailure] = []
        for (index, root) in order.enumerated() {
            // The services the deadline leaves no time for are not asked.
            guard index == 0 || !deadline.hasPassed else { break }
            // While others follow it, a service keeps a pace and is not retried.
            let othersFollow = index < order.count - 1
            let attempt = Attempt(
                root, of: self,
                limits: RequestLimits(
                    deadline: deadline, minimumPace: othersFollow ? .followed : nil,
                    retries: othersFollow ? 0 : configuration.retries))
            do {
                let value = try await body(catalog(attempt))
                settle(attempt, after: failures)
                return Answer(value, from: .service(root))
            } catch let error as SpeciesError where error.meansUnanswered {
                let dropped = attempt.drop(from: name(of: root))
                failures.append(ServiceFailure(service: name(of: root), error: error, dropped: dropped))
                memory.gaveUp(on: root)
                diagnostics.trace("giving up on \(name(of: root)): \(error.cause)")
            } catch let error as SpeciesError {
                // An answer all the same, such as a 404 or a name that matches nothing.
                settle(attempt, after: failures)
                throw error
            }
        }
        guard configuration.fallback else {
            throw failures.count == 1 ? failures[0].error : SpeciesError.noServiceAnswered(failures)
        }
        let why = SpeciesError.describe(failures)
        if let (answer, source) = await fromCache(order, body), case .cache(let root, let fetched) = source {
            let age = TimeSpan.describe(time.now.timeIntervalSince(fetched))
            note(
                "\(why): answering from \(roots.count == 1 ? "the cache" : "the cache of \(name(of: root))"), as fetched \(age) ago"
            )
            return Answer(try answer.get(), from: source)
        }
        guard let swapi = order.first(where: { Dialect.ofPublicHost($0) != nil }) else {
            let cause = failures.count == 1 ? failures[0].error : SpeciesError.noServiceAnswered(failures)
            throw SpeciesError.unanswered(cause, host: failures.count == 1 ? failures[0].service : "any of them")
        }
        note("\(why): answering from the SWAPI data built into species (recorded \(BundledCatalog.recorded))")
        return Answer(try await body(builtIn(at: swapi)), from: .builtInData(recorded: BundledCatalog.recorded))
    }

    /// The answer of the first service's cache, whatever its age, that
    /// holds all of it (a value, or an error that answers, such as a name
    /// that matches nothing), from when the oldest of it was fetched.
    private func fromCache<Value>(_ order: [APIRoot], _ body: (any SpeciesSource) async throws -> Value) async
        -> (Result<Value, any Error>, AnswerSource)?
    {
        for root in order {
            let attempt = Attempt(root, of: self, limits: nil)
            let answer = await Result.capturing { try await body(catalog(attempt)) }
            if case .failure(let error as SpeciesError) = answer, error.meansUnanswered || error.isNotCached {
                _ = attempt.drop(from: "the cache of \(name(of: root))")
                continue
            }
            attempt.keep()
            return (answer, .cache(root, fetched: attempt.oldestFromCache ?? time.now))
        }
        return nil
    }

    private func catalog(_ attempt: Attempt) -> RemoteCatalog {
        RemoteCatalog(attempt: attempt, serial: configuration.serial)
    }

    private func builtIn(at root: APIRoot) -> BundledCatalog {
        BundledCatalog(root: root, dialect: memory.dialect(of: root) ?? Dialect.guess(for: root))
    }

    /// `attempt` answered: it is kept, its service asked first from now on
    /// and remembered for a list of several; when others gave way to it,
    /// and it is not the one remembered, that is said.
    private func settle(_ attempt: Attempt, after failures: [ServiceFailure]) {
        let (changed, remembered, record) = memory.answered(
            attempt.root, of: roots, maxAge: configuration.cache.maxAge, now: time.now)
        attempt.keep(answering: record)
        if changed, !failures.isEmpty, !remembered {
            note("\(SpeciesError.describe(failures)); answered by \(name(of: attempt.root))")
        }
    }

    /// `swapi.dev`: the host (and port) of the service, or, when another
    /// of the list has the same, its API root without the scheme.
    func name(of root: APIRoot) -> String {
        let authority = root.origin.authority
        guard roots.contains(where: { $0 != root && $0.origin.authority == authority }) else { return authority }
        return authority + root.path
    }

    /// Said once for the life of the client, whatever answered or stood in.
    private func note(_ message: String) {
        if memory.sayOnce() { diagnostics.note(message) }
    }

    /// What the client has learnt of its services in this process: which
    /// answered last, the dialect each spoke, and what the cache remembers
    /// of them, read once; and whether its one notice was said.
    final class Memory: Sendable {
        private struct State {
            var answering: APIRoot?
            var remembered: ResponseCache.Remembered??
            var dialects: [String: Dialect] = [:]
            var said = false
        }

        private let cache: ResponseCache?
        private let state = Mutex(State())

        init(cache: ResponseCache?) {
            self.cache = cache
        }

        /// The services in the order they are asked.
        func order(_ roots: [APIRoot], maxAge: Double, now: Date) -> [APIRoot] {
            let remembered = self.remembered(roots)
            let first =
                state.withLock { $0.answering }
                ?? remembered.flatMap { record in
                    CachePolicy.isFresh(record.confirmed, now: now, maxAge: maxAge)
                        ? roots.first { ResponseCache.name($0) == record.service } : nil
                }
            guard let first, let index = roots.firstIndex(of: first) else { return roots }
            return [first] + roots[..<index] + roots[(index + 1)...]
        }

        private func remembered(_ roots: [APIRoot]) -> ResponseCache.Remembered? {
            state.withLock { state in
                if let remembered = state.remembered { return remembered }
                let read = cache?.remembered(for: roots)
                state.remembered = .some(read)
                return read
            }
        }

        /// `root` answered: whether it had not in this process, whether it
        /// is the one remembered, and the record to write for a list of
        /// several: a new one when another was remembered, a confirmed one
        /// when the record was stale, none when it was fresh.
        func answered(_ root: APIRoot, of roots: [APIRoot], maxAge: Double, now: Date)
            -> (changed: Bool, remembered: Bool, record: (since: Date, roots: [APIRoot])?)
        {
            let before = remembered(roots)
            let name = ResponseCache.name(root)
            let changed = state.withLock { state in
                defer { state.answering = root }
                return state.answering != root
            }
            let same = before?.service == name
            guard changed, roots.count > 1, cache != nil,
                !same || !(before.map { CachePolicy.isFresh($0.confirmed, now: now, maxAge: maxAge) } ?? false)
            else { return (changed, same, nil) }
            let since = same ? before?.since ?? now : now
            state.withLock {
                $0.remembered = .some(ResponseCache.Remembered(service: name, since: since, confirmed: now))
            }
            return (changed, same, (since, roots))
        }

        func gaveUp(on root: APIRoot) {
            state.withLock { if $0.answering == root { $0.answering = nil } }
        }

        /// The dialect `root` answered in, in this process, or, unless
        /// `heardOnly`, as the cache remembers it.
        func dialect(of root: APIRoot, heardOnly: Bool = false) -> Dialect? {
            state.withLock { $0.dialects[ResponseCache.name(root)] } ?? (heardOnly ? nil : cache?.dialect(of: root))
        }

        /// Learns that `root` answered in `dialect`; whether the cache should
        /// remember it: when it changes what was remembered, or is not the
        /// one guessed.
        func learn(_ dialect: Dialect, of root: APIRoot) -> Bool {
            let remembered = self.dialect(of: root)
            state.withLock { $0.dialects[ResponseCache.name(root)] = dialect }
            return remembered != dialect && (remembered != nil || dialect != Dialect.guess(for: root))
        }

        /// Whether the notice is yet to be said; from now on, it is said.
        func sayOnce() -> Bool {
            state.withLock { state in
                defer { state.said = true }
                return !state.said
            }
        }
    }
}
