import Foundation
import Testing
import TestSupport

@testable import SpeciesKit

@Suite("SWAPI's dialects")
struct DialectTests {
    let root = APIRoot("http://127.0.0.1:9/api/")!

    private func listing(_ json: String) throws -> ListingBody {
        try SpeciesKitTests.listing(Data(json.utf8))
    }

    @Test func eachDialectAsksInItsOwnForm() {
        #expect(
            Dialect.drf.listingURL(root, page: 2, search: "dor kel").absoluteString
                == "http://127.0.0.1:9/api/species/?search=dor%20kel&page=2")
        #expect(
            Dialect.tech.listingURL(root, page: 2, search: nil).absoluteString
                == "http://127.0.0.1:9/api/species?page=2&limit=10&expanded=true")
        #expect(Dialect.info.listingURL(root, page: 2, search: nil).absoluteString == "http://127.0.0.1:9/api/species/")
        #expect(
            Dialect.drf.url(of: ResourceReference(.planets, 9), under: root).absoluteString
                == "http://127.0.0.1:9/api/planets/9/")
        #expect(
            Dialect.tech.url(of: ResourceReference(.planets, 9), under: root).absoluteString
                == "http://127.0.0.1:9/api/planets/9")
    }

    @Test func swapiTechSearchesForTheLongestTermItsMetacharactersEscaped() {
        #expect(
            Dialect.tech.techSearchURL(root, term: "dor").absoluteString == "http://127.0.0.1:9/api/species?name=dor")
        #expect(
            Dialect.tech.techSearchURL(root, term: "yoda's.*").absoluteString
                == "http://127.0.0.1:9/api/species?name=yoda%27s%5C.%5C%2A")
    }

    @Test(
        "SWAPI's own hosts, and only those",
        arguments: [
            ("https://swapi.dev/api/", Dialect.drf), ("https://SWAPI.py4e.com/api", .drf),
            ("https://www.swapi.tech/api/", .tech),
            ("https://swapi.tech/api/", .tech), ("https://swapi.info/api/", .info), ("https://swapi.dev/other/", nil),
            ("http://127.0.0.1:8000/api/", nil), ("https://swapi.dev.example.com/api/", nil),
        ] as [(String, Dialect?)])
    func publicHosts(root: String, dialect: Dialect?) throws {
        #expect(Dialect.ofPublicHost(try #require(APIRoot(root))) == dialect)
    }

    @Test func aDRFPage() throws {
        let page = try JSONDecoder().decode(ListingBody.self, from: Fixtures.data("swapi/species-page-2.json"))
        #expect(page.dialect == .drf && page.count == 37 && page.species.count == 10 && page.expanded)
        #expect(page.next == "https://swapi.dev/api/species/?page=3")
    }

    @Test func aSwapiTechPageExpandedOrNot() throws {
        let properties =
            #""properties":{"name":"Human","average_height":"180","homeworld":"https://www.swapi.tech/api/planets/9","url":"https://www.swapi.tech/api/species/1","created":"2025-03-17T10:34:01.234Z"}"#
        let expanded = try listing(
            #"{"message":"ok","total_records":37,"total_pages":4,"previous":null,"next":"http://h/api/species?page=2&limit=10","results":[{\#(properties),"uid":"1"}],"apiVersion":"1.0"}"#
        )
        #expect(expanded.dialect == .tech && expanded.expanded && expanded.count == 37)
        #expect(
            expanded.species.first?.name == "Human" && expanded.species.first?.averageHeight == 180
                && expanded.species.first?.id == 1)
        let summary = try listing(
            #"{"message":"ok","total_records":37,"total_pages":4,"previous":null,"next":null,"results":[{"uid":"1","name":"Human","url":"https://www.swapi.tech/api/species/1"}]}"#
        )
        #expect(summary.dialect == .tech && !summary.expanded && summary.issues.isEmpty)
        let search = try listing(#"{"message":"ok","result":[{\#(properties),"uid":"1"}]}"#)
        #expect(search.dialect == .tech && search.species.count == 1 && search.count == 1)
    }

    @Test func aSwapiInfoArray() throws {
        let page = try listing(
            "[\t{\"name\": \"Human\", \"url\": \"https://swapi.info/api/species/1\"},\n\t{\"name\": \"Droid\"}]")
        #expect(page.dialect == .info && page.species.map(\.name) == ["Human"] && page.notASpecies == "[1]")
    }

    /// An array is read a batch of elements at a time, a round of batches
    /// side by side (here more than one round); what is read, its order, and
    /// the place of the first element that is no species, are the same.
    @Test func aLongSwapiInfoArrayIsReadInBatches() throws {
        let count = ListingBody.batch * (ListingBody.round + 1) + 500
        let elements = (1...count).map { id in
            id == 1701
                ? #"{"name":"Nameless URL"}"# : #"{"name":"S\#(id)","url":"https://swapi.info/api/species/\#(id)"}"#
        }
        let page = try listing("[\n" + elements.joined(separator: ",\n\t") + "\n]\n")
        #expect(page.dialect == .info && page.count == count - 1 && page.notASpecies == "[1700]")
        #expect(page.species.map(\.id) == Array(1...1700) + Array(1702...count))
        let broken = Data(("[" + elements.joined(separator: ",") + ",{]").utf8)
        #expect(throws: Fault.invalidResponse(url: URL(string: "https://swapi.dev/api/species/")!, .malformed)) {
            _ = try ListingBody.read(broken, url: URL(string: "https://swapi.dev/api/species/")!).get()
        }
    }

    @Test(
        "the elements of an array, by their bytes",
        arguments: [
            ("[]", [String]?.some([])),
            (" [ 1 , \"a,]\" ,[2,[3]],{\"k\":\"}\"} ] ", ["1", "\"a,]\"", "[2,[3]]", "{\"k\":\"}\"}"]),
            (#"["\"],", null]"#, [#""\"],""#, "null"]), ("{}", nil), ("[1,]", nil), ("[,1]", nil), ("[1", nil),
            ("[1] x", nil), ("[1]]", nil), (#"["open]"#, nil),
        ])
    func arrayElements(json: String, elements: [String]?) {
        let data = Data(json.utf8)
        let found = JSONArray.elements(of: data)?.map { String(decoding: data[$0], as: UTF8.self) }
        #expect(found == elements)
    }

    @Test func detailsInEveryDialect() throws {
        let drf = try JSONDecoder().decode(
            DetailBody<StarWarsSpecies.Decoded>.self, from: Fixtures.data("swapi/species-3.json"))
        #expect(drf.value.species.name == "Wookie")
        let tech =
            #"{"message":"ok","result":{"properties":{"name":"Wookie","url":"https://www.swapi.tech/api/species/3"},"uid":"3"},"apiVersion":"1.0"}"#
        #expect(
            try JSONDecoder().decode(DetailBody<StarWarsSpecies.Decoded>.self, from: Data(tech.utf8)).value.species.id
                == 3)
        let film = #"{"message":"ok","result":{"properties":{"title":"A New Hope","episode_id":4}}}"#
        let hope = try JSONDecoder().decode(DetailBody<RelatedResource>.self, from: Data(film.utf8)).value
        #expect(hope.title == "A New Hope" && hope.episode == 4 && hope.kinds == [.films])
        let techSpecies = #"{"properties":{"name":"Wookie","url":"https://www.swapi.tech/api/species/3"},"uid":"3"}"#
        #expect(try JSONDecoder().decode(StarWarsSpecies.self, from: Data(techSpecies.utf8)).id == 3)
    }
}

