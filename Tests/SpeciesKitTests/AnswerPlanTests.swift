import Foundation
import Testing

@testable import SpeciesKit

/// Who answers, in what order, and what each failure means, as a table:
/// what each source does goes in, the next step comes out. No transport,
/// clock or server.
@Suite("Who answers")
struct AnswerPlanTests {
    static let dev = APIRoot.swapi, py4e = APIRoot("https://swapi.py4e.com/api/")!
    static let tech = APIRoot("https://www.swapi.tech/api/")!
    static let copy = APIRoot("http://127.0.0.1:9/api/")!
    static let url = URL(string: "https://swapi.dev/api/species/?page=2")!
    static let asked = Question.page(2, search: nil)
    static let silence = Fault.unreachable(TransportError(.timedOut, url: url, detail: "no first byte", seconds: 3))

    static func failed(_ index: Int, _ error: Fault, service: String = "swapi.dev", heard: Bool = true)
        -> AnswerPlan.Event
    {
        .failed(index, ServiceFailure(service: service, error: error, heard: heard))
    }

    /// Feeds `events` in turn, deadline or not; the step after each.
    static func steps(_ plan: inout AnswerPlan, _ events: [AnswerPlan.Event], deadlinePassed: Bool = false)
        -> [AnswerPlan.Step]
    {
        [plan.start()] + events.map { plan.next(after: $0, deadlinePassed: deadlinePassed) }
    }

