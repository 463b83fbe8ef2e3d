import Foundation

extension SpeciesClient {
    /// What a source did, as the task that asks it says.
    private enum Outcome<Value: Sendable>: Sendable {
        case answered(Value)
        case failed(Fault)
        /// Its attempt delay ran out; `heard`, whether it had shown a sign of life.
        case delay(heard: Bool)
    }

    /// What `body` makes of the first source that answers it whole, and
    /// which source that is (docs/cli.md, "One answer, one source"): the
    /// first service's fresh cache alone, as the plan's prelude says; else,
    /// holding the question's lock, which runs that share the folder take in
    /// turn, the sources in the order the memory and the plan say, each
    /// through one `Attempt`, all within one deadline.
    func firstWholeAnswer<Value: Sendable>(
        _ question: Question, mode: CachePolicy.Mode, flight: UInt64,
        _ body: @escaping @Sendable (any SpeciesCatalog) async throws(Fault) -> Value,
        isolation: isolated (any Actor)? = #isolation
    ) async throws(Fault) -> SharedAnswer {
        let deadline = Deadline(seconds: configuration.timeout, time: time)
        if shared.memory.record == nil {
            shared.handle(
                .recordRead(
                    cache?.remembered(for: roots).map { record in
                        Memory.Record(
                            root: roots.first { $0.key == record.service }, since: record.since,
                            confirmed: record.confirmed)
                    }))
        }
        let order = shared.memory.order(roots, named: question.named(among: roots), now: time.now)
        let prelude = AnswerPlan.prelude(first: order.first, mode: mode, hasCache: cache != nil)
        if let root = prelude.fresh, let fresh = try await fresh(root, deadline, body) { return fresh }
        let (lock, waited) = prelude.locks ? await hold(question, flight, until: deadline) : (nil, nil)
        defer { withExtendedLifetime(lock) {} }
        var down: [String: Date] = [:]
        for case .down(let found) in shared.handle(.outagesRead(cache?.outages(of: roots))) { down = found }
        var plan = AnswerPlan(
            question, services: order, mode: mode, fallback: configuration.fallback, hasCache: cache != nil, down: down,
            waited: waited, timeout: configuration.timeout, now: time.now)
        let result = await withTaskGroup(of: (Int, Outcome<Value>).self, isolation: isolation) {
            group -> Result<SharedAnswer, Fault> in
            var attempts: [Int: Attempt] = [:]
            var values: [Int: Value] = [:]
            var step = plan.start(deadlinePassed: deadline.hasPassed)
            func ask(_ indices: [Int], readsCache: Bool) {
                for index in indices {
                    let (attempt, catalog) = self.catalog(
                        of: plan.sources[index], mode: mode, deadline, readsCache: readsCache)
                    attempts[index] = attempt
                    let asking: @Sendable () async -> (Int, Outcome<Value>) = {
                        do throws(Fault) { return (index, .answered(try await body(catalog))) } catch {
                            return (index, .failed(Task.isCancelled ? .cancelled : error))
                        }
                    }
                    // It runs here until it waits: an answer of the cache
                    // alone needs no thread, nor an attempt delay.
                    if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
                        group.addImmediateTask {
                            _ = isolation;
                            return await asking()
                        }
                    } else {
                        group.addTask { await asking() }
                    }
                    if let attempt, plan.staggers(index), limits.stagger.isFinite {
                        group.addTask { [stagger = limits.stagger] in
                            try? await deadline.sleep(stagger)
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
                    let source = settle(attempts[index], taking: index, of: plan)
                    let fetched = attempts[index]?.oldestFromCache ?? time.now
                    return .success(
                        SharedAnswer(value: value, source: source, fetched: fetched, bytes: attempts[index]?.bytes ?? 0)
                    )
                case .answer(let index, let error):
                    group.cancelAll()
                    _ = settle(attempts[index], taking: index, of: plan)
                    return .failure(error)
                case .fail(let error):
                    group.cancelAll()
                    return .failure(error)
                }
                guard let (index, outcome) = await group.next(isolation: isolation) else { return .failure(.cancelled) }
                let event: AnswerPlan.Event
                switch outcome {
                case .delay(let heard): event = .stagger(index, heard: heard)
                case .answered(let value):
                    values[index] = value
                    event = .answered(index)
                case .failed(let error):
                    let attempt = attempts[index]
                    let service =
                        if case .service(let root, _, _) = plan.sources[index] { root.name(among: roots) } else { "" }
                    event = .failed(
                        index,
                        ServiceFailure(
                            service: service, error: error, dropped: attempt?.sent ?? "", heard: attempt?.heard ?? true,
                            cached: attempt?.oldestFromCache != nil, quiet: attempt?.quiet ?? 0))
                }
                step = plan.next(after: event, deadlinePassed: deadline.hasPassed)
                if case .again = step, case .failed(_, let failure) = event {
                    diagnostics.trace { "asking \(failure.service) again, its cache unread: with it, \(failure.error)" }
                } else if case .failed(_, let failure) = event, case .service(let root, _, _) = plan.sources[index] {
                    if plan.gaveWay(index) {
                        drop(attempts.removeValue(forKey: index), of: plan.sources[index])
                        diagnostics.trace { "giving up on \(failure.service): \(failure.error.cause)" }
                    }
                    perform(shared.handle(.failed(root, failure, silence: limits.silence, now: time.now)))
                }
            }
        }
        return try result.get()
    }

    /// The answer of the first service's fresh cache alone, with no request:
    /// nil when the cache cannot answer whole, and the services are asked.
    private func fresh<Value: Sendable>(
        _ root: APIRoot, _ deadline: Deadline, _ body: (any SpeciesCatalog) async throws(Fault) -> Value
    ) async throws(Fault) -> SharedAnswer? {
        let attempt = Attempt(
            root, limits: RequestLimits(deadline: deadline), dialect: dialect(of: root), mode: .normal,
            fetching: fetching, network: false)
        let value: Value
        do {
            value = try await body(
                RemoteCatalog(attempt: attempt, serial: configuration.serial, diagnostics: diagnostics))
        } catch  where error.isAnswer {
            _ = settle(attempt, taking: nil, of: nil)
            throw error
        } catch { return nil }
        return SharedAnswer(
            value: value, source: settle(attempt, taking: nil, of: nil), fetched: attempt.oldestFromCache ?? time.now,
            bytes: attempt.bytes)
    }

    /// The lock of `question` for the services of this client, as the
    /// memory says: taken, or waited for while another run holds it, until
    /// the deadline; and how long it was waited for in vain.
    private func hold(_ question: Question, _ flight: UInt64, until deadline: Deadline) async -> (
        ResponseCache.Lock?, Double?
    ) {
        guard let cache else { return (nil, nil) }
        let key = "lock " + roots.map(\.key).joined(separator: " ") + " " + question.description
        while true {
            let (lock, state) = cache.lock(key)
            let actions = shared.handle(.lock(flight: flight, state, clockRanOut: deadline.hasPassed, now: time.now))
            perform(actions)
            for action in actions {
                switch action {
                case .proceed(let waited): return (lock, waited)
                case .retryLock(let seconds):
                    guard (try? await deadline.sleep(seconds)) != nil else { return (nil, nil) }
                default: continue
                }
            }
        }
    }

    /// Does what the memory says to the cache folder and the diagnostics.
    private func perform(_ actions: [Memory.Action]) {
        do throws(ResponseCache.Failure) {
            for action in actions {
                switch action {
                case .recordOutage(let service, let date): try cache?.recordOutage(of: service, at: date)
                case .clearOutage(let service): cache?.forgetOutage(of: service)
                case .rememberService(let root, let since, let roots):
                    try cache?.remember(root, answering: roots, since: since, at: time.now)
                case .rememberDialect(let root, let dialect): try cache?.remember(dialect, of: root, at: time.now)
                case .note(let text): diagnostics.note(text)
                case .trace(let text): diagnostics.trace { text }
                default: continue
                }
            }
        } catch { diagnostics.warning("cannot write the cache in \(error.path): \(error.reason)") }
    }

    /// What answers for `source`: a service or its cache, through an
    /// attempt, or the built-in data.
    private func catalog(of source: AnswerPlan.Source, mode: CachePolicy.Mode, _ deadline: Deadline, readsCache: Bool)
        -> (Attempt?, any SpeciesCatalog)
    {
        let attempt: Attempt
        switch source {
        case .service(let root, let followed, let retries):
            let limits = RequestLimits(
                deadline: deadline, minimumPace: followed ? limits.pace : nil,
                retries: retries ? configuration.retries : 0)
            attempt = Attempt(
                root, limits: limits, dialect: dialect(of: root), mode: mode, fetching: fetching, readsCache: readsCache
            )
        case .cache(let root):
            attempt = Attempt(root, limits: nil, dialect: dialect(of: root), mode: mode, fetching: fetching)
        case .builtInData(let root): return (nil, BundledCatalog(root: root, dialect: dialect(of: root)))
        }
        return (attempt, RemoteCatalog(attempt: attempt, serial: configuration.serial, diagnostics: diagnostics))
    }

    /// A source asked beside the one that answered is dropped.
    private func drop(_ attempt: Attempt?, of source: AnswerPlan.Source) {
        guard case .service(let root, _, _) = source else { return }
        attempt?.drop(from: root.name(among: roots))
    }

    private func dialect(of root: APIRoot) -> Dialect {
        shared.memory.dialect(of: root, recorded: cache?.dialect(of: root))
    }

    /// The source of `plan` at `index` answered (nil: the first service's
    /// fresh cache): its attempt is kept, the memory learns of a service's
    /// answer, and the plan's notice is said, once a client.
    private func settle(_ attempt: Attempt?, taking index: Int?, of plan: AnswerPlan?) -> AnswerSource {
        let dialect = attempt?.keep()
        let fetched = attempt?.oldestFromCache ?? time.now
        let source =
            index.map { plan?.sources[$0] } ?? attempt.map { .service($0.root, followed: false, retries: false) }
        var new = false
        let answered: AnswerSource
        switch source {
        case .service(let root, _, _)?:
            new = shared.memory.isNew(root)
            perform(
                shared.handle(
                    .answered(
                        root, of: roots, dialect: dialect, recorded: cache?.dialect(of: root),
                        heard: attempt?.reached ?? false, now: time.now)))
            answered = .service(root)
        case .cache(let root)?: answered = .cache(root, fetched: fetched)
        default: answered = .builtInData(recorded: BundledCatalog.recorded)
        }
        if let index, let notice = plan?.notice(for: index, new: new, fetched: fetched, now: time.now) {
            perform(shared.handle(.noticed(notice)))
        }
        return answered
    }
}
