import Foundation
import Synchronization

extension SpeciesClient {
    /// What a source did, as the task that asks it says.
    private enum Outcome<Value: Sendable>: Sendable {
        case answered(Value)
        case failed(Fault)
        /// Its attempt delay ran out; `heard`, whether it had shown a sign of life.
        case delay(heard: Bool)
    }

    /// What `body` makes of the first source that answers it whole, and
    /// which source that is: the sources in the order `Remembering` and
    /// `AnswerPlan` say, each through one `Attempt`, all within one
    /// deadline; with a cache, under the question's lock, which runs that
    /// share the folder wait for (docs/cli.md, "One answer, one source").
    func firstWholeAnswer<Value: Sendable>(
        _ question: Question, _ body: @escaping @Sendable (any SpeciesCatalog) async throws(Fault) -> Value,
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
            services: memory.order(
                roots, named: question.named(among: roots), maxAge: configuration.cache.maxAge, now: now),
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
                } else if case .failed(_, let failure) = event, !failure.error.isAnswer {
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
        _ body: (any SpeciesCatalog) async throws(Fault) -> Value
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
        } catch  where error.isAnswer {
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
        -> (Attempt?, any SpeciesCatalog)
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
                            "\(root.origin.authority) answers in \(dialect.service) dialect (\(dialect.rawValue))"
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

        /// The services in the order they are asked (`Remembering.order`).
        func order(_ roots: [APIRoot], named: APIRoot?, maxAge: Double, now: Date) -> [APIRoot] {
            Remembering.order(
                roots, named: named, answering: state.withLock { $0.answering }, record: record(of: roots),
                maxAge: maxAge, now: now)
        }

        /// The cache's record of `roots`, read once.
        private func record(of roots: [APIRoot]) -> Remembering.Record? {
            let remembered = state.withLock { state in
                if let remembered = state.remembered { return remembered }
                let read = cache?.remembered(for: roots)
                state.remembered = .some(read)
                return read
            }
            return remembered.map { record in
                Remembering.Record(
                    root: roots.first { ResponseCache.name($0) == record.service }, since: record.since,
                    confirmed: record.confirmed)
            }
        }

        /// `root` answered: whether it had not in this process, whether it
        /// is the one remembered, and the record to write
        /// (`Remembering.since`).
        func answered(_ root: APIRoot, of roots: [APIRoot], maxAge: Double, now: Date)
            -> (changed: Bool, remembered: Bool, record: (since: Date, roots: [APIRoot])?)
        {
            let before = record(of: roots)
            let changed = state.withLock { state in
                defer { state.answering = root }
                return state.answering != root
            }
            let same = before?.root == root
            guard changed,
                let since = Remembering.since(
                    root, answeredFirstOf: roots, record: before, hasCache: cache != nil, maxAge: maxAge, now: now)
            else { return (changed, same, nil) }
            state.withLock {
                $0.remembered = .some(
                    ResponseCache.Remembered(service: ResponseCache.name(root), since: since, confirmed: now))
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
            return (heard != dialect, Remembering.remembers(dialect, remembered: remembered, guess: .guess(for: root)))
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