    @Test func theServicesThenTheCacheOfEachThenTheBuiltInData() {
        let plan = AnswerPlan(
            Self.asked, services: [Self.copy, Self.dev, Self.py4e], mode: .normal, fallback: true, hasCache: true)
        #expect(
            plan.sources == [
                .service(Self.copy, followed: true, retries: false), .service(Self.dev, followed: true, retries: false),
                .service(Self.py4e, followed: true, retries: true), .cache(Self.copy), .cache(Self.dev),
                .cache(Self.py4e), .builtInData(Self.dev),
            ], "the last of several is followed by what stands in, and keeps the pace; it alone retries")
        let alone = AnswerPlan(Self.asked, services: [Self.dev], mode: .normal, fallback: true, hasCache: true)
        #expect(alone.sources.first == .service(Self.dev, followed: false, retries: true), "the whole timeout")
    }

    @Test func withoutAFallbackOnlyTheServices() {
        let plan = AnswerPlan(
            Self.asked, services: [Self.dev, Self.py4e], mode: .refresh, fallback: false, hasCache: true)
        #expect(
            plan.sources == [
                .service(Self.dev, followed: true, retries: false), .service(Self.py4e, followed: false, retries: true),
            ])
    }

    @Test func theBuiltInDataStandsInForSWAPIsServicesOnly() {
        let plan = AnswerPlan(Self.asked, services: [Self.copy], mode: .normal, fallback: true, hasCache: false)
        #expect(plan.sources == [.service(Self.copy, followed: false, retries: true)])
    }

    @Test func offlineTheCacheOfEachThenTheBuiltInDataForSWAPIsServicesOnly() {
        let plan = AnswerPlan(
            Self.asked, services: [Self.copy, Self.py4e], mode: .offline, fallback: true, hasCache: true)
        #expect(plan.sources == [.cache(Self.copy), .cache(Self.py4e), .builtInData(Self.py4e)])
        let copy = AnswerPlan(Self.asked, services: [Self.copy], mode: .offline, fallback: true, hasCache: true)
        #expect(copy.sources == [.cache(Self.copy)])
    }

    /// Issue 44: offline without a fallback, the cache alone answers; when
    /// none holds the answer, or there is no cache, one error says so.
    @Test func offlineWithoutAFallbackTheCacheAlone() {
        var plan = AnswerPlan(
            Self.asked, services: [Self.dev, Self.py4e], mode: .offline, fallback: false, hasCache: true)
        #expect(plan.sources == [.cache(Self.dev), .cache(Self.py4e)])
        let missed = [Self.failed(0, .notCached(url: Self.url)), Self.failed(1, .notCached(url: Self.url))]
        #expect(
            Self.steps(&plan, missed)
                == [
                    .ask([0]), .ask([1]),
                    .fail(
                        .nothingCached("swapi.dev or swapi.py4e.com", asked: "page 2 of the species", cacheOff: false)),
                ])
        var none = AnswerPlan(Self.asked, services: [Self.dev], mode: .offline, fallback: false, hasCache: false)
        #expect(none.sources.isEmpty)
        #expect(
            Self.steps(&none, []) == [
                .fail(.nothingCached("swapi.dev", asked: "page 2 of the species", cacheOff: true))
            ])
    }

    /// Every failure is an answer, or no answer from that source.
    @Test(arguments: [
        (
            Fault.noSuchPage(5, pages: 4, search: nil),
            AnswerPlan.Step.answer(0, .noSuchPage(5, pages: 4, search: nil))
        ),
        (.notFound(what: "species 99", url: url), .answer(0, .notFound(what: "species 99", url: url))),
        (
            .noSuchName("wookiee", suggestions: ["Wookie"]),
            .answer(0, .noSuchName("wookiee", suggestions: ["Wookie"]))
        ),
        (.cancelled, .fail(.cancelled)),
        (.notASpeciesURL("x", of: dev), .fail(.notASpeciesURL("x", of: dev))),
        (.tooLarge(url: url, .bytes(100)), .ask([1])), (.tooLarge(url: url, .pages(500)), .ask([1])),
        (.unreachable(TransportError(.other, url: url, detail: "a transport's own")), .ask([1])),
        (.incomplete(url: url, .notASpecies("'Tatooine'")), .ask([1])),
        (.invalidResponse(url: url, .dialectChanged(to: "swapi.tech's", from: "swapi.dev's")), .ask([1])),
        (.badLink(url: url, link: "x", .loops), .ask([1])), (.httpStatus(500, url: url), .ask([1])),
        (.notCached(url: url), .ask([1])),
    ])
    func aFailureIsAnAnswerOrNoAnswerFromThatSource(error: Fault, step: AnswerPlan.Step) {
        var plan = AnswerPlan(
            Self.asked, services: [Self.dev, Self.py4e], mode: .normal, fallback: false, hasCache: false)
        #expect(Self.steps(&plan, [Self.failed(0, error)]) == [.ask([0]), step])
        #expect(plan.gaveWay(0) == (step == .ask([1])), "what a source that gave way sent is dropped")
    }

    @Test func theServicesTheDeadlineLeavesNoTimeForAreNotAsked() {
        var plan = AnswerPlan(
            Self.asked, services: [Self.dev, Self.py4e], mode: .normal, fallback: true, hasCache: true)
        #expect(Self.steps(&plan, [Self.failed(0, Self.silence)], deadlinePassed: true) == [.ask([0]), .ask([2])])
        #expect(plan.failures.map(\.service) == ["swapi.dev"], "py4e is not named")
    }

    @Test func whenNoneIsLeftTheErrorNamesWhatFailed() {
        let down = Fault.httpStatus(503, url: Self.url)
        var alone = AnswerPlan(Self.asked, services: [Self.dev], mode: .normal, fallback: false, hasCache: false)
        #expect(Self.steps(&alone, [Self.failed(0, down)]).last == .fail(down))
        var both = AnswerPlan(
            Self.asked, services: [Self.dev, Self.py4e], mode: .normal, fallback: false, hasCache: false)
        let two = [
            ServiceFailure(service: "swapi.dev", error: down), ServiceFailure(service: "swapi.py4e.com", error: down),
        ]
        #expect(
            Self.steps(&both, [Self.failed(0, down), Self.failed(1, down, service: "swapi.py4e.com")]).last
                == .fail(.noServiceAnswered(two)))
        var copy = AnswerPlan(Self.asked, services: [Self.copy], mode: .normal, fallback: true, hasCache: true)
        #expect(
            Self.steps(&copy, [Self.failed(0, down), Self.failed(1, .notCached(url: Self.url))]).last
                == .fail(.unanswered(down, host: "swapi.dev")))
        var offline = AnswerPlan(Self.asked, services: [Self.copy], mode: .offline, fallback: true, hasCache: true)
        #expect(
            Self.steps(&offline, [Self.failed(0, .notCached(url: Self.url))]).last == .fail(.notCached(url: Self.url)))
    }

    /// Issue 43: a service whose answer with the cache does not add up is
    /// asked again, once, its cache left unread.
    @Test func aServiceWhoseCacheDoesNotAddUpIsAskedAgainOnce() {
        var plan = AnswerPlan(
            Self.asked, services: [Self.dev, Self.py4e], mode: .normal, fallback: false, hasCache: true)
        let short = Fault.incomplete(url: Self.url, .pageLength(9, expected: 10))
        let cached = AnswerPlan.Event.failed(0, ServiceFailure(service: "swapi.dev", error: short, cached: true))
        #expect(Self.steps(&plan, [cached, cached]) == [.ask([0]), .again(0), .ask([1])])
        var fresh = AnswerPlan(
            Self.asked, services: [Self.dev, Self.py4e], mode: .normal, fallback: false, hasCache: true)
        #expect(Self.steps(&fresh, [Self.failed(0, short)]) == [.ask([0]), .ask([1])], "nothing cached: no again")
    }

    // MARK: Issue 42: staggered services, and a dead network found once

    /// A service that has shown no sign of life for the attempt delay has
    /// the next asked beside it; the first in order that answers whole is
    /// the answer, and one after it waits for it.
    @Test func aQuietServiceHasTheNextAskedBesideIt() {
        var plan = AnswerPlan(
            Self.asked, services: [Self.dev, Self.py4e, Self.tech], mode: .normal, fallback: true, hasCache: false)
        #expect(plan.staggers(0))
        #expect(
            Self.steps(&plan, [.stagger(0, heard: false), .stagger(1, heard: false), .answered(2), .answered(1)])
                == [.ask([0]), .ask([1]), .ask([2]), .wait, .wait])
        #expect(!plan.staggers(2), "the built-in data is asked only once every service has failed")
        #expect(plan.next(after: .stagger(2, heard: false), deadlinePassed: false) == .wait)
        #expect(plan.next(after: Self.failed(0, Self.silence), deadlinePassed: false) == .take(1))
    }

    /// A service that showed a sign of life within the attempt delay is
    /// waited for: nothing is asked beside it.
    @Test func aServiceHeardFromIsWaitedFor() {
        var plan = AnswerPlan(
            Self.asked, services: [Self.dev, Self.py4e], mode: .normal, fallback: true, hasCache: false)
        #expect(Self.steps(&plan, [.stagger(0, heard: true)]) == [.ask([0]), .wait])
        #expect(plan.next(after: .stagger(0, heard: false), deadlinePassed: false) == .ask([1]))
    }

    @Test func theFirstThatAnswersIsTakenAtOnceWhenNoneBeforeItIsAsked() {
        var plan = AnswerPlan(
            Self.asked, services: [Self.dev, Self.py4e], mode: .normal, fallback: true, hasCache: false)
        #expect(Self.steps(&plan, [.answered(0)]) == [.ask([0]), .take(0)])
        var second = AnswerPlan(
            Self.asked, services: [Self.dev, Self.py4e], mode: .normal, fallback: true, hasCache: false)
        #expect(
            Self.steps(&second, [.stagger(0, heard: false), Self.failed(0, Self.silence), .answered(1)])
                == [.ask([0]), .ask([1]), .wait, .take(1)])
    }

    /// An answer that there is nothing is the answer only once every source
    /// before it has failed.
    @Test func aLaterNoWaitsForTheOnesBeforeIt() {
        var plan = AnswerPlan(
            Self.asked, services: [Self.dev, Self.py4e], mode: .normal, fallback: false, hasCache: false)
        let none = Fault.noSuchPage(9, pages: 4, search: nil)
        #expect(
            Self.steps(&plan, [.stagger(0, heard: false), Self.failed(1, none), Self.failed(0, Self.silence)])
                == [.ask([0]), .ask([1]), .wait, .answer(1, none)])
    }

    /// A quiet service after the deadline, or one whose answer came already,
    /// has nothing asked beside it.
    @Test func aQuietServiceAfterTheDeadlineOrAnswerAsksNothing() {
        var late = AnswerPlan(
            Self.asked, services: [Self.dev, Self.py4e], mode: .normal, fallback: true, hasCache: false)
        #expect(Self.steps(&late, [.stagger(0, heard: false)], deadlinePassed: true) == [.ask([0]), .wait])
        var failed = AnswerPlan(
            Self.asked, services: [Self.dev, Self.py4e], mode: .normal, fallback: true, hasCache: false)
        #expect(
            Self.steps(&failed, [Self.failed(0, .httpStatus(500, url: Self.url)), .stagger(0, heard: false)])
                == [.ask([0]), .ask([1]), .wait])
    }

    /// A service found down within a minute is asked after what may stand
    /// in for it: for SWAPI's services the built-in data answers, so they
    /// are not asked; a copy whose cache holds nothing, or one with nothing
    /// to stand in, is asked again; a refresh asks as usual.
    @Test func servicesFoundDownAreAskedAfterWhatMayStandIn() {
        let since = Date(timeIntervalSince1970: 1_000_000)
        let now = since.addingTimeInterval(12)
        let both = [Self.dev.key: since, Self.py4e.key: since.addingTimeInterval(2)]
        let down = AnswerPlan(
            Self.asked, services: [Self.dev, Self.py4e], mode: .normal, fallback: true, hasCache: true, down: both,
            now: now)
        #expect(
            down.sources == [
                .cache(Self.dev), .cache(Self.py4e), .builtInData(Self.dev),
                .service(Self.dev, followed: true, retries: false), .service(Self.py4e, followed: false, retries: true),
            ])
        #expect(
            down.notice(for: 2, new: false, fetched: now, now: now)
                == "swapi.dev and swapi.py4e.com did not answer 12 s ago: answering from the SWAPI data built in "
                + "(recorded \(BundledCatalog.recorded)); asked again in 48 s, or at once on a refresh")
        let one = AnswerPlan(
            Self.asked, services: [Self.dev, Self.py4e], mode: .normal, fallback: true, hasCache: true,
            down: [Self.dev.key: since],
            now: now)
        #expect(
            one.sources == [
                .service(Self.py4e, followed: true, retries: true), .cache(Self.dev), .cache(Self.py4e),
                .builtInData(Self.dev), .service(Self.dev, followed: false, retries: false),
            ], "the other first, then what stands in")
        var cached = AnswerPlan(
            Self.asked, services: [Self.copy], mode: .normal, fallback: true, hasCache: true,
            down: [Self.copy.key: since], now: now
        )
        #expect(
            Self.steps(&cached, [Self.failed(0, .notCached(url: Self.url))]) == [.ask([0]), .ask([1])],
            "its cache holds nothing: the copy is asked again")
        let strict = AnswerPlan(
            Self.asked, services: [Self.dev, Self.py4e], mode: .normal, fallback: false, hasCache: true, down: both,
            now: now)
        #expect(
            strict.sources
                == [
                    .service(Self.dev, followed: true, retries: false),
                    .service(Self.py4e, followed: false, retries: true),
                ],
            "nothing else can answer: asked")
        let first = AnswerPlan(
            Self.asked, services: [Self.dev, Self.py4e], mode: .normal, fallback: false, hasCache: true,
            down: [Self.dev.key: since],
            now: now)
        #expect(
            first.sources == [
                .service(Self.py4e, followed: true, retries: true), .service(Self.dev, followed: false, retries: false),
            ], "asked last")
        for (mode, at) in [(CachePolicy.Mode.refresh, now), (.normal, since.addingTimeInterval(60))] {
            let asked = AnswerPlan(
                Self.asked, services: [Self.dev], mode: mode, fallback: true, hasCache: true,
                down: [Self.dev.key: since], now: at)
            #expect(asked.sources.first == .service(Self.dev, followed: false, retries: true), "\(mode), \(at)")
        }
        #expect(Outage.isRecent(since, now: since.addingTimeInterval(59)))
        #expect(!Outage.isRecent(since, now: since.addingTimeInterval(60)))
        #expect(!Outage.isRecent(since, now: since.addingTimeInterval(-1)), "a clock set back")
    }

    /// A message that names no URL names what was asked (issue 49).
    @Test(arguments: [
        (Question.page(3, search: nil), "page 3 of the species"),
        (.page(2, search: "an"), "page 2 of the species matching 'an'"),
        (.species(search: nil, limit: nil), "the species"),
        (.species(search: "an", limit: 5), "the first 5 species matching 'an'"),
        (.one(.name("Human")), "'Human'"), (.one(.id(3)), "species 3"),
        (.related(.id(3)), "what species 3 is related to"),
    ])
    func aQuestionIsNamed(question: Question, phrase: String) {
        #expect(question.phrase == phrase)
    }

    /// A run whose clock ran out while another run held the lock asks no
    /// service, and says so, never "cancelled" or "offline"; one whose clock
    /// ran out before it could ask says that.
    @Test func outOfTimeIsSaidAsItHappened() {
        var waited = AnswerPlan(
            Self.asked, services: [Self.copy], mode: .normal, fallback: false, hasCache: true, waited: 1, timeout: 1)
        let error = Fault.outOfTime("127.0.0.1:9", asked: "page 2 of the species", seconds: 1, waited: 1)
        #expect(Self.steps(&waited, []) == [.fail(error)])
        #expect(
            SpeciesError(error).description
                == "the 1 s timeout ran out while another run asked 127.0.0.1:9 the same")
        #expect(SpeciesError(error).kind == .unavailable && SpeciesError(error).setting == .timeout)
        var standIn = AnswerPlan(
            Self.asked, services: [Self.dev], mode: .normal, fallback: true, hasCache: false, waited: 2, timeout: 2)
        #expect(Self.steps(&standIn, []) == [.ask([1])])
        #expect(
            standIn.notice(for: 1, new: false, fetched: Date(), now: Date())
                == "the 2 s timeout ran out while another run asked swapi.dev the same: answering from the SWAPI data "
                + "built in (recorded \(BundledCatalog.recorded))")
        var late = AnswerPlan(
            Self.asked, services: [Self.dev, Self.py4e], mode: .normal, fallback: false, hasCache: false)
        let unasked = Fault.outOfTime(
            "swapi.dev and swapi.py4e.com", asked: "page 2 of the species", seconds: 15, waited: nil)
        #expect(late.start(deadlinePassed: true) == .fail(unasked))
        #expect(
            SpeciesError(unasked).description
                == "the 15 s timeout left no time to ask swapi.dev and swapi.py4e.com for page 2 of the species")
        var offline = AnswerPlan(Self.asked, services: [Self.dev], mode: .offline, fallback: true, hasCache: false)
        _ = offline.start()
        #expect(offline.notice(for: 0, new: false, fetched: Date(), now: Date())?.hasPrefix("offline: ") == true)
    }
}