@Suite("show's argument")
struct SpeciesQueryTests {
    let root = APIRoot("http://127.0.0.1:9/api/")!

    @Test(
        "a species URL of the API's origin, in any dialect's form",
        arguments: [
            "http://127.0.0.1:9/api/species/3/", "http://127.0.0.1:9/api/species/3",
            "http://127.0.0.1:9/api/species/3.json",
            "HTTP://127.0.0.1:9/api/species/3", "http://127.0.0.1:9/api/species/3/ ",
        ])
    func acceptedAsTheServiceWritesIt(text: String) throws {
        guard case .url(let url) = try SpeciesQuery(text, roots: [root]) else { return #expect(Bool(false)) }
        let path = text.trimmingCharacters(in: .whitespaces).dropFirst("http://127.0.0.1:9/api/".count)
        #expect(url.absoluteString == "http://127.0.0.1:9/api/" + path)
    }

    /// Issue 43: a species URL of a known service in any spelling is that
    /// species, as the service writes it.
    @Test(
        "a pasted URL of SWAPI's own, in any spelling, as its service writes it",
        arguments: [
            ("http://swapi.dev/api/species/3", "https://swapi.dev/api/species/3/"),
            ("https://SWAPI.DEV/api/species/3.json", "https://swapi.dev/api/species/3/"),
            ("http://swapi.info/api/species/3/", "https://swapi.info/api/species/3"),
            ("https://www.swapi.tech/api/species/3/", "https://www.swapi.tech/api/species/3"),
        ])
    func aPastedURLOfAKnownService(text: String, sent: String) throws {
        #expect(try SpeciesQuery(text, roots: APIRoot.publicServices) == .url(try #require(URL(string: sent))))
    }

    @Test(
        "anything else is not a species URL",
        arguments: [
            "http://127.0.0.1:9/api/planets/1/", "http://127.0.0.1:9/api/people/3/", "http://127.0.0.1:9/api/films/1/",
            "http://127.0.0.1:9/api/", "http://127.0.0.1:9/api/species/", "http://127.0.0.1:9/other/species/3/",
            "http://127.0.0.1:10/api/species/3/", "https://127.0.0.1:9/api/species/3/",
            "http://evil.example/api/species/3/",
            "http://127.0.0.1:9/api/species/3/?x=1", "http://127.0.0.1:9/api/species/3/planets/1/", "https://",
            "HTTP://127.0.0.1:9/api/SPECIES/3", "http://user:secret@127.0.0.1:9/api/species/3/",
            "http://127.0.0.1:9\\@evil.example/api/species/3/", "http://127.0.0.1:9/api/species/0/",
        ])
    func refused(text: String) {
        #expect(throws: SpeciesError.self) { _ = try SpeciesQuery(text, roots: [root]) }
        #expect(
            (try? SpeciesQuery(text, roots: [root])) == nil
                && (text.contains("\\") || text.contains("user:")
                    || (try? SpeciesQuery("http://x/", roots: [root])) == nil)
        )
    }

