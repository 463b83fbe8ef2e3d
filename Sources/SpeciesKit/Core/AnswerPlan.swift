import Foundation

/// Who answers, in what order, and what a failure means, as docs/cli.md
/// ("Which service answers", "One answer, one source", "When the API cannot
/// answer") says: a pure value, fed what each source did, that says the
/// next step.
struct AnswerPlan: Sendable {
    enum Source: Equatable, Sendable {
        /// The service at this root, through its cache. `followed` when
        /// another source may answer after it: it keeps
        /// `MinimumPace.followed`. Only the last service `retries`.
        case service(APIRoot, followed: Bool, retries: Bool)
        /// The responses cached from this service, whatever their age.
        case cache(APIRoot)
        /// The SWAPI data built in, its links under this root.
        case builtInData(APIRoot)
    }

    /// What a source did.
    enum Event: Equatable, Sendable {
        /// The attempt delay has passed since it was asked; `heard`, whether
        /// it showed a sign of life (a response, a failure) by then. One
        /// that did is waited for; a quiet one has the next beside it.
        case stagger(Int, heard: Bool)
        /// It answered whole.
        case answered(Int)
        /// It failed, as the failure says.
        case failed(Int, ServiceFailure)
    }

    enum Step: Equatable, Sendable {
        /// Ask these sources.
        case ask([Int])
        /// Ask this service again, its cache left unread.
        case again(Int)
        /// Nothing to do until a source does something.
        case wait
        /// This source's answer is the answer; stop the others.
        case take(Int)
        /// This source answered that there is nothing: that is the answer.
        case answer(Int, Fault)
        /// No source can answer, or the asking was stopped, as the error says.
        case fail(Fault)
    }

    private enum State: Equatable, Sendable {
        case waiting, asked, answered, failed
        case answeredNothing(Fault)
    }

    let sources: [Source]
    private let fallback: Bool
    private let mode: CachePolicy.Mode
    /// The services found down a moment ago, asked after what may stand in
    /// for them.
    private let outage: Outage?
    /// Seconds this answer waited for another run's lock, when its clock
    /// ran out meanwhile; then no service is asked.
    private let waited: Double?
    /// The deadline's length, for messages.
    private let timeout: Double
    /// What was asked, as messages name it (`Question.phrase`).
    private let asked: String
    private var states: [State]
    /// Of the services asked, by their place in the list.
    private var failed: [Int: ServiceFailure] = [:]
    /// The services that failed, in the order they are asked, however the
    /// network ordered their failures (docs/cli.md: a notice names them so).
    var failures: [ServiceFailure] { failed.keys.sorted().compactMap { failed[$0] } }
    /// The services the deadline left no time for.
    private var unasked: [String] = []
    /// The last failure of a stand-in.
    private var standInFailure = Fault.cancelled
    /// How many caches were asked and held no answer.
    private var uncached = 0
    /// The services of the list, in its order.
    private let services: [APIRoot]
    /// The services asked again, their cache left unread.
    private var askedAgain: Set<Int> = []

