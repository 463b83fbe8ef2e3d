import Foundation

/// What a client shares among its callers and remembers between answers
/// (docs/cli.md, "What is remembered"; the DocC article "Callers share
/// answers"), as one state machine: a pure value, fed events, that says what
/// to do. It holds the fetches under way and who waits for each, the answers
/// kept, the lock a fetch waits for in the cache folder, and what was seen of
/// each service: that it was down, the dialect it spoke, that it answered.
/// `SharedAnswers` and `SpeciesClient+Services.swift` perform its actions,
/// as AsyncHTTPClient's connection pool performs its state machine's.
///
/// A record says only what was seen: a service is down when it was silent
/// or refused for the whole time a service is given (`TimeLimits.silence`),
/// never because a run's own clock ran out first, and any answer of it ends
/// the record.
struct Memory: Sendable {
    enum Event: Sendable, Equatable {
        /// A caller asks: answers of a service are kept for `lifetime`
        /// seconds (0: none is kept or read).
        case asked(caller: UInt64, Question, mode: CachePolicy.Mode, lifetime: Double, now: Date)
        /// The caller's task was cancelled.
        case cancelled(caller: UInt64)
        /// The fetch ended.
        case landed(flight: UInt64, Result<SharedAnswer, Fault>)
        /// The caller's app drops what is kept (`SpeciesClient.invalidate()`).
        case invalidated
        /// What trying the question's lock found, and whether the fetch's
        /// clock has run out.
        case lock(flight: UInt64, LockState, clockRanOut: Bool, now: Date)
        /// When each service was last found down, as the cache folder's
        /// records say (nil: there is no cache folder), read once the lock is
        /// held, so that runs that waited see what the run before them saw.
        case outagesRead([String: Date]?)
        /// A service asked for an answer failed.
        case failed(APIRoot, ServiceFailure, silence: Double, now: Date)
        /// A service of `roots` answered, in `dialect`; `heard`, when any of
        /// it came from the network (not only from its fresh cache);
        /// `recorded`, the dialect the cache folder remembers of it.
        case answered(APIRoot, of: [APIRoot], dialect: Dialect?, recorded: Dialect?, heard: Bool, now: Date)
        /// The cache folder's record of which service answers the list,
        /// read once (nil: none, or no cache folder).
        case recordRead(Record?)
        /// A notice of where an answer came from: said once a client.
        case noticed(String)
    }

    /// What the cache folder says of a list of services: which answered,
    /// since when, and when that was last confirmed.
    struct Record: Equatable, Sendable {
        var root: APIRoot?
        var since: Date
        var confirmed: Date
    }

    enum LockState: Sendable, Equatable {
        /// This fetch holds the lock.
        case taken
        /// Another run holds it.
        case held
        /// The file locked was replaced or removed by its holder meanwhile.
        case stale
    }

    enum Action: Sendable, Equatable {
        /// These callers get this result.
        case give([UInt64], Result<SharedAnswer, Fault>)
        /// Fetch the question in this mode, as this flight, a task of its own.
        case start(flight: UInt64, Question, CachePolicy.Mode)
        /// Cancel the flight's task.
        case stop(flight: UInt64)
        /// Try the lock again after this many seconds.
        case retryLock(after: Double)
        /// The lock is the fetch's, or its clock ran out while another run
        /// held it `waited` seconds: read the records of outages, and go on.
        case proceed(waited: Double?)
        /// The services found down, as far as the records say, and when.
        case down([String: Date])
        case recordOutage(String, at: Date)
        case clearOutage(String)
        /// Write that this service answers the list, since then.
        case rememberService(APIRoot, since: Date, roots: [APIRoot])
        case rememberDialect(APIRoot, Dialect)
        case note(String)
        case trace(String)
    }

    private struct Flight: Sendable {
        let question: Question
        let mode: CachePolicy.Mode
        var callers: Set<UInt64>
        /// Whether its answer is kept when it lands, for this many seconds.
        var lifetime: Double
        /// Since when it waits for another run's lock.
        var waiting: Date?
    }

    private struct Key: Hashable {
        let question: Question
        let mode: CachePolicy.Mode
    }

