import Foundation
import Testing
import TestSupport

@testable import SpeciesKit

@Suite("Pages fetched at once")
struct ConcurrentPagesTests {
    let diagnostics = RecordingDiagnostics()

    private func names(_ transport: any HTTPTransport, concurrency: Int = 6, search: String? = nil) async throws -> [String] {
        let client = SpeciesClient(root: .swapi, transport: transport, diagnostics: diagnostics, pageConcurrency: concurrency)
        var names: [String] = []
        try await client.forEachPage(from: APIRoot.swapi.speciesURL(search: search)) { page in
            names += page.results.compactMap(\.name)
        }
        return names
    }

    private static func expected(_ count: Int) -> [String] {
        (1...count).map { "Species \($0)" }
    }

    @Test(arguments: [nil, "an"])
    func theRecordedAPIGivesTheSameSpeciesEitherWay(search: String?) async throws {
        let concurrent = try await names(try StubTransport.recordedSWAPI(), search: search)
        let serial = try await names(try StubTransport.recordedSWAPI(), concurrency: 1, search: search)
        #expect(concurrent == serial)
        #expect(concurrent.count == (search == nil ? 37 : 17))
    }

    @Test func atMostSixPagesAreInFlightAndAllArriveInOrder() async throws {
        let api = SyntheticAPI(species: 200)
        #expect(try await names(api) == Self.expected(200))
        #expect(api.mostInFlight == 6)
        #expect(api.requests.count == 20)
        #expect(Set(api.requests).count == 20, "no page is fetched twice")
    }

    @Test func serialMeansOneAtATime() async throws {
        let api = SyntheticAPI(species: 50)
        #expect(try await names(api, concurrency: 1) == Self.expected(50))
        #expect(api.mostInFlight == 1)
    }

    @Test func pagesArriveInAPIOrderEvenWhenLaterOnesComeFirst() async throws {
        let api = SyntheticAPI(species: 60)
        let late = FunctionTransport { request in
            if request.url.query == "page=2" { try await Task.sleep(nanoseconds: 100_000_000) }
            return try await api.send(request)
        }
        var order: [Int] = []
        let client = SpeciesClient(root: .swapi, transport: late, diagnostics: diagnostics)
        try await client.forEachPage(from: APIRoot.swapi.speciesURL()) { page in
            order.append(page.results.first?.id ?? 0)
        }
        #expect(order == [1, 11, 21, 31, 41, 51])
    }

    @Test func aPlanTheLinksDoNotFollowFallsBackToTheLinks() async throws {
        let api = SyntheticAPI(
            species: 30,
            nextLinks: [1: "https://swapi.dev/api/species/?page=2&cursor=b", 2: "https://swapi.dev/api/species/?page=3&cursor=c"])
        #expect(try await names(api) == Self.expected(30))
        #expect(api.requests.last == "https://swapi.dev/api/species/?page=3&cursor=c")
    }

    @Test func aPageWhosePreviousLinkDiffersEndsTheConcurrentPart() async throws {
        let api = SyntheticAPI(species: 60, previousLinks: [3: "https://swapi.dev/api/species/?page=9"])
        #expect(try await names(api) == Self.expected(60))
    }

    @Test func aNextLinkThatLeavesThePlanIsFollowedInstead() async throws {
        let api = SyntheticAPI(species: 60, nextLinks: [2: "https://swapi.dev/api/species/?page=5"])
        let names = try await names(api)
        #expect(names == Self.expected(20) + (41...60).map { "Species \($0)" })
    }

    @Test func aCountTooHighStopsWhereTheLinksStop() async throws {
        let api = SyntheticAPI(species: 37, count: 55)
        #expect(try await names(api) == Self.expected(37))
        #expect(diagnostics.warnings == ["the API counted 55 species but sent 37, from https://swapi.dev/api/species/"])
    }

    @Test func aCountTooLowIsFollowedPastThePlan() async throws {
        let api = SyntheticAPI(species: 45, count: 20)
        #expect(try await names(api) == Self.expected(45))
    }

    @Test func aFailingPageStopsAfterThePagesBeforeIt() async throws {
        let api = SyntheticAPI(species: 60, failing: [3])
        var delivered: [String] = []
        let client = SpeciesClient(root: .swapi, transport: api, diagnostics: diagnostics)
        let error = await speciesError {
            try await client.forEachPage(from: APIRoot.swapi.speciesURL()) { delivered += $0.results.compactMap(\.name) }
        }
        #expect(error == .httpStatus(500, url: URL(string: "https://swapi.dev/api/species/?page=3")!))
        #expect(delivered == Self.expected(20))
    }

    @Test func aCountOfIntMaxNeitherOverflowsNorPlans() async throws {
        let first = SpeciesPage(count: Int.max, next: "https://swapi.dev/api/species/?page=2", previous: nil,
                                results: Array(repeating: StarWarsSpecies(name: "x"), count: 10))
        #expect(PagePlan(first: first, next: URL(string: "https://swapi.dev/api/species/?page=2")!, maxPages: 500) == nil)
        let api = SyntheticAPI(species: 25, count: Int.max)
        #expect(try await names(api) == Self.expected(25))
        let output = CapturedOutput()
        let context = CommandContext(
            client: SpeciesClient(root: .swapi, transport: api, diagnostics: diagnostics), output: output, diagnostics: diagnostics)
        try await ListCommand().run(context)
        #expect(diagnostics.notes.last == "page 1 of \(Int.max / 10 + 1), \(Int.max) species; use --page 2 or --all-pages")
    }

    @Test(arguments: [(36, nil), (37, 4), (10, nil), (200, 20)] as [(Int, Int?)])
    func thePlanFollowsCountAndPageSize(count: Int, lastPage: Int?) {
        let first = SpeciesPage(count: count, next: "https://swapi.dev/api/species/?page=2", previous: nil,
                                results: Array(repeating: StarWarsSpecies(name: "x"), count: 10))
        let plan = PagePlan(first: first, next: URL(string: "https://swapi.dev/api/species/?page=2")!, maxPages: 500)
        #expect(plan?.lastPage == (count == 36 ? 4 : lastPage))
    }

    @Test func thePlanKeepsOtherQueryItemsAsWritten() throws {
        let first = SpeciesPage(count: 17, next: nil, previous: nil, results: Array(repeating: StarWarsSpecies(), count: 10))
        let next = try #require(URL(string: "https://swapi.dev/api/species/?search=Yoda%27s&page=2"))
        let plan = try #require(PagePlan(first: first, next: next, maxPages: 500))
        #expect(plan.url(page: 1)?.absoluteString == "https://swapi.dev/api/species/?search=Yoda%27s&page=1")
        #expect(PagePlan(first: first, next: URL(string: "https://swapi.dev/api/species/?page=3")!, maxPages: 500) == nil)
        #expect(PagePlan(first: first, next: URL(string: "https://swapi.dev/api/species/?offset=10")!, maxPages: 500) == nil)
    }
}
