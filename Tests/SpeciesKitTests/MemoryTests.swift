import Foundation
import Testing

@testable import SpeciesKit

/// What a client shares and remembers, as tables: events in, actions out.
/// No transport, clock, task or file.
@Suite("What a client shares and remembers")
struct MemoryTests {
    static let (dev, py4e, tech, info) = (
        APIRoot.publicServices[0], APIRoot.publicServices[1], APIRoot.publicServices[2], APIRoot.publicServices[3]
    )
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let url = URL(string: "https://swapi.dev/api/species/")!
    static let all = Question.species(search: nil, limit: nil)

    static func answer(_ value: String, fetchedAgo seconds: Double = 0) -> SharedAnswer {
        SharedAnswer(value: value, source: .service(dev), fetched: now.addingTimeInterval(-seconds), bytes: 10)
    }

    static func asked(
        _ caller: UInt64, _ mode: CachePolicy.Mode = .normal, lifetime: Double = 60, at seconds: Double = 0
    )
        -> Memory.Event
    {
        .asked(caller: caller, all, mode: mode, lifetime: lifetime, now: now.addingTimeInterval(seconds))
    }

    /// Feeds the events in turn; the actions of each.
    static func run(_ events: [Memory.Event], into memory: inout Memory) -> [[Memory.Action]] {
        events.map { memory.handle($0) }
    }

    // MARK: Shared work and kept answers