    private var flights: [UInt64: Flight] = [:]
    private var under: [Key: UInt64] = [:]
    private var kept = KeptAnswers()
    private var lastFlight: UInt64 = 0
    /// When each service was last found down, by its cache name.
    private var outages: [String: Date] = [:]
    /// The service that answered last in this process.
    private var answering: APIRoot?
    /// The cache folder's record, once read.
    private(set) var record: Record??
    private var dialects: [String: Dialect] = [:]
    private var said = false
    /// How long a record of which service answers stays fresh (the cache's `maxAge`).
    let maxAge: Double
    let hasCache: Bool

    init(maxAge: Double = CachePolicy.defaultMaxAge, hasCache: Bool = false) {
        self.maxAge = maxAge
        self.hasCache = hasCache
    }

    mutating func handle(_ event: Event) -> [Action] {
        switch event {
        case .asked(let caller, let question, let mode, let lifetime, let now):
            return ask(caller, question, mode, lifetime, now)
        case .cancelled(let caller):
            // The fetch goes on without its callers, to its deadline at
            // most, and the next caller joins it (issue 48). A caller
            // cancelled before it asked gets its answer too.
            for (id, flight) in flights where flight.callers.contains(caller) { flights[id]?.callers.remove(caller) }
            return [.give([caller], .failure(.cancelled))]
        case .landed(let id, let result):
            guard let flight = flights.removeValue(forKey: id) else { return [] }
            under[Key(question: flight.question, mode: flight.mode)] = nil
            if flight.lifetime > 0, case .success(let answer) = result { kept.keep(answer, for: flight.question) }
            return [.give(flight.callers.sorted(), result)]
        case .invalidated:
            kept = KeptAnswers()
            for id in flights.keys { flights[id]?.lifetime = 0 }
            return flights.filter { $0.value.callers.isEmpty }.keys.sorted().map { .stop(flight: $0) }
        case .lock(let id, let state, let clockRanOut, let now):
            return lock(id, state, clockRanOut: clockRanOut, now: now)
        case .outagesRead(let records):
            if let records { outages = records }
            return [.down(outages)]
        case .failed(let root, let failure, let silence, let now):
            if answering == root, !failure.error.isAnswer { answering = nil }
            guard failure.provesDown(silence: silence) else { return [] }
            outages[root.key] = now
            return [.recordOutage(root.key, at: now)]
        case .answered(let root, let roots, let dialect, let recorded, let heard, let now):
            return answered(root, of: roots, dialect: dialect, recorded: recorded, heard: heard, now: now)
        case .recordRead(let read):
            record = .some(read)
            return []
        case .noticed(let text):
            defer { said = true }
            return said ? [] : [.note(text)]
        }
    }

    /// The services in the order they are asked: the one a pasted URL
    /// names; then the one that answered in this process, else the one the
    /// record names while it is fresh (`maxAge`); then the rest in the
    /// list's order.
    func order(_ roots: [APIRoot], named: APIRoot?, now: Date) -> [APIRoot] {
        let recorded = (record ?? nil).flatMap {
            CachePolicy.isFresh($0.confirmed, now: now, maxAge: maxAge) ? $0.root : nil
        }
        var order = roots
        for first in [answering ?? recorded, named] {
            guard let first, let index = order.firstIndex(of: first) else { continue }
            order.insert(order.remove(at: index), at: 0)
        }
        return order
    }

    /// Whether the fetch is under way.
    func flies(_ flight: UInt64) -> Bool { flights[flight] != nil }

    /// Whether an answer of `root` is news worth a notice: it did not answer
    /// last in this process, nor is it the one the record names.
    func isNew(_ root: APIRoot) -> Bool { answering != root && (record ?? nil)?.root != root }

    /// The dialect `root` is asked in: as it answered in this process, else
    /// as the cache folder `recorded` it, else its host's.
    func dialect(of root: APIRoot, recorded: Dialect?) -> Dialect {
        dialects[root.key] ?? recorded ?? Dialect.guess(for: root)
    }

