import Foundation
import Synchronization

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
        /// empty list means SWAPI's public services, ``APIRoot/publicServices``.
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
        /// age, and for SWAPI's public services from the SWAPI data built in.
        public var fallback: Bool
        /// The `User-Agent` of every request of the default transport.
        public var userAgent: String

        /// A quarter of a second, RFC 8305's: the default of `attemptDelay`.
        public static let defaultAttemptDelay = 0.25

        /// SWAPI's public services, a 15-second timeout, three retries and
        /// no cache.
        public init(
            roots: [APIRoot] = APIRoot.publicServices, timeout: Double = defaultTimeout, retries: Int = defaultRetries,
            maxResponseSize: Int = defaultMaxResponseSize, serial: Bool = false,
            attemptDelay: Double = defaultAttemptDelay, cache: CachePolicy = CachePolicy(directory: nil),
            fallback: Bool = true, userAgent: String = "SpeciesKit/\(SpeciesRelease.version)"
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
    let memory: Memory
    /// The answers its callers share.
    let shared = SharedAnswers()

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
        self.roots = roots.isEmpty ? APIRoot.publicServices : roots
        let diagnostics = diagnostics ?? NoDiagnostics()
        self.diagnostics = diagnostics
        let size = max(1, configuration.maxResponseSize)
        let cache = configuration.cache.directory.map { ResponseCache(directory: $0, maxBodySize: size) }
        self.cache = cache
        fetching = Fetching(
            transport: transport ?? URLSessionTransport(maxResponseSize: size, userAgent: configuration.userAgent),
            cache: cache, policy: configuration.cache, maxResponseSize: size, time: ClientTime(clock),
            diagnostics: diagnostics, jitter: { Double.random(in: 0..<1) })
        memory = Memory(cache: cache)
    }

    private var time: ClientTime { fetching.time }

    /// Page `number`, from 1, of the species, or of those whose name
    /// matches `search`: every word of it is part of the name, ignoring case.
    /// - Throws: a `nothingMatched` error past the last page, which says how
    ///   many there are; a `badQuestion` one for a page below 1 or a search
    ///   without a word; or why no source could answer.
    public func page(_ number: Int = 1, search: String? = nil) async throws(SpeciesError) -> Answer<SpeciesPage> {
        try await answer(.page(number, search: search), checking: Self.check(page: number), Self.check(search: search))
        { source throws(Fault) in
            try await source.page(number, search: search)
        }
    }

    /// Every species, or every one whose name matches `search`, in API
    /// order, all from one source. With a `limit`, from 0, the first `limit`
    /// of them, and only as many pages are fetched as hold them.
    /// - Throws: a `badQuestion` error for a limit below 0 or a search
    ///   without a word; or why no source could answer.
    public func allSpecies(search: String? = nil, limit: Int? = nil) async throws(SpeciesError)
        -> Answer<[StarWarsSpecies]>
    {
        let limitProblem: Fault? = limit.flatMap {
            $0 < 0 ? .badQuestion("a limit must be 0 or more, not \($0)", setting: nil) : nil
        }
        var answer = try await answer(
            .species(search: search, limit: limit), checking: limitProblem, Self.check(search: search)
        ) { source throws(Fault) in
            try await source.species(matching: search, limit: limit)
        }
        if let limit { answer.value = Array(answer.value.prefix(limit)) }
        return answer
    }

    /// The species `query` designates.
    /// - Throws: a `nothingMatched` error when there is none; a
    ///   `badQuestion` one, before any request, for an id below 1, a blank or
    ///   overlong name, or a URL that is no species of the client's
    ///   services; or why no source could answer.
    public func species(_ query: SpeciesQuery) async throws(SpeciesError) -> Answer<StarWarsSpecies> {
        let resolved: SpeciesQuery
        do throws(Fault) {
            resolved = try query.checked(roots: roots)
        } catch {
            throw SpeciesError(error)
        }
        return try await answer(.one(resolved)) { source throws(Fault) in try await Self.species(resolved, in: source) }
    }

    /// The species `query` designates, and the names behind its links, all
    /// from one source.
    /// - Throws: as ``species(_:)`` does.
    public func speciesAndRelated(_ query: SpeciesQuery) async throws(SpeciesError) -> Answer<
        (species: StarWarsSpecies, related: RelatedResources)
    > {
        let resolved: SpeciesQuery
        do throws(Fault) {
            resolved = try query.checked(roots: roots)
        } catch {
            throw SpeciesError(error)
        }
        return try await answer(.related(resolved)) { source throws(Fault) in
            let species = try await Self.species(resolved, in: source)
            return (species, try await related(of: species, in: source))
        }
    }

    /// The answer `body` makes of `question`, once the configuration and
    /// `problems` (of the question) say it may be asked: the one kept, the
    /// one being fetched for another caller, or a new one (`SharedAnswers`).
    private func answer<Value: Sendable>(
        _ question: Question, checking problems: Fault?...,
        body: @escaping @Sendable (any SpeciesSource) async throws(Fault) -> Value
    ) async throws(SpeciesError) -> Answer<Value> {
        if let problem = configuration.problem() ?? problems.lazy.compactMap({ $0 }).first {
            throw SpeciesError(problem)
        }
        // A refresh revalidates what it uses, and offline no service answers.
        let keeps = configuration.cache.mode == .normal ? configuration.cache.maxAge : nil
        let shared = await shared.answer(to: question, maxAge: keeps, now: { [time] in time.now }) { isolation in
            do throws(Fault) {
                return .success(try await firstWholeAnswer(question, body, isolation: isolation))
            } catch {
                return .failure(error)
            }
        }
        switch shared {
        case .success(let answer):
            guard let value = answer.value as? Value else { throw SpeciesError(.cancelled) }
            return Answer(value, from: answer.source)
        case .failure(let error): throw SpeciesError(error)
        }
    }

    static func check(page number: Int) -> Fault? {
        number < 1 ? .badQuestion("pages are numbered from 1, not \(number)", setting: nil) : nil
    }

    /// A search holds a word, and is not longer than a name could be.
    static func check(search: String?) -> Fault? {
        guard let search else { return nil }
        if SearchTerms(search).terms.isEmpty {
            return .badQuestion("the search '\(Excerpt.of(search))' holds no word", setting: nil)
        }
        if search.count > maxNameLength {
            return .badQuestion("a search is at most \(maxNameLength) characters, not \(search.count)", setting: nil)
        }
        return nil
    }

    /// An id or a URL is asked for; a name is matched: an exact name
    /// (ignoring case) wins; else the single species whose name matches
    /// every word of `name` (as a search does); else an ambiguous name, or
    /// no such name with the closest names. The API's search comes first,
    /// usually one request; only when it finds nothing is every species
    /// read, for the suggestions.
    private static func species(_ query: SpeciesQuery, in source: any SpeciesSource) async throws(Fault)
        -> StarWarsSpecies
    {
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
            throw NameMatcher.miss(name, searchedAt: source.searchURL(name), listing: everyone)
        }
    }
}

