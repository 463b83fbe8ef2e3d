import Foundation
import Testing
import TestSupport

@testable import SpeciesKit

@Suite("Client and pagination")
struct SpeciesClientTests {
    let root = APIRoot.swapi
    let diagnostics = RecordingDiagnostics()

    private func client(_ transport: any HTTPTransport, serial: Bool = false) -> SpeciesClient {
        .stubbed(transport, diagnostics: diagnostics) { $0.serial = serial }
    }

    /// A step is told only to diagnostics that read them: for the others,
    /// none is made.
    @Test func tracesAreMadeOnlyForThoseWhoReadThem() async throws {
        let unread = RecordingDiagnostics(readsTraces: false)
        _ = try await SpeciesClient.stubbed(try StubTransport.recordedSWAPI(), diagnostics: unread).allSpecies()
        #expect(unread.traces.isEmpty)
        _ = try await client(try StubTransport.recordedSWAPI()).allSpecies()
        #expect(diagnostics.traces.count == 6, "the page plan, four requests and the dialect: \(diagnostics.traces)")
    }

    @Test func followsNextLinksToTheLastPage() async throws {
        let transport = try StubTransport.recordedSWAPI()
        let species = try await client(transport).allSpecies()
        #expect(species.value.count == 37)
        #expect(species.value.map(\.id) == Array(1...37))
        // Asked at once, so in any order; each once.
        #expect(
            transport.urls.sorted() == [
                "https://swapi.dev/api/species/", "https://swapi.dev/api/species/?page=2",
                "https://swapi.dev/api/species/?page=3", "https://swapi.dev/api/species/?page=4",
            ])
    }

    @Test func followsASearchAcrossItsPages() async throws {
        let transport = try StubTransport.recordedSWAPI()
        let species = try await client(transport).allSpecies(search: "an")
        #expect(species.value.count == 17)
        #expect(species.value.first?.name == "Human" && species.value.last?.name == "Pau'an")
        #expect(transport.urls.last == "https://swapi.dev/api/species/?search=an&page=2")
    }

    @Test func resolvesARelativeNextLink() async throws {
        let transport = StubTransport.synthetic(species: 12, nextLinks: [1: "?page=2"])
        let species = try await client(transport).allSpecies()
        #expect(species.value.compactMap(\.id) == Array(1...12))
    }

    @Test func aStatusOtherThan2xxIsAnError() async throws {
        let url = try #require(URL(string: "https://swapi.dev/api/species/99/"))
        let notFound = await fault { _ = try await client(try StubTransport.recordedSWAPI()).species(.id(99)) }
        #expect(notFound == .notFound(what: "species 99", url: url))
        #expect(
            notFound?.description
                == "species 99 does not exist (https://swapi.dev/api/species/99/ answered 404 Not Found)")
        let transport = StubTransport([url.absoluteString: .json(Data("{}".utf8), status: 500)])
        let serverError = await fault { _ = try await client(transport).species(.id(99)) }
        #expect(serverError == .httpStatus(500, url: url))
        #expect(serverError?.description == "https://swapi.dev/api/species/99/ answered HTTP 500 Internal Server Error")
    }

    @Test(
        "a body that is not SWAPI JSON names the URL and the problem",
        arguments: [
            (
                "bad/html-error.html",
                "the body is not JSON (it begins '<!DOCTYPE html> <html lang=\"en\"> <head><title>502 Bad Gatewa…')"
            ),
            ("bad/truncated-page.json", "the body is not valid JSON (it may be cut short)"),
            ("bad/results-not-array.json", "'results' is not an array"),
        ])
    func invalidBodies(fixture: String, problem: String) async throws {
        let url = Dialect.drf.listingURL(root)
        let transport = StubTransport([url.absoluteString: .json(try Fixtures.data(fixture))])
        let error = await fault { _ = try await client(transport).page() }
        #expect(error?.description == "\(url) did not answer with SWAPI JSON: \(problem)")
    }

    @Test func anEmptyBodyIsInvalid() async {
        let url = Dialect.drf.listingURL(root)
        let error = await fault {
            _ = try await client(StubTransport([url.absoluteString: .json(Data())])).page()
        }
        #expect(error == .invalidResponse(url: url, .notJSON(begins: "")))
        #expect(error?.description == "\(url) did not answer with SWAPI JSON: the body is empty")
    }

    @Test func anObjectThatIsNotASpeciesIsInvalid() async throws {
        let url = URL(string: "https://swapi.dev/api/species/3/")!
        let transport = StubTransport([url.absoluteString: .json(Data(#"{"detail":"Not found"}"#.utf8))])
        let error = await fault { _ = try await client(transport).species(.id(3)) }
        #expect(error == .invalidResponse(url: url, .missing(path: "url")))
    }

    @Test func aTransportFailureIsUnreachable() async {
        let url = Dialect.drf.listingURL(root)
        let error = await fault {
            _ = try await client(StubTransport([url.absoluteString: .failure(.connectionRefused)])).page()
        }
        #expect(
            error == .unreachable(TransportError(.connectionRefused, url: url, detail: "stubbed connection refused")))
    }

    @Test func wrongTypedFieldsAreWarnedAboutByNameAndField() async throws {
        let url = Dialect.drf.listingURL(root)
        let transport = StubTransport([url.absoluteString: .json(try Fixtures.data("bad/wrong-types.json"))])
        let page = try await client(transport).page()
        #expect(page.value.species.count == 2)
        #expect(diagnostics.warnings.count == 10)
        #expect(
            diagnostics.warnings.first
                == "species 'Wookie': field 'classification' has the wrong JSON type; treated as absent")
        #expect(
            diagnostics.warnings.contains(
                "species 'Wookie': field 'created' is not a valid UTC timestamp; treated as absent"))
    }

    /// An element that is no species is never skipped: the page is no
    /// whole answer, and its warnings go with it.
    @Test func anElementThatIsNoSpeciesMakesThePageNoAnswer() async throws {
        let url = Dialect.drf.listingURL(root)
        let transport = StubTransport([url.absoluteString: .json(try Fixtures.data("bad/results-with-a-number.json"))])
        let error = await fault { _ = try await client(transport).page() }
        #expect(error == .incomplete(url: url, .notASpecies("results[1]")))
        #expect(diagnostics.warnings.isEmpty)
    }

    @Test func aPageSaysHowManyPagesThereAre() async throws {
        let first = try await client(try StubTransport.recordedSWAPI()).page()
        #expect(
            first.value.number == 1 && first.value.count == 37 && first.value.pageCount == 4
                && first.value.species.count == 10)
        let last = try await client(try StubTransport.recordedSWAPI()).page(4)
        #expect(last.value.pageCount == 4 && last.value.species.count == 7)
    }
}