    @Test func digitsAreAnIdAndTheRestIsAName() throws {
        #expect(try SpeciesQuery(" 37 ", roots: [root]) == .id(37))
        #expect(try SpeciesQuery("dor kel", roots: [root]) == .name("dor kel"))
        // Issue 44: a number that is no id is no name either.
        for number in ["99999999999999999999", "0", "1.5", "-1", "+2", "1e3"] {
            #expect(throws: SpeciesError.self) { _ = try SpeciesQuery(number, roots: [root]) }
        }
        #expect(try SpeciesQuery("1st", roots: [root]) == .name("1st"))
    }
}

@Suite("When the API cannot answer")
struct FallbackTests {
    let diagnostics = RecordingDiagnostics()

    private func cache() -> CachePolicy {
        CachePolicy(directory: Fixtures.temporaryFolder("fallback"))
    }

    private func client(
        _ transport: any HTTPTransport, root: String = "https://swapi.dev/api/", cache: CachePolicy,
        fallback: Bool = true
    ) -> SpeciesClient {
        .stubbed(transport, diagnostics: diagnostics) { configuration in
            configuration.roots = [APIRoot(root)!]
            configuration.cache = cache
            configuration.fallback = fallback
        }
    }

    @Test(arguments: [
        TransportError.Kind.unknownHost, .connectionRefused, .timedOut, .connectionLost,
        .insecureConnection,
    ])
    func swapiDevsOwnDataStandsInWithANotice(kind: TransportError.Kind) async throws {
        let species = try await client(
            StubTransport { throw TransportError(kind, url: $0.url, detail: "it broke") }, cache: cache()
        ).allSpecies()
        #expect(species.value.count == 37)
        #expect(
            diagnostics.notes == [
                "swapi.dev did not answer (it broke): answering from the SWAPI data built in (recorded \(BundledCatalog.recorded))"
            ])
    }

    @Test(arguments: [503, 429, 500])
    func serverErrorsAfterRetriesFallBack(status: Int) async throws {
        let failing = StubTransport { _ in HTTPResponse(status: status, body: Data("<html>".utf8)) }
        #expect(try await client(failing, cache: cache()).species(.id(3)).value.name == "Wookie")
        #expect(diagnostics.notes.first?.hasPrefix("swapi.dev did not answer (HTTP \(status) ") == true)
    }

    @Test func aCaptivePortalFallsBack() async throws {
        let portal = StubTransport { _ in
            HTTPResponse(status: 200, body: Data("<!DOCTYPE html><title>Log in to the WiFi</title>".utf8))
        }
        #expect(try await client(portal, cache: cache()).page(2).value.species.first?.name == "Neimodian")
        #expect(diagnostics.notes.first?.hasPrefix("swapi.dev did not answer (its answer is not SWAPI JSON)") == true)
    }

    /// SWAPI's own 404, from a service whose species list answers.
    @Test func anAnswerIsNotAFailure() async throws {
        let error = await fault {
            _ = try await client(try StubTransport.recordedSWAPI(), cache: cache()).species(.id(99))
        }
        #expect(error == .notFound(what: "species 99", url: URL(string: "https://swapi.dev/api/species/99/")!))
        #expect(diagnostics.notes.isEmpty)
    }

    /// A service that answers 404 to everything has no species 99 either:
    /// it is not SWAPI, and the built-in data answers.
    @Test func a404FromAServiceWithoutASpeciesListIsNoAnswer() async throws {
        let notFound = StubTransport { _ in HTTPResponse(status: 404, body: Data(#"{"detail":"Not found"}"#.utf8)) }
        let error = await fault { _ = try await client(notFound, cache: cache()).species(.id(99)) }
        #expect(error == .notInBundledData(what: "species 99"))
        #expect(
            diagnostics.notes == [
                "swapi.dev did not answer (its species list answered HTTP 404 Not Found): answering from the SWAPI data built in (recorded \(BundledCatalog.recorded))"
            ])
    }

    @Test func theCacheOfAnyAgeComesFirstForAnyHost() async throws {
        let policy = cache()
        let recorded = try StubTransport.recordedSWAPI()
        let local = "https://swapi.dev/api/"
        _ = try await client(recorded, root: local, cache: policy).allSpecies()
        var stale = policy
        stale.maxAge = 0
        let down = StubTransport {
            throw TransportError(.connectionRefused, url: $0.url, detail: "connection refused")
        }
        let species = try await client(down, root: local, cache: stale).allSpecies()
        #expect(species.value.count == 37)
        #expect(diagnostics.notes.count == 1)
        #expect(
            diagnostics.notes.first?.hasPrefix(
                "swapi.dev did not answer (connection refused): answering from the cache, as fetched ") == true)
    }

    @Test func anotherHostsWithoutACacheFail() async throws {
        let down = StubTransport {
            throw TransportError(.connectionRefused, url: $0.url, detail: "connection refused")
        }
        let error = await fault {
            _ = try await client(down, root: "http://127.0.0.1:9/api/", cache: cache()).allSpecies()
        }
        #expect(
            error?.description
                == "could not reach http://127.0.0.1:9/api/species/: connection refused; the cache holds no answer from 127.0.0.1:9"
        )
    }

    @Test func noFallbackMeansTheError() async throws {
        let down = StubTransport { throw TransportError(.unknownHost, url: $0.url, detail: "unknown host") }
        let error = await fault { _ = try await client(down, cache: cache(), fallback: false).allSpecies() }
        #expect(error?.description == "could not reach https://swapi.dev/api/species/: unknown host")
    }

    /// The built-in data answers the whole listing, not the pages after
    /// the API's last.
    @Test func aListingTheAPIFailsPartWayIsTheBuiltInDatasWhole() async throws {
        let recorded = try StubTransport.recordedSWAPI()
        let failsAtPage3 = StubTransport { request in
            if request.url.query == "page=3" { return HTTPResponse(status: 503, body: Data()) }
            return try await recorded.send(request)
        }
        let names = try await client(failsAtPage3, cache: cache()).allSpecies().value.compactMap(\.name)
        #expect(names.count == 37 && Set(names).count == 37)
        #expect(names.prefix(3) == ["Human", "Droid", "Wookie"])
        #expect(
            diagnostics.notes == [
                "swapi.dev did not answer in full (HTTP 503 Service Unavailable, after 2 pages, which are dropped): "
                    + "answering from the SWAPI data built in (recorded \(BundledCatalog.recorded))"
            ])
    }

    /// A portal that redirects swapi.dev elsewhere is no answer either: the
    /// transport refuses the redirect (as URLSessionTransport does; the
    /// end-to-end tests follow real ones).
    @Test func aCaptivePortalsRedirectFallsBack() async throws {
        let portal = StubTransport { request in
            throw TransportError(
                .redirectRefused, url: request.url,
                detail: "it redirects to another origin (http://portal.example/login); not followed",
                location: "http://portal.example/login")
        }
        let species = try await client(portal, root: "http://swapi.dev/api/", cache: cache()).allSpecies()
        #expect(species.value.count == 37)
        #expect(
            diagnostics.notes == [
                "swapi.dev did not answer (it redirects to another origin (http://portal.example/login); not followed): "
                    + "answering from the SWAPI data built in (recorded \(BundledCatalog.recorded))"
            ])
        let strict = await fault {
            _ = try await client(portal, root: "http://swapi.dev/api/", cache: cache(), fallback: false).page()
        }
        #expect(
            strict
                == .redirected(
                    url: URL(string: "http://swapi.dev/api/species/")!, location: "http://portal.example/login"))
    }

    /// Pages that change dialect within one walk are no SWAPI answer: on
    /// swapi.dev, its data built into species stands in.
    @Test func aDialectChangeWithinAWalkFallsBack() async throws {
        let recorded = try StubTransport.recordedSWAPI()
        let changing = StubTransport { request in
            guard request.url.query == "page=2" else { return try await recorded.send(request) }
            let tech =
                #"{"message":"ok","total_records":37,"total_pages":4,"previous":null,"next":null,"results":[{"properties":{"name":"Human"},"uid":"1"}]}"#
            return HTTPResponse(status: 200, body: Data(tech.utf8))
        }
        #expect(try await client(changing, cache: cache()).allSpecies().value.count == 37)
        #expect(
            diagnostics.notes.first?.hasPrefix(
                "swapi.dev did not answer in full (its answer is not SWAPI JSON, after 1 page, which is dropped): answering from the SWAPI data"
            ) == true)
        let strict = await fault { _ = try await client(changing, cache: cache(), fallback: false).allSpecies() }
        #expect(
            strict
                == .invalidResponse(
                    url: URL(string: "https://swapi.dev/api/species/?page=2")!,
                    .dialectChanged(to: "swapi.tech's", from: "swapi.dev's")))
    }

    /// A service that answers in another dialect than its host's.
    @Test func answersThatFlipBetweenDialectsAreNoAnswer() async throws {
        let drf = try Fixtures.data("swapi/species-page-1.json")
        let tech = Data(
            #"{"message":"ok","total_records":37,"total_pages":4,"previous":null,"next":null,"results":[{"properties":{"name":"Human"},"uid":"1"}]}"#
                .utf8)
        let flips = RecordedValues<Int>()
        let flipping = StubTransport { _ in
            flips.append(0)
            return HTTPResponse(status: 200, body: flips.all.count % 2 == 1 ? tech : drf)
        }
        let error = await fault { _ = try await client(flipping, cache: cache(), fallback: false).page() }
        #expect(
            error
                == .invalidResponse(
                    url: URL(string: "https://swapi.dev/api/species/")!,
                    .dialectChanged(to: "swapi.tech's", from: "swapi.dev's")),
            "a known host speaks its own form")
    }
}