// MARK: The services in turn

extension SpeciesClient {
    /// What a source did, as the task that asks it says.
    private enum Outcome<Value: Sendable>: Sendable {
        case answered(Value)
        case failed(Fault)
        /// Its attempt delay ran out; `heard`, whether it had shown a sign of life.
        case delay(heard: Bool)
    }

    /// What `body` makes of the first source that answers it whole, and
    /// which source that is (docs/swapi-dialects.md, "Which service
    /// answers"; docs/cli.md, "One answer, one source"), as `AnswerPlan`
    /// lists them and says what follows each thing a source does.
    ///
    /// The services are asked first the one that answered in this process,
    /// else the one the cache remembers while its record is fresh, then the
    /// rest in the list's order, each beside the one before once that one
    /// has gone the attempt delay without a sign of life; not at all while
    /// they are down (`Outage`). Each source is one attempt (`Attempt`),
    /// kept whole or dropped whole. Every request of the answer ends by one
    /// deadline, `timeout` from its start. Runs that share a cache folder
    /// ask the services one at a time for one question: the others wait for
    /// its lock (`ResponseCache.lock`), then find its answer in the cache.
    /// What stood in, or which service took over, is said once for the
    /// life of the client.
    private func firstWholeAnswer<Value: Sendable>(
        _ question: Question, _ body: @escaping @Sendable (any SpeciesSource) async throws(Fault) -> Value,
        isolation: isolated (any Actor)? = #isolation
    ) async throws(Fault) -> SharedAnswer {
        let now = time.now
        // A refresh asks the services, and offline asks none.
        let recent = configuration.cache.mode == .normal ? memory.outage(of: roots) : nil
        let down = recent.flatMap { since in
            Outage.isRecent(since, now: now)
                ? Outage(services: Phrase.alternatives(roots.map(name), conjunction: "and"), since: since, now: now)
                : nil
        }
        var plan = AnswerPlan(
            services: question.first(of: memory.order(roots, maxAge: configuration.cache.maxAge, now: now)),
            mode: configuration.cache.mode, fallback: configuration.fallback, hasCache: cache != nil, outage: down)
        let deadline = Deadline(seconds: configuration.timeout, time: time)
        if let fresh = try await fresh(plan.sources.first, deadline, body) { return fresh }
        let lock =
            plan.sources.contains { if case .service = $0 { true } else { false } }
            ? await hold(question, until: deadline) : nil
        defer { withExtendedLifetime(lock) {} }
        let result = await withTaskGroup(of: (Int, Outcome<Value>).self, isolation: isolation) {
            group -> Result<SharedAnswer, Fault> in
            var attempts: [Int: Attempt] = [:]
            var values: [Int: Value] = [:]
            var step = plan.start(deadlinePassed: deadline.hasPassed)
            func ask(_ indices: [Int], readsCache: Bool) {
                for index in indices {
                    let (attempt, catalog) = self.catalog(of: plan.sources[index], deadline, readsCache: readsCache)
                    attempts[index] = attempt
                    // It runs here until it waits: an answer of the cache
                    // alone needs no thread, nor an attempt delay.
                    group.addImmediateTask {
                        _ = isolation
                        do throws(Fault) {
                            return (index, .answered(try await body(catalog)))
                        } catch {
                            return (index, .failed(Task.isCancelled ? .cancelled : error))
                        }
                    }
                    if let attempt, !attempt.heard, plan.staggers(index), configuration.attemptDelay.isFinite {
                        group.addTask { [delay = configuration.attemptDelay] in
                            try? await deadline.sleep(delay)
                            return (index, .delay(heard: attempt.heard))
                        }
                    }
                }
            }
            while true {
                switch step {
                case .ask(let indices): ask(indices, readsCache: true)
                case .again(let index): ask([index], readsCache: false)
                case .wait: break
                case .take(let index):
                    group.cancelAll()
                    for (other, attempt) in attempts where other != index { drop(attempt, of: plan.sources[other]) }
                    guard let value = values[index] else { return .failure(.cancelled) }
                    let source = settle(attempts[index], of: plan.sources[index], after: plan.failures, down: down)
                    let fetched = attempts[index]?.oldestFromCache ?? time.now
                    return .success(
                        SharedAnswer(value: value, source: source, fetched: fetched, bytes: attempts[index]?.bytes ?? 0)
                    )
                case .answer(let index, let error):
                    group.cancelAll()
                    _ = settle(attempts[index], of: plan.sources[index], after: plan.failures, down: down)
                    return .failure(error)
                case .fail(let error):
                    group.cancelAll()
                    return .failure(error)
                }
                guard let (index, outcome) = await group.next(isolation: isolation) else { return .failure(.cancelled) }
                let event: AnswerPlan.Event
                switch outcome {
                case .delay(heard: true):
                    step = .wait
                    continue
                case .delay(heard: false):
                    event = .quiet(index)
                case .answered(let value):
                    values[index] = value
                    event = .answered(index)
                case .failed(let error):
                    let attempt = attempts[index]
                    let service = if case .service(let root, _, _) = plan.sources[index] { name(of: root) } else { "" }
                    event = .failed(
                        index,
                        ServiceFailure(
                            service: service, error: error, dropped: attempt?.sent ?? "", heard: attempt?.heard ?? true,
                            cached: attempt?.oldestFromCache != nil))
                }
                step = plan.next(after: event, deadlinePassed: deadline.hasPassed)
                if case .again = step, case .failed(_, let failure) = event {
                    diagnostics.trace { "asking \(failure.service) again, its cache unread: with it, \(failure.error)" }
                } else if case .failed(_, let failure) = event, failure.error.kind != .nothingMatched {
                    drop(attempts.removeValue(forKey: index), of: plan.sources[index])
                    if case .service(let root, _, _) = plan.sources[index] { gaveUp(on: root, because: failure.error) }
                }
            }
        }
        if plan.foundOutage { memory.recordOutage(of: roots, at: time.now) }
        return try result.get()
    }