@Suite("Pages fetched at once")
struct ConcurrentPagesTests {
    let diagnostics = RecordingDiagnostics()

    private func names(_ transport: any HTTPTransport, serial: Bool = false, search: String? = nil) async throws
        -> [String]
    {
        let client = SpeciesClient.stubbed(transport, diagnostics: diagnostics) { $0.serial = serial }
        return try await client.allSpecies(search: search).value.compactMap(\.name)
    }

    private static func expected(_ count: Int) -> [String] {
        (1...count).map { "Species \($0)" }
    }

    @Test(arguments: [nil, "an"])
    func theRecordedAPIGivesTheSameSpeciesEitherWay(search: String?) async throws {
        let concurrent = try await names(try StubTransport.recordedSWAPI(), search: search)
        let serial = try await names(try StubTransport.recordedSWAPI(), serial: true, search: search)
        #expect(concurrent == serial)
        #expect(concurrent.count == (search == nil ? 37 : 17))
    }

    @Test(.timeLimit(.minutes(1)))
    func atMostSixPagesAreInFlightAndAllArriveInOrder() async throws {
        // Page 1 comes at once: until it has said how many pages there are,
        // the walk asks for as many as the data built into species fill.
        let api = StubTransport.synthetic(species: 200, firstRound: 6, passes: { $0.query == nil })
        #expect(try await names(api) == Self.expected(200))
        #expect(api.mostInFlight == 6 && !api.stalled, "six wait together, and never more")
        #expect(api.urls.count == 20)
        #expect(Set(api.urls).count == 20, "no page is fetched twice")
    }

    @Test func serialMeansOneAtATime() async throws {
        let api = StubTransport.synthetic(species: 50)
        #expect(try await names(api, serial: true) == Self.expected(50))
        #expect(api.mostInFlight == 1)
    }

    /// Page 2 is answered only once page 3 has been: they come out of order.
    @Test(.timeLimit(.minutes(1)))
    func pagesArriveInAPIOrderEvenWhenLaterOnesComeFirst() async throws {
        let api = StubTransport.synthetic(species: 60)
        let (pageThreeAnswered, answer) = AsyncStream<Void>.makeStream()
        let answered = RecordedValues<String>()
        let late = StubTransport { request in
            if request.url.query == "page=2" {
                for await _ in pageThreeAnswered { break }
            }
            let response = try await api.send(request)
            answered.append(request.url.query ?? "page=1")
            if request.url.query == "page=3" { answer.yield() }
            return response
        }
        let ids = try await SpeciesClient.stubbed(late).allSpecies().value.compactMap(\.id)
        #expect(ids == Array(1...60))
        let order = answered.all
        #expect(try #require(order.firstIndex(of: "page=3")) < (try #require(order.firstIndex(of: "page=2"))))
    }

