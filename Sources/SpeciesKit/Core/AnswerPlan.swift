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
        /// It has shown no sign of life (no response, no failure) for the
        /// attempt delay.
        case quiet(Int)
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
    /// When the services last failed without a sign of life, if they are
    /// not asked for it.
    private let outage: Outage?
    private var states: [State]
    /// Of the services asked, in the order they failed.
    private(set) var failures: [ServiceFailure] = []
    /// The last failure of a stand-in.
    private var standInFailure = Fault.cancelled
    /// How many caches were asked and held no answer.
    private var uncached = 0
    /// The services, as messages name them.
    private let names: [String]
    /// The services asked again, their cache left unread.
    private var askedAgain: Set<Int> = []

    /// - Parameters:
    ///   - services: in the order they are asked.
    ///   - hasCache: whether the client has a cache folder.
    ///   - outage: when the services last failed without a sign of life,
    ///     when that is recent enough that they are not asked
    ///     (`Outage.isRecent`); nil asks them.
    init(services: [APIRoot], mode: CachePolicy.Mode, fallback: Bool, hasCache: Bool, outage: Outage? = nil) {
        let caches = hasCache ? services.map(Source.cache) : []
        let builtIn = services.first { Dialect.ofPublicHost($0) != nil }.map { [Source.builtInData($0)] } ?? []
        // Offline, the cache is the source; the built-in data only stands in.
        let standIns = fallback ? caches + builtIn : mode == .offline ? caches : []
        // Of several services, the last too is followed when something may
        // stand in: a dead network is then found in seconds, not in the
        // whole timeout. A service alone has the whole timeout.
        let asked: [Source] =
            mode == .offline || outage != nil
            ? []
            : services.enumerated().map { index, root in
                let last = index == services.count - 1
                return Source.service(root, followed: !last || (services.count > 1 && !standIns.isEmpty), retries: last)
            }
        sources = asked + standIns
        names = services.map(\.origin.authority)
        self.fallback = fallback || mode == .offline
        self.outage = mode == .offline ? nil : outage
        states = Array(repeating: .waiting, count: sources.count)
    }

    /// The first step.
    mutating func start(deadlinePassed: Bool = false) -> Step {
        decide(deadlinePassed: deadlinePassed)
    }

    /// The step after `event`.
    mutating func next(after event: Event, deadlinePassed: Bool) -> Step {
        switch event {
        case .quiet(let index):
            guard states[index] == .asked, !deadlinePassed,
                let next = sources.indices.dropFirst(index + 1).first(where: { states[$0] == .waiting }),
                case .service = sources[next]
            else { return .wait }
            states[next] = .asked
            return .ask([next])
        case .answered(let index):
            states[index] = .answered
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
                if case .service = sources[index] { failures.append(failure) } else { standInFailure = error }
                if case .notCached = error { uncached += 1 }
            }
        }
        return decide(deadlinePassed: deadlinePassed)
    }

    /// Whether a later service waits to be asked beside source `index`.
    func staggers(_ index: Int) -> Bool {
        sources.indices.dropFirst(index + 1).contains { index in
            guard case .service = sources[index] else { return false }
            return states[index] == .waiting
        }
    }

    /// Whether every service was asked and failed, and none showed a sign
    /// of life: the network, or every service, is down (`Outage`).
    var foundOutage: Bool {
        let services = sources.indices.filter { if case .service = sources[$0] { true } else { false } }
        return !services.isEmpty && failures.count == services.count && failures.allSatisfy(\.silent)
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
                if case .service = sources[first], deadlinePassed {
                    states[first] = .failed
                    continue
                }
                states[first] = .asked
                return .ask([first])
            }
        }
        return .fail(finalError)
    }

    /// Why nothing answered: the one service's error, or every service's;
    /// with a fallback, that the cache held no answer either; with the
    /// services not asked, when they last failed.
    private var finalError: Fault {
        if failures.isEmpty {
            if let outage {
                return .outage(outage, cacheAsked: sources.contains { if case .cache = $0 { true } else { false } })
            }
            // Offline and nothing else to ask: no cache, or none that held it.
            if sources.isEmpty || (uncached > 1 && uncached == sources.count) {
                return .nothingCached(Phrase.alternatives(names), cacheOff: sources.isEmpty)
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
}

/// A network that no service answers on, found once (docs/cli.md, "When the
/// API cannot answer"): every service of a list failed without a sign of
/// life `since`. For `window` seconds after, the cache and the built-in data
/// answer at once, without asking them, as a circuit breaker does.
struct Outage: Equatable, Sendable {
    /// A minute.
    static let window = 60.0

    /// `swapi.dev and swapi.info`: the services, as messages name them.
    let services: String
    let since: Date
    let now: Date

    /// Whether services that failed at `date` are not asked at `now`.
    static func isRecent(_ date: Date, now: Date) -> Bool {
        CachePolicy.isFresh(date, now: now, maxAge: window)
    }

    /// `swapi.dev did not answer 12 s ago`.
    var what: String {
        "\(services) did not answer \(TimeSpan.describe(now.timeIntervalSince(since))) ago"
    }

    /// `; asked again in 48 s, or at once on a refresh`: the time since
    /// rounded as `what` rounds it.
    var when: String {
        "; asked again in \(TimeSpan.describe(Self.window - now.timeIntervalSince(since).rounded(.up))), or at once on a refresh"
    }
}