    /// The answer of the first service's fresh cache alone, with no request:
    /// such an answer needs no lock, no stagger and no thread. Nil when the
    /// cache cannot answer whole, and the services are asked.
    private func fresh<Value: Sendable>(
        _ source: AnswerPlan.Source?, _ deadline: Deadline,
        _ body: (any SpeciesSource) async throws(Fault) -> Value
    ) async throws(Fault) -> SharedAnswer? {
        guard cache != nil, configuration.cache.mode == .normal, let source, case .service(let root, _, _) = source
        else { return nil }
        let attempt = Attempt(
            root, limits: RequestLimits(deadline: deadline), dialect: dialect(of: root), fetching: fetching,
            network: false)
        let value: Value
        do {
            value = try await body(
                RemoteCatalog(attempt: attempt, serial: configuration.serial, diagnostics: diagnostics))
        } catch  where error.kind == .nothingMatched {
            _ = settle(attempt, of: source, after: [], down: nil)
            throw error
        } catch {
            return nil
        }
        let answered = settle(attempt, of: source, after: [], down: nil)
        return SharedAnswer(
            value: value, source: answered, fetched: attempt.oldestFromCache ?? time.now, bytes: attempt.bytes)
    }

    /// The lock of `question` for the services of this client, when it has
    /// a cache: held by this run while it asks them, or, while another run
    /// holds it, waited for until `deadline`; then whatever that run wrote
    /// in the cache answers.
    private func hold(_ question: Question, until deadline: Deadline) async -> ResponseCache.Lock? {
        guard let cache else { return nil }
        let key = "lock " + roots.map(ResponseCache.name).joined(separator: " ") + " " + question.description
        var waited = false
        while true {
            if let lock = cache.lock(key) {
                if waited { diagnostics.trace { "another run asked the same: its answer is in the cache" } }
                return lock
            }
            if !waited { diagnostics.trace { "waiting for another run that asks the same" } }
            waited = true
            guard !deadline.hasPassed, (try? await deadline.sleep(Self.lockPoll)) != nil else { return nil }
        }
    }