    /// Pages are asked in the listing's dialect; a `next` link of another
    /// dialect, or past the next page, is the service's fault, and nothing
    /// past it is asked.
    @Test(arguments: ["https://swapi.dev/api/species/?page=3&cursor=c", "https://swapi.dev/api/species/?page=5"])
    func aNextLinkThatIsNotTheNextPageIsNoAnswer(link: String) async throws {
        let api = StubTransport.synthetic(species: 60, nextLinks: [2: link])
        let error = await fault { _ = try await names(api, serial: true) }
        #expect(error == .badLink(url: URL(string: StubTransport.syntheticURL(page: 2))!, link: link, .skips))
        #expect(api.urls == (1...2).map(StubTransport.syntheticURL))
    }

    /// `previous` links are not read.
    @Test func aPreviousLinkDoesNotMatter() async throws {
        let api = StubTransport.synthetic(species: 60, previousLinks: [3: "https://swapi.dev/api/species/?page=9"])
        #expect(try await names(api) == Self.expected(60))
    }

    /// Where the pages stop short of the count, the listing is not whole.
    @Test func aCountTooHighIsNoAnswer() async throws {
        let error = await fault { _ = try await names(StubTransport.synthetic(species: 37, count: 55)) }
        #expect(
            error
                == .incomplete(url: URL(string: "https://swapi.dev/api/species/?page=4")!, .pageLength(7, expected: 10))
        )
    }

    /// Where they go on past it, too.
    @Test func aCountTooLowIsNoAnswer() async throws {
        let error = await fault { _ = try await names(StubTransport.synthetic(species: 45, count: 20)) }
        #expect(
            error == .incomplete(url: URL(string: "https://swapi.dev/api/species/?page=2")!, .nextLink(true, pages: 2)))
    }

    /// The pages before it are dropped with it: a listing is whole or none.
    @Test func aFailingPageFailsTheWholeListing() async throws {
        let api = StubTransport.synthetic(species: 60, failing: [3])
        let error = await fault {
            _ = try await SpeciesClient.stubbed(api, diagnostics: diagnostics).allSpecies()
        }
        #expect(error == .httpStatus(500, url: URL(string: "https://swapi.dev/api/species/?page=3")!))
        #expect(
            diagnostics.traces.contains(
                "dropping what swapi.dev sent: https://swapi.dev/api/species/ (10 species), https://swapi.dev/api/species/?page=2 (10 species)"
            ))
    }

    @Test func aCountOfIntMaxNeitherOverflowsNorPlansTooFar() async throws {
        let refused = Fault.tooLarge(url: URL(string: "https://swapi.dev/api/species/")!, .pages(500))
        let api = StubTransport.synthetic(species: 25, count: Int.max)
        #expect(await fault { _ = try await names(api) } == refused)
        #expect(api.urls.count < 20, "not the 500 pages the count implies")
        let page = SpeciesClient.stubbed(StubTransport.synthetic(species: 25, count: Int.max))
        #expect(await fault { _ = try await page.page() } == refused)
    }

    @Test(
        "a link names a page of the listing when it has the listing's form",
        arguments: [
            ("https://swapi.dev/api/species/?page=3", "https://swapi.dev/api/species/?page=2", 3),
            ("https://swapi.dev/api/species/", "https://swapi.dev/api/species/?page=2", 1),
            (
                "https://swapi.dev/api/species/?search=dor+kel&page=2",
                "https://swapi.dev/api/species/?search=dor%20kel&page=2", 2
            ),
            ("https://swapi.dev/api/species/?page=3&cursor=x", "https://swapi.dev/api/species/?page=2", nil),
            ("https://swapi.dev/api/planets/?page=3", "https://swapi.dev/api/species/?page=2", nil),
            (
                "https://www.swapi.tech/api/species?page=2&limit=10",
                "https://www.swapi.tech/api/species?page=1&limit=10&expanded=true", 2
            ),
            ("https://swapi.dev/api/species/?page=0", "https://swapi.dev/api/species/?page=2", nil),
            ("https://swapi.dev/api/species/?page=99999999999999999999", "https://swapi.dev/api/species/?page=2", nil),
            // A page number is SWAPI's whole number (`SWAPINumber`), nothing Int reads.
            ("https://swapi.dev/api/species/?page=%2B3", "https://swapi.dev/api/species/?page=2", nil),
            ("https://swapi.dev/api/species/?page=03", "https://swapi.dev/api/species/?page=2", 3),
        ] as [(String, String, Int?)])
    func listingLinks(link: String, pattern: String, page: Int?) throws {
        #expect(
            ListingLink.page(of: try #require(URL(string: link)), inFormOf: try #require(URL(string: pattern))) == page)
    }
}