@Suite("Links")
struct ResourceReferenceTests {
    /// The one grammar of a link: what it names, and the root it is
    /// written under.
    @Test(
        "a link names a resource under a root, or nothing",
        arguments: [
            (
                "https://swapi.dev/api/species/3/", ResourceReference(.species, 3) as ResourceReference?,
                "https://swapi.dev/api/"
            ),
            ("https://www.swapi.tech/api/people/66", ResourceReference(.people, 66), "https://www.swapi.tech/api/"),
            ("https://swapi.info/api/planets/9.json", ResourceReference(.planets, 9), "https://swapi.info/api/"),
            ("HTTP://SWAPI.dev/api/films/007", ResourceReference(.films, 7), "HTTP://SWAPI.dev/api/"),
            (
                "http://127.0.0.1:8000/t1/api/species/37/", ResourceReference(.species, 37),
                "http://127.0.0.1:8000/t1/api/"
            ),
            ("people/13/", ResourceReference(.people, 13), ""),
            ("http://127.0.0.1:8000/api/films/7/?format=json", nil, ""),
            ("https://swapi.dev/api/species/3/#top", nil, ""),
            ("https://user:pw@swapi.dev/api/species/3/", nil, ""), ("https://swapi.dev\\@evil/api/species/3/", nil, ""),
            ("https://swapi.dev/api/species/3/extra/", nil, ""), ("https://www.swapi.tech/api/planets/null", nil, ""),
            ("https://swapi.dev/api/vehicles/4/", ResourceReference(.vehicles, 4), "https://swapi.dev/api/"),
            ("https://swapi.dev/api/spaceships/4/", nil, ""), ("https://swapi.dev/api/species/0/", nil, ""),
            ("https://swapi.dev/api/species/+3/", nil, ""), ("https://swapi.dev/api/species/3//", nil, ""),
            ("file:///api/species/3/", nil, ""), ("https://swapi.dev", nil, ""), ("", nil, ""), ("3", nil, ""),
            ("https://swapi.dev/api/species/99999999999999999999/", nil, ""), ("https:///api/species/3/", nil, ""),
        ])
    func parse(link: String, reference: ResourceReference?, root: String) {
        let parsed = ResourceReference.parse(link)
        #expect(parsed?.reference == reference)
        #expect(String(parsed?.root ?? "") == root)
    }

