import Foundation
import Testing
import TestSupport

@testable import SpeciesKit

@Suite("Finding a species for show")
struct LookupTests {
    static let emptyPage = StubTransport.Reply.json(Data(#"{"count":0,"next":null,"previous":null,"results":[]}"#.utf8))

    private func find(_ query: String, _ transport: StubTransport) async throws -> StarWarsSpecies {
        try await SpeciesClient.stubbed(transport).species(SpeciesQuery(query, roots: [.swapi])).value
    }

    private func failure(_ query: String, _ transport: StubTransport) async -> Fault? {
        await fault { _ = try await find(query, transport) }
    }

    @Test func aPartialNameFoundByTheAPIsSearchTakesOneRequest() async throws {
        let transport = try StubTransport.recordedSWAPI()
        #expect(try await find("wook", transport).name == "Wookie")
        #expect(transport.urls == ["https://swapi.dev/api/species/?search=wook"])
    }

    @Test func namesMatchCaseInsensitively() async throws {
        let wook = try Fixtures.data("swapi/species-search-wook-page-1.json")
        let transport = try StubTransport.recordedSWAPI(overrides: [
            "https://swapi.dev/api/species/?search=WOOKIE": .json(wook)
        ])
        #expect(try await find("WOOKIE", transport).id == 3)
    }

    @Test(arguments: ["3", " 3 ", "https://swapi.dev/api/species/3/"])
    func byIdOrURL(query: String) async throws {
        let transport = try StubTransport.recordedSWAPI()
        #expect(try await find(query, transport).name == "Wookie")
        #expect(transport.urls == ["https://swapi.dev/api/species/3/"])
    }

    /// Issue 43: a search that answers nothing, where the listing of the
    /// same service holds the name, is no answer from that service.
    @Test func anEmptySearchTheListingDisprovesIsNoAnswer() async throws {
        let search = "https://swapi.dev/api/species/?search=Wookie"
        let transport = try StubTransport.recordedSWAPI(overrides: [search: Self.emptyPage])
        #expect(await failure("Wookie", transport) == .incomplete(url: URL(string: search)!, .missed("Wookie")))
        #expect(SpeciesError(.incomplete(url: URL(string: search)!, .missed("Wookie"))).kind == .badAnswer)
    }

    /// Issue 43: a species URL names its service, which is asked first.
    @Test func aURLNamesItsServiceWhichIsAskedFirst() async throws {
        let transport = try StubTransport.recordedSWAPI()
        let roots = [APIRoot.swapi, APIRoot("https://swapi.py4e.com/api/")!]
        let client = SpeciesClient.stubbed(transport) { $0.roots = roots }
        let wookie = try await client.species(SpeciesQuery("http://swapi.py4e.com/api/species/3", roots: roots))
        #expect(wookie.value.url == "https://swapi.py4e.com/api/species/3/" && wookie.source == .service(roots[1]))
        #expect(transport.urls == ["https://swapi.py4e.com/api/species/3/"])
    }

    @Test func anUnknownIdIsNotFound() async throws {
        let error = await failure("99", try StubTransport.recordedSWAPI())
        #expect(error == .notFound(what: "species 99", url: URL(string: "https://swapi.dev/api/species/99/")!))
    }

    @Test func severalPartialMatchesAreAmbiguous() async throws {
        let error = await failure("an", try StubTransport.recordedSWAPI())
        guard case .ambiguousName("an", let matches)? = error else {
            Issue.record("expected an ambiguous name, got \(String(describing: error))")
            return
        }
        #expect(matches.count == 17)
        #expect(matches.prefix(3) == ["Human", "Rodian", "Trandoshan"])
    }

    @Test func noMatchSuggestsTheClosestNames() async throws {
        let transport = try StubTransport.recordedSWAPI(overrides: [
            "https://swapi.dev/api/species/?search=wookiee": Self.emptyPage
        ])
        let error = await failure("wookiee", transport)
        #expect(error == .noSuchName("wookiee", suggestions: ["Wookie"]))
        #expect(error?.description == "no species is named 'wookiee'; did you mean 'Wookie'?")
        #expect(transport.requests.count == 5)
    }

    @Test(arguments: ["dor kel", "KEL,DOR", "kel  dor"])
    func everyWordOfTheNameCountsAsSearchReadsThem(words: String) async throws {
        let kelDor = try Fixtures.data("swapi/species-26.json")
        let page = Data(
            (#"{"count":1,"next":null,"previous":null,"results":["# + String(decoding: kelDor, as: UTF8.self) + "]}")
                .utf8)
        let transport = try StubTransport.recordedSWAPI(overrides: [
            Dialect.drf.listingURL(APIRoot.swapi, search: words).absoluteString: .json(page)
        ])
        #expect(try await find(words, transport).name == "Kel Dor")
    }

    @Test func anExactMatchBeatsPartialOnes() throws {
        let species = ["Dugong", "Dug", "Dugster", "Kel Dor"].map {
            StarWarsSpecies(url: Fixtures.speciesURL, name: $0)
        }
        #expect(try NameMatcher.match("DUG", in: species)?.name == "Dug")
        #expect(try NameMatcher.match("gong", in: species)?.name == "Dugong")
        #expect(try NameMatcher.match("dor kel", in: species)?.name == "Kel Dor")
        #expect(throws: Fault.ambiguousName("dug", matches: ["Dugong", "Dugster"])) {
            _ = try NameMatcher.match("dug", in: species.filter { $0.name != "Dug" })
        }
        #expect(try NameMatcher.match("zzz", in: species) == nil)
    }

    static let searched = URL(string: "https://swapi.dev/api/species/?search=x")!

    /// Issue 43: an empty search, read against the same source's listing.
    @Test(arguments: [
        ("Kel Dor", Fault.incomplete(url: Self.searched, .missed("Kel Dor"))),
        ("dor kel", .incomplete(url: Self.searched, .missed("dor kel"))),
        ("dug", .incomplete(url: Self.searched, .missed("dug"))),
        ("Dugg", .noSuchName("Dugg", suggestions: ["Dug", "Dugong"])),
        ("zzz", .noSuchName("zzz", suggestions: [])),
    ])
    func anEmptySearchIsReadAgainstTheListing(name: String, verdict: Fault) {
        let listing = ["Dugong", "Dug", "Dugster", "Kel Dor"].map {
            StarWarsSpecies(url: Fixtures.speciesURL, name: $0)
        }
        #expect(NameMatcher.miss(name, searchedAt: Self.searched, listing: listing) == verdict)
    }
}

@Suite("Edit distance")
struct EditDistanceTests {
    @Test(arguments: [
        ("wookiee", "wookie", 1), ("kitten", "sitting", 3), ("", "abc", 3), ("abc", "", 3), ("same", "same", 0),
    ])
    func distance(a: String, b: String, expected: Int) {
        #expect(EditDistance.between(a, b) == expected)
    }

    @Test func suggestsOnlyCloseNamesNearestFirst() {
        let names = ["Wookie", "Ewok", "Hutt", "Human"]
        #expect(EditDistance.closest(to: "wookiee", among: names) == ["Wookie"])
        #expect(EditDistance.closest(to: "humt", among: names) == ["Hutt", "Human"])
        #expect(EditDistance.closest(to: "zzzzzzzz", among: names) == [])
    }
}