    /// How often a run waiting for another's lock looks again.
    private static let lockPoll = 0.02

    /// What answers for `source`: a service or its cache, through an
    /// attempt, or the built-in data.
    private func catalog(of source: AnswerPlan.Source, _ deadline: Deadline, readsCache: Bool = true)
        -> (Attempt?, any SpeciesSource)
    {
        let attempt: Attempt
        switch source {
        case .service(let root, let followed, let retries):
            let limits = RequestLimits(
                deadline: deadline, minimumPace: followed ? .followed : nil,
                retries: retries ? configuration.retries : 0)
            attempt = Attempt(
                root, limits: limits, dialect: dialect(of: root), fetching: fetching, readsCache: readsCache)
        case .cache(let root):
            attempt = Attempt(root, limits: nil, dialect: dialect(of: root), fetching: fetching)
        case .builtInData(let root):
            return (nil, BundledCatalog(root: root, dialect: dialect(of: root)))
        }
        return (attempt, RemoteCatalog(attempt: attempt, serial: configuration.serial, diagnostics: diagnostics))
    }

    /// A source asked beside the one that answered is dropped.
    private func drop(_ attempt: Attempt?, of source: AnswerPlan.Source) {
        guard case .service(let root, _, _) = source else { return }
        attempt?.drop(from: name(of: root))
    }

    private func gaveUp(on root: APIRoot, because error: Fault) {
        memory.gaveUp(on: root)
        diagnostics.trace { "giving up on \(name(of: root)): \(error.cause)" }
    }

    /// The dialect `root` is asked in: as it last answered, else its host's.
    private func dialect(of root: APIRoot) -> Dialect {
        memory.dialect(of: root) ?? Dialect.guess(for: root)
    }