    /// - Parameters:
    ///   - question: what is asked, which messages name.
    ///   - services: in the order they are asked.
    ///   - hasCache: whether the client has a cache folder.
    ///   - down: when each service (by `APIRoot.key`) was last found down.
    ///     One found down within `TimeLimits.outage` of `now` is asked
    ///     after the others and what may stand in for it (docs/cli.md,
    ///     "What is remembered"); a refresh asks it as usual.
    ///   - waited: seconds spent waiting for another run's lock, when the
    ///     clock ran out meanwhile: no service is asked.
    init(
        _ question: Question, services: [APIRoot], mode: CachePolicy.Mode, fallback: Bool, hasCache: Bool,
        down: [String: Date] = [:], waited: Double? = nil, timeout: Double = SpeciesClient.Configuration.defaultTimeout,
        now: Date = Date(timeIntervalSince1970: 0)
    ) {
        let caches = hasCache ? services.map(Source.cache) : []
        let builtIn = services.first { Dialect.ofPublicHost($0) != nil }.map { [Source.builtInData($0)] } ?? []
        // Offline, the cache is the source; the built-in data only stands in.
        let standIns = fallback ? caches + builtIn : mode == .offline ? caches : []
        // A refresh asks them all, and offline asks none. One found down
        // a moment ago is asked after what may stand in for it.
        let recent = services.filter { mode == .normal && down[$0.key].map { Outage.isRecent($0, now: now) } ?? false }
        let first = mode == .offline ? [] : services.filter { !recent.contains($0) }
        let asked = first + recent
        // Of several services, the last asked before the stand-ins is
        // followed by them: a dead network is then found in seconds, not in
        // the whole timeout. A service alone has the whole timeout. The last
        // not found down retries.
        let service = { (index: Int, root: APIRoot) in
            Source.service(
                root,
                followed: index < asked.count - 1 || (index < first.count && services.count > 1 && !standIns.isEmpty),
                retries: index == (first.isEmpty ? asked.count : first.count) - 1)
        }
        sources = first.enumerated().map(service) + standIns + recent.enumerated().map { service($0 + first.count, $1) }
        self.services = services
        self.mode = mode
        self.fallback = fallback || mode == .offline
        outage =
            standIns.isEmpty
            ? nil
            : recent.compactMap { down[$0.key] }.min().map {
                Outage(
                    services: Phrase.alternatives(recent.map { $0.name(among: services) }, conjunction: "and"),
                    since: $0, now: now)
            }
        (self.waited, self.timeout, self.asked) = (waited, timeout, question.phrase)
        states = Array(repeating: .waiting, count: sources.count)
    }

    /// What comes before any source is asked (docs/cli.md, "Which service
    /// answers"): the first service's fresh cache alone, which needs no
    /// lock, no stagger and no thread; then, when services may be asked and
    /// runs share a cache folder, the question's lock.
    static func prelude(first: APIRoot?, mode: CachePolicy.Mode, hasCache: Bool) -> (fresh: APIRoot?, locks: Bool) {
        (hasCache && mode == .normal ? first : nil, hasCache && mode != .offline)
    }

    /// The first step.
    mutating func start(deadlinePassed: Bool = false) -> Step { decide(deadlinePassed: deadlinePassed) }

    /// The step after `event`.
    mutating func next(after event: Event, deadlinePassed: Bool) -> Step {
        switch event {
        case .stagger(let index, let heard):
            guard !heard, states[index] == .asked, !deadlinePassed,
                let next = sources.indices.dropFirst(index + 1).first(where: { states[$0] == .waiting }),
                case .service = sources[next]
            else { return .wait }
            states[next] = .asked
            return .ask([next])
        case .answered(let index): states[index] = .answered
        case .failed(let index, let failure):
            let error = failure.error
            if error == .cancelled || error.kind == .badQuestion { return .fail(error) }
            if error.isAnswer {
                states[index] = .answeredNothing(error)
            } else if failure.cached, error.kind == .badAnswer, case .service = sources[index],
                askedAgain.insert(index).inserted
            {
                // What it answers whole now is not condemned by pages it
                // cached earlier (docs/cli.md, "What is whole").
                return .again(index)
            } else {
                states[index] = .failed
                if case .service = sources[index] { failed[index] = failure } else { standInFailure = error }
                if case .notCached = error { uncached += 1 }
            }
        }
        return decide(deadlinePassed: deadlinePassed)
    }

    /// Whether source `index` gave way: its failure is no answer, and what
    /// it sent is dropped.
    func gaveWay(_ index: Int) -> Bool { states[index] == .failed }

    /// Whether a later service waits to be asked beside source `index`.
    func staggers(_ index: Int) -> Bool {
        sources.indices.dropFirst(index + 1).contains { index in
            guard case .service = sources[index] else { return false }
            return states[index] == .waiting
        }
    }