    /// SWAPI's numbers, one reading: decimal digits.
    @Test(
        "numbers are decimal digits",
        arguments: [
            ("210", 210 as Int?, 210 as Double?), ("007", 7, 7), ("1.5", nil, 1.5), ("+2", nil, nil), ("-5", nil, nil),
            ("1e3", nil, nil), ("0x10", nil, nil), ("٣", nil, nil), ("", nil, nil), ("1.", nil, nil), (".5", nil, nil),
            ("unknown", nil, nil), ("1234567890123456789", nil, 1.234_567_890_123_456_8e18),
        ])
    func numbers(text: String, whole: Int?, value: Double?) {
        #expect(SWAPINumber.whole(text) == whole)
        #expect(SWAPINumber.value(text) == value)
    }

    /// An object is of a kind when it bears no mark of another.
    @Test(
        "the kind of an object by its keys",
        arguments: [
            (["name", "classification", "url"], ResourceReference.Kind.species, true),
            (["name", "height", "mass", "url"], .species, false), (["name", "height", "mass"], .people, true),
            (["name", "classification"], .people, false), (["name", "url"], .people, true),
            (["title", "episode_id"], .films, true), (["name", "climate"], .species, false),
            (["name", "model", "vehicle_class"], .vehicles, true),
            (["name", "model", "vehicle_class"], .species, false),
            (["name", "MGLT"], .starships, true), (["name", "MGLT"], .vehicles, false),
        ])
    func kinds(keys: [String], kind: ResourceReference.Kind, owns: Bool) {
        #expect((kind.foreignMark(has: keys.contains) == nil) == owns)
    }
}