    /// `root` answered: its outage ends; when it had not answered last in
    /// this process, the record of a list of several is written (new when
    /// another was remembered, confirmed when it was stale); a dialect is
    /// remembered when it changes what was, or is not the one its host
    /// makes the guess (docs/swapi-dialects.md, "Which service answers").
    private mutating func answered(
        _ root: APIRoot, of roots: [APIRoot], dialect: Dialect?, recorded: Dialect?, heard: Bool, now: Date
    ) -> [Action] {
        let name = root.key
        var actions: [Action] = []
        if heard {
            outages[name] = nil
            actions.append(.clearOutage(name))
        }
        if answering != root, roots.count > 1, hasCache {
            let before = record ?? nil
            let since =
                before?.root != root
                ? now : CachePolicy.isFresh(before?.confirmed ?? now, now: now, maxAge: maxAge) ? nil : before?.since
            if let since {
                record = .some(Record(root: root, since: since, confirmed: now))
                actions.append(.rememberService(root, since: since, roots: roots))
            }
        }
        answering = root
        if let dialect {
            let known = dialects[name] ?? recorded
            if dialects[name] != dialect {
                actions.append(
                    .trace("\(root.origin.authority) answers in \(dialect.service) dialect (\(dialect.rawValue))"))
            }
            if known != dialect && (known != nil || dialect != Dialect.guess(for: root)) {
                actions.append(.rememberDialect(root, dialect))
            }
            dialects[name] = dialect
        }
        return actions
    }

    /// A fresh kept answer at once (under `.offline`, one of any age); else
    /// the fetch of the same question in the same mode under way; else a
    /// new one. A refresh never takes what is kept, and replaces it.
    private mutating func ask(
        _ caller: UInt64, _ question: Question, _ mode: CachePolicy.Mode, _ lifetime: Double, _ now: Date
    ) -> [Action] {
        if mode != .refresh, lifetime > 0 || mode == .offline,
            let answer = kept.answer(to: question, now: now, lifetime: mode == .offline ? .infinity : lifetime)
        {
            return [.give([caller], .success(answer))]
        }
        let key = Key(question: question, mode: mode)
        if let id = under[key] {
            flights[id]?.callers.insert(caller)
            return []
        }
        lastFlight += 1
        under[key] = lastFlight
        flights[lastFlight] = Flight(question: question, mode: mode, callers: [caller], lifetime: lifetime)
        return [.start(flight: lastFlight, question, mode)]
    }

    /// Runs that share a cache folder take a question's lock in turn; one
    /// that waits looks again every `TimeLimits.lockPoll`, and, once its
    /// clock runs out, goes on without it, saying how long it waited.
    private mutating func lock(_ id: UInt64, _ state: LockState, clockRanOut: Bool, now: Date) -> [Action] {
        let waiting = flights[id]?.waiting
        switch state {
        case .taken:
            let waited = waiting.map { now.timeIntervalSince($0) }
            flights[id]?.waiting = nil
            return (waited.map { [.trace("waited \(TimeSpan.tenths($0)) for another run that asked the same")] } ?? [])
                + [.proceed(waited: nil)]
        case .stale: return [.retryLock(after: 0)]
        case .held where clockRanOut:
            flights[id]?.waiting = nil
            return [.proceed(waited: now.timeIntervalSince(waiting ?? now))]
        case .held:
            guard waiting == nil else { return [.retryLock(after: TimeLimits.lockPoll)] }
            flights[id]?.waiting = now
            return [.trace("waiting for another run that asks the same"), .retryLock(after: TimeLimits.lockPoll)]
        }
    }
}

extension ServiceFailure {
    /// Whether the failure proves the service down: no address, a refused
    /// connection, or nothing at all for the whole time it was given, never
    /// less (a run whose own clock ran out first saw nothing of it).
    func provesDown(silence: Double) -> Bool {
        guard !heard, error.isSilence, case .unreachable(let failure) = error else { return false }
        return failure.kind != .timedOut || quiet >= silence
    }
}

/// A service found down recently enough that it is not asked while
/// something else can answer (docs/cli.md, "Which service answers"): the
/// services, as messages name them, and when the first of them was found so.
struct Outage: Equatable, Sendable {
    /// `swapi.dev and swapi.info`.
    let services: String
    let since: Date
    let now: Date

    /// Whether a service found down at `date` is down at `now`.
    static func isRecent(_ date: Date, now: Date) -> Bool {
        CachePolicy.isFresh(date, now: now, maxAge: TimeLimits.outage)
    }

    /// `swapi.dev did not answer 12 s ago`.
    var what: String { "\(services) did not answer \(TimeSpan.describe(now.timeIntervalSince(since))) ago" }

    /// `; asked again in 48 s, or at once on a refresh`: the time since
    /// rounded as `what` rounds it.
    var when: String {
        "; asked again in \(TimeSpan.describe(TimeLimits.outage - now.timeIntervalSince(since).rounded(.up))), or at once on a refresh"
    }
}
