import Foundation
import Testing

@testable import SpeciesKit

/// Who answers, in what order, and what each failure means, as a table: no
/// transport, clock or server.
@Suite("Who answers")
struct AnswerPlanTests {
    static let dev = APIRoot.swapi, py4e = APIRoot("https://swapi.py4e.com/api/")!
    static let copy = APIRoot("http://127.0.0.1:9/api/")!
    static let url = URL(string: "https://swapi.dev/api/species/?page=2")!

    @Test func theServicesThenTheCacheOfEachThenTheBuiltInData() {
        let plan = AnswerPlan(
            services: [Self.copy, Self.dev, Self.py4e], mode: .normal, fallback: true, hasCache: true)
        #expect(
            plan.sources == [
                .service(Self.copy, followed: true), .service(Self.dev, followed: true),
                .service(Self.py4e, followed: false), .cache(Self.copy), .cache(Self.dev), .cache(Self.py4e),
                .builtInData(Self.dev),
            ])
    }

    @Test func withoutAFallbackOnlyTheServices() {
        let plan = AnswerPlan(services: [Self.dev, Self.py4e], mode: .refresh, fallback: false, hasCache: true)
        #expect(plan.sources == [.service(Self.dev, followed: true), .service(Self.py4e, followed: false)])
    }

    @Test func theBuiltInDataStandsInForSWAPIsServicesOnly() {
        let plan = AnswerPlan(services: [Self.copy], mode: .normal, fallback: true, hasCache: false)
        #expect(plan.sources == [.service(Self.copy, followed: false)])
    }

    @Test func offlineTheCacheOfEachThenTheBuiltInDataForSWAPIsServicesOnly() {
        let plan = AnswerPlan(services: [Self.copy, Self.py4e], mode: .offline, fallback: true, hasCache: true)
        #expect(plan.sources == [.cache(Self.copy), .cache(Self.py4e), .builtInData(Self.py4e)])
        let copy = AnswerPlan(services: [Self.copy], mode: .offline, fallback: true, hasCache: true)
        #expect(copy.sources == [.cache(Self.copy)])
    }

    /// Every failure is an answer, or no answer from that source.
    @Test(arguments: [
        (
            Fault.noSuchPage(5, pages: 4, search: nil),
            AnswerPlan.Step.answer(.noSuchPage(5, pages: 4, search: nil))
        ),
        (.notFound(what: "species 99", url: url), .answer(.notFound(what: "species 99", url: url))),
        (.noSuchName("wookiee", suggestions: ["Wookie"]), .answer(.noSuchName("wookiee", suggestions: ["Wookie"]))),
        (.cancelled, .fail(.cancelled)),
        (.notASpeciesURL("x", expected: "y"), .fail(.notASpeciesURL("x", expected: "y"))),
        (.tooLarge(url: url, .bytes(100)), .ask(1)), (.tooLarge(url: url, .pages(500)), .ask(1)),
        (.unreachable(TransportError(.other, url: url, detail: "a transport's own")), .ask(1)),
        (.incomplete(url: url, .notASpecies("'Tatooine'")), .ask(1)),
        (.invalidResponse(url: url, .formChanged(to: "swapi.tech's", from: "swapi.dev's")), .ask(1)),
        (.badLink(url: url, link: "x", .loops), .ask(1)), (.httpStatus(500, url: url), .ask(1)),
        (.notCached(url: url), .ask(1)),
    ])
    func aFailureIsAnAnswerOrNoAnswerFromThatSource(error: Fault, step: AnswerPlan.Step) {
        let plan = AnswerPlan(services: [Self.dev, Self.py4e], mode: .normal, fallback: false, hasCache: false)
        let failures = [ServiceFailure(service: "swapi.dev", error: error)]
        #expect(plan.next(after: 0, failed: error, failures: failures, deadlinePassed: false) == step)
    }

    @Test func theServicesTheDeadlineLeavesNoTimeForAreNotAsked() {
        let plan = AnswerPlan(services: [Self.dev, Self.py4e], mode: .normal, fallback: true, hasCache: true)
        let timedOut = Fault.unreachable(TransportError(.timedOut(seconds: 1), url: Self.url, detail: "t"))
        let failures = [ServiceFailure(service: "swapi.dev", error: timedOut)]
        #expect(plan.next(after: 0, failed: timedOut, failures: failures, deadlinePassed: true) == .ask(2))
    }

    @Test func whenNoneIsLeftTheErrorNamesWhatFailed() {
        let down = Fault.httpStatus(503, url: Self.url)
        let one = [ServiceFailure(service: "swapi.dev", error: down)]
        let alone = AnswerPlan(services: [Self.dev], mode: .normal, fallback: false, hasCache: false)
        #expect(alone.next(after: 0, failed: down, failures: one, deadlinePassed: false) == .fail(down))
        let two = one + [ServiceFailure(service: "swapi.py4e.com", error: down)]
        let both = AnswerPlan(services: [Self.dev, Self.py4e], mode: .normal, fallback: false, hasCache: false)
        #expect(
            both.next(after: 1, failed: down, failures: two, deadlinePassed: false) == .fail(.noServiceAnswered(two)))
        let copy = AnswerPlan(services: [Self.copy], mode: .normal, fallback: true, hasCache: true)
        #expect(
            copy.next(after: 1, failed: .notCached(url: Self.url), failures: one, deadlinePassed: false)
                == .fail(.unanswered(down, host: "swapi.dev")))
    }
}