    /// `source` answered: its attempt is kept; a service is asked first from
    /// now on and remembered for a list of several, with the dialect it
    /// spoke, and any record of an outage goes; and what took over, or
    /// stood in, is said once: why, from `failures`, or that the services
    /// were `down` at a time and are not asked.
    private func settle(
        _ attempt: Attempt?, of source: AnswerPlan.Source, after failures: [ServiceFailure], down: Outage?
    ) -> AnswerSource {
        let dialect = attempt?.keep()
        let why = down?.what ?? Fault.describe(failures)
        let asked = down?.when ?? ""
        switch source {
        case .service(let root, _, _):
            memory.forgetOutage(of: roots)
            let (changed, remembered, record) = memory.answered(
                root, of: roots, maxAge: configuration.cache.maxAge, now: time.now)
            do throws(ResponseCache.Failure) {
                if let dialect {
                    let (heard, remember) = memory.learn(dialect, of: root)
                    if heard {
                        diagnostics.trace {
                            "\(root.origin.authority) answers in \(dialect.service) form (\(dialect.rawValue))"
                        }
                    }
                    if remember { try cache?.remember(dialect, of: root, at: time.now) }
                }
                if let record { try cache?.remember(root, answering: record.roots, since: record.since, at: time.now) }
            } catch {
                diagnostics.warning("cannot write the cache in \(error.path): \(error.reason)")
            }
            if changed, !failures.isEmpty, !remembered { note("\(why); answered by \(name(of: root))") }
            return .service(root)
        case .cache(let root):
            let fetched = attempt?.oldestFromCache ?? time.now
            if !failures.isEmpty || down != nil {
                let age = TimeSpan.describe(time.now.timeIntervalSince(fetched))
                let cache = roots.count == 1 ? "the cache" : "the cache of \(name(of: root))"
                note("\(why): answering from \(cache), as fetched \(age) ago\(asked)")
            }
            return .cache(root, fetched: fetched)
        case .builtInData:
            let recorded = BundledCatalog.recorded
            let why = failures.isEmpty && down == nil ? "offline" : why
            note("\(why): answering from the SWAPI data built in (recorded \(recorded))\(asked)")
            return .builtInData(recorded: recorded)
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
            /// When the services last failed without a sign of life, as the
            /// cache recorded it, read once; `.some(nil)` for never.
            var outage: Date??
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

        /// When every service of `roots` last failed without a sign of life.
        func outage(of roots: [APIRoot]) -> Date? {
            state.withLock { state in
                if let outage = state.outage { return outage }
                let read = cache?.outage(of: roots)
                state.outage = .some(read)
                return read
            }
        }

        /// Every service of `roots` failed without a sign of life `now`.
        func recordOutage(of roots: [APIRoot], at now: Date) {
            state.withLock { $0.outage = .some(now) }
            try? cache?.recordOutage(of: roots, at: now)
        }

        /// A service of `roots` answered: no outage is remembered.
        func forgetOutage(of roots: [APIRoot]) {
            let recorded = state.withLock { state in
                defer { state.outage = .some(nil) }
                return state.outage != .some(nil)
            }
            if recorded { cache?.forgetOutage(of: roots) }
        }

        func gaveUp(on root: APIRoot) {
            state.withLock { if $0.answering == root { $0.answering = nil } }
        }

        /// The dialect `root` answered in, in this process, or as the cache
        /// remembers it.
        func dialect(of root: APIRoot) -> Dialect? {
            state.withLock { $0.dialects[ResponseCache.name(root)] } ?? cache?.dialect(of: root)
        }

        /// Learns that `root` answered in `dialect`: whether this process
        /// had not heard it, and whether the cache should remember it: when
        /// it changes what was remembered, or is not the one guessed.
        func learn(_ dialect: Dialect, of root: APIRoot) -> (heard: Bool, remember: Bool) {
            let key = ResponseCache.name(root)
            let heard = state.withLock { state in
                defer { state.dialects[key] = dialect }
                return state.dialects[key]
            }
            let remembered = heard ?? cache?.dialect(of: root)
            return (
                heard != dialect, remembered != dialect && (remembered != nil || dialect != Dialect.guess(for: root))
            )
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