    /// The first source, in order, that has not failed decides: its answer
    /// is taken, it is waited for, or it is asked; a service the deadline
    /// leaves no time for is not asked.
    private mutating func decide(deadlinePassed: Bool) -> Step {
        while let first = states.firstIndex(where: { $0 != .failed }) {
            switch states[first] {
            case .answered: return .take(first)
            case .answeredNothing(let error): return .answer(first, error)
            case .asked: return .wait
            case .waiting, .failed:
                if case .service(let root, _, _) = sources[first], deadlinePassed || waited != nil {
                    states[first] = .failed
                    unasked.append(root.name(among: services))
                    continue
                }
                states[first] = .asked
                return .ask([first])
            }
        }
        return .fail(finalError)
    }

    /// Why nothing answered: the one service's error, or every service's;
    /// with a fallback, that the cache held no answer either; with services
    /// not asked, that no time was left.
    private var finalError: Fault {
        if failures.isEmpty {
            if !unasked.isEmpty {
                let services = Phrase.alternatives(unasked, conjunction: "and")
                return fallback
                    ? .unanswered(
                        .outOfTime(services, asked: asked, seconds: timeout, waited: waited),
                        host: unasked.count == 1 ? services : "any of them")
                    : .outOfTime(services, asked: asked, seconds: timeout, waited: waited)
            }
            // Offline and nothing else to ask: no cache, or none that held it.
            if sources.isEmpty || (uncached > 1 && uncached == sources.count) {
                return .nothingCached(
                    Phrase.alternatives(services.map(\.origin.authority)), asked: asked, cacheOff: sources.isEmpty)
            }
            return standInFailure
        }
        // Each result made in one expression: Swift 6.3.1 at -O over-releases
        // a payload chosen by `?:` and then boxed by `indirect` (the freed URL
        // of a service's error crashed 4 runs in 10 of the installed build;
        // the nearest known fault is swiftlang/swift#89872, fixed in 6.4).
        guard failures.count > 1 else {
            return fallback ? .unanswered(failures[0].error, host: failures[0].service) : failures[0].error
        }
        return fallback ? .unanswered(.noServiceAnswered(failures), host: "any of them") : .noServiceAnswered(failures)
    }

    /// What is said of the answer of source `index`, if anything
    /// (docs/cli.md, "When the API cannot answer"): why the services before
    /// it gave way, or were not asked, and what answered, how old. A
    /// service's answer is news only when it is `new` (not the one that
    /// answered before) and others gave way first.
    func notice(for index: Int, new: Bool, fetched: Date, now: Date) -> String? {
        let timeUp =
            unasked.isEmpty
            ? nil
            : Fault.outOfTime(
                Phrase.alternatives(unasked, conjunction: "and"), asked: asked, seconds: timeout, waited: waited
            ).facts.sentence
        let why = [failures.isEmpty ? nil : Fault.describe(failures), outage?.what, timeUp].compactMap { $0 }.joined(
            separator: "; ")
        let reason = why.isEmpty ? "offline" : why
        let asked = outage?.when ?? ""
        switch sources[index] {
        case .service(let root, _, _):
            return new && !failures.isEmpty
                ? "\(Fault.describe(failures)); answered by \(root.name(among: services))" : nil
        case .cache(let root):
            guard !failures.isEmpty || outage != nil || !unasked.isEmpty else { return nil }
            let cache = services.count == 1 ? "the cache" : "the cache of \(root.name(among: services))"
            return
                "\(reason): answering from \(cache), as fetched \(TimeSpan.describe(now.timeIntervalSince(fetched))) ago\(asked)"
        case .builtInData:
            return "\(reason): answering from the SWAPI data built in (recorded \(BundledCatalog.recorded))\(asked)"
        }
    }
}