    /// One fetch for callers that ask at once; its answer is kept for its
    /// lifetime, and a later caller gets it at once; then it is asked again.
    @Test func callersShareAFetchAndItsAnswerIsKept() {
        var memory = Memory()
        let steps = Self.run(
            [
                Self.asked(1), Self.asked(2), .landed(flight: 1, .success(Self.answer("37"))), Self.asked(3, at: 30),
                Self.asked(4, at: 61),
            ], into: &memory)
        #expect(
            steps == [
                [.start(flight: 1, Self.all, .normal)], [], [.give([1, 2], .success(Self.answer("37")))],
                [.give([3], .success(Self.answer("37")))], [.start(flight: 2, Self.all, .normal)],
            ])
    }

    /// A caller that is cancelled stops waiting; the fetch goes on without
    /// it (a view that disappears), and the next caller joins it: fifty
    /// appearances cost one fetch.
    @Test func aFetchOutlivesItsLastCallerAndTheNextJoinsIt() {
        var memory = Memory()
        var steps: [[Memory.Action]] = []
        for caller in UInt64(1)...50 {
            steps += Self.run([Self.asked(caller), .cancelled(caller: caller)], into: &memory)
        }
        #expect(steps.filter { $0.contains { if case .start = $0 { true } else { false } } }.count == 1)
        #expect(steps[1] == [.give([1], .failure(.cancelled))])
        #expect(memory.handle(.cancelled(caller: 99)) == [.give([99], .failure(.cancelled))], "before it asked")
        #expect(steps.allSatisfy { !$0.contains { if case .stop = $0 { true } else { false } } }, "never stopped")
        #expect(
            Self.run([Self.asked(51), .landed(flight: 1, .success(Self.answer("37")))], into: &memory)
                == [[], [.give([51], .success(Self.answer("37")))]])
    }

    /// Invalidating drops what is kept; a fetch under way is not kept when
    /// it lands, and one no caller waits for is stopped.
    @Test func invalidatingDropsWhatIsKeptAndStopsWhatNoOneWaitsFor() {
        var memory = Memory()
        let steps = Self.run(
            [
                Self.asked(1), .landed(flight: 1, .success(Self.answer("old"))),
                .asked(
                    caller: 2, .page(2, search: nil), mode: .normal, lifetime: 60, now: Self.now),
                .cancelled(caller: 2), .invalidated, Self.asked(3),
            ], into: &memory)
        #expect(steps[4] == [.stop(flight: 2)])
        #expect(steps[5] == [.start(flight: 3, Self.all, .normal)], "the kept answer went")
        _ = memory.handle(.landed(flight: 2, .failure(.cancelled)))
        let again = Self.run(
            [Self.asked(4), .invalidated, .landed(flight: 3, .success(Self.answer("new"))), Self.asked(5)],
            into: &memory)
        #expect(again[3] == [.start(flight: 4, Self.all, .normal)], "what landed after invalidating is not kept")
    }

    /// A refresh never takes what is kept, and what it brings replaces it;
    /// offline takes what is kept whatever its age; a lifetime of 0 keeps
    /// nothing; a failure is never kept.
    @Test func eachModeToWhatIsKept() {
        var memory = Memory()
        let steps = Self.run(
            [
                Self.asked(1), .landed(flight: 1, .success(Self.answer("old"))), Self.asked(2, .refresh),
                .landed(flight: 2, .success(Self.answer("new"))), Self.asked(3), Self.asked(4, .offline, at: 9_999),
                Self.asked(5, lifetime: 0), .landed(flight: 3, .failure(.cancelled)), Self.asked(6, lifetime: 0),
            ], into: &memory)
        #expect(steps[2] == [.start(flight: 2, Self.all, .refresh)])
        #expect(steps[4] == [.give([3], .success(Self.answer("new")))])
        #expect(steps[5] == [.give([4], .success(Self.answer("new")))])
        #expect(steps[6] == [.start(flight: 3, Self.all, .normal)])
        #expect(steps[8] == [.start(flight: 4, Self.all, .normal)])
    }

    // MARK: Locks

    /// A run that finds the lock held says so once, looks again every
    /// poll, and says how long it waited once it takes it; a stale lock is
    /// tried again at once; a run whose clock runs out goes on, saying how
    /// long it waited in vain.
    @Test func theLockOfAQuestion() {
        var memory = Memory()
        _ = memory.handle(Self.asked(1))
        let later = Self.now.addingTimeInterval(1.5)
        #expect(
            Self.run(
                [
                    .lock(flight: 1, .held, clockRanOut: false, now: Self.now),
                    .lock(flight: 1, .held, clockRanOut: false, now: Self.now),
                    .lock(flight: 1, .stale, clockRanOut: false, now: Self.now),
                    .lock(flight: 1, .taken, clockRanOut: false, now: later),
                    .lock(flight: 1, .taken, clockRanOut: false, now: later),
                    .lock(flight: 1, .held, clockRanOut: false, now: later),
                    .lock(flight: 1, .held, clockRanOut: true, now: later.addingTimeInterval(2)),
                ], into: &memory)
                == [
                    [.trace("waiting for another run that asks the same"), .retryLock(after: TimeLimits.lockPoll)],
                    [.retryLock(after: TimeLimits.lockPoll)], [.retryLock(after: 0)],
                    [.trace("waited 1.5 s for another run that asked the same"), .proceed(waited: nil)],
                    [.proceed(waited: nil)],
                    [.trace("waiting for another run that asks the same"), .retryLock(after: TimeLimits.lockPoll)],
                    [.proceed(waited: 2)],
                ])
    }

    // MARK: What is seen of services

    /// A failure proves a service down only when it is silence for the
    /// whole time a service is given: no address, refused, or no byte for
    /// `silence` seconds; never a run's own clock that ran out first,
    /// anything heard, an HTTP status, a TLS failure.
    @Test(arguments: [
        (TransportError.Kind.unknownHost, false, false, 0.0, true),
        (.connectionRefused, false, false, 0, true),
        (.timedOut, false, false, 3, true),
        (.timedOut, false, false, 1, false),
        (.timedOut, true, false, 3, false),
        (.timedOut, false, true, 3, false),
        (.insecureConnection, false, false, 3, false),
        (.connectionLost, false, false, 3, false),
    ])
    func whatProvesAServiceDown(kind: TransportError.Kind, began: Bool, heard: Bool, quiet: Double, down: Bool) {
        let failure = ServiceFailure(
            service: "swapi.dev",
            error: .unreachable(TransportError(kind, url: Self.url, detail: "x", responseBegan: began)), heard: heard,
            quiet: quiet)
        var memory = Memory()
        #expect(
            memory.handle(.failed(Self.dev, failure, silence: 3, now: Self.now))
                == (down ? [.recordOutage(Self.dev.key, at: Self.now)] : []))
        #expect(
            !failure.provesDown(silence: 3)
                || !ServiceFailure(service: "x", error: .httpStatus(503, url: Self.url), heard: false)
                    .provesDown(silence: 0)
        )
    }

    /// An outage is cleared by any answer the service itself gave, never by
    /// its fresh cache alone; the records read after the lock are what the
    /// services are judged by; without a cache folder, what this client saw.
    @Test func anOutageEndsWithAnAnswerOfThatService() {
        var memory = Memory()
        let refused = ServiceFailure(
            service: "swapi.dev", error: .unreachable(TransportError(.connectionRefused, url: Self.url, detail: "x")),
            heard: false)
        let earlier = Self.now.addingTimeInterval(-5)
        #expect(
            Self.run(
                [
                    .failed(Self.dev, refused, silence: 3, now: Self.now), .outagesRead(nil),
                    .outagesRead([Self.py4e.key: earlier]),
                    .answered(Self.py4e, of: [Self.py4e], dialect: nil, recorded: nil, heard: false, now: Self.now),
                    .answered(Self.py4e, of: [Self.py4e], dialect: nil, recorded: nil, heard: true, now: Self.now),
                    .outagesRead(nil),
                ], into: &memory)
                == [
                    [.recordOutage(Self.dev.key, at: Self.now)], [.down([Self.dev.key: Self.now])],
                    [.down([Self.py4e.key: earlier])], [], [.clearOutage(Self.py4e.key)], [.down([:])],
                ])
    }

    /// A pasted URL's service first; then the one that answered in this
    /// process, else the one a fresh record names; then the list's order.
    @Test(
        arguments: [
            (nil, nil, nil, [dev, py4e, tech, info]),
            (nil, nil, record(tech, confirmedAgo: 60), [tech, dev, py4e, info]),
            (nil, nil, record(tech, confirmedAgo: 600), [dev, py4e, tech, info]),
            (nil, nil, record(nil, confirmedAgo: 60), [dev, py4e, tech, info]),
            (nil, py4e, record(tech, confirmedAgo: 60), [py4e, dev, tech, info]),
            (info, py4e, nil, [info, py4e, dev, tech]),
            (dev, nil, record(tech, confirmedAgo: 60), [dev, tech, py4e, info]),
        ] as [(APIRoot?, APIRoot?, Memory.Record?, [APIRoot])])
    func theOrder(named: APIRoot?, answering: APIRoot?, record: Memory.Record?, order: [APIRoot]) {
        var memory = Memory(maxAge: 300, hasCache: true)
        _ = memory.handle(.recordRead(record))
        if let answering {
            _ = memory.handle(
                .answered(answering, of: [answering], dialect: nil, recorded: nil, heard: true, now: Self.now))
        }
        #expect(memory.order(APIRoot.publicServices, named: named, now: Self.now) == order)
    }

    static func record(_ root: APIRoot?, confirmedAgo seconds: Double) -> Memory.Record {
        Memory.Record(root: root, since: now.addingTimeInterval(-9_999), confirmed: now.addingTimeInterval(-seconds))
    }

    /// The record written when a service answers first in this process: a
    /// new one when another was remembered, the same confirmed when it was
    /// stale, none when it is fresh, for one service, or without a cache.
    @Test(
        arguments: [
            (4, true, nil, now), (1, true, nil, nil), (4, false, nil, nil),
            (4, true, record(tech, confirmedAgo: 60), now), (4, true, record(dev, confirmedAgo: 60), nil),
            (4, true, record(dev, confirmedAgo: 600), now.addingTimeInterval(-9_999)),
        ] as [(Int, Bool, Memory.Record?, Date?)])
    func theRecord(services: Int, hasCache: Bool, record: Memory.Record?, since: Date?) {
        let roots = Array(APIRoot.publicServices.prefix(services))
        var memory = Memory(maxAge: 300, hasCache: hasCache)
        _ = memory.handle(.recordRead(record))
        #expect(memory.isNew(Self.dev) == (record?.root != Self.dev))
        let actions = memory.handle(
            .answered(Self.dev, of: roots, dialect: nil, recorded: nil, heard: false, now: Self.now))
        #expect(actions == (since.map { [.rememberService(Self.dev, since: $0, roots: roots)] } ?? []))
        #expect(!memory.isNew(Self.dev), "it answered in this process")
    }

    /// A dialect is remembered when it changes what was, or is not the
    /// guess; the trace says so when this process had not heard it.
    @Test(
        arguments: [
            (Dialect.drf, nil, APIRoot.swapi, false), (.tech, nil, .swapi, true), (.tech, .tech, .swapi, false),
            (.drf, .tech, .swapi, true), (.info, .tech, APIRoot.publicServices[3], true),
        ] as [(Dialect, Dialect?, APIRoot, Bool)])
    func theDialect(dialect: Dialect, recorded: Dialect?, root: APIRoot, remembers: Bool) {
        var memory = Memory()
        let actions = memory.handle(
            .answered(root, of: [root], dialect: dialect, recorded: recorded, heard: false, now: Self.now))
        #expect(actions.contains(.rememberDialect(root, dialect)) == remembers)
        #expect(memory.dialect(of: root, recorded: nil) == dialect)
        #expect(
            memory.handle(
                .answered(root, of: [root], dialect: dialect, recorded: recorded, heard: false, now: Self.now))
                == [], "heard before, remembered")
    }

    /// One notice a client.
    @Test func oneNoticeAClient() {
        var memory = Memory()
        #expect(Self.run([.noticed("a"), .noticed("b")], into: &memory) == [[.note("a")], []])
    }
}
