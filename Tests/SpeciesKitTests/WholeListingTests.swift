import Foundation
import Testing
import TestSupport

@testable import SpeciesKit

/// The rule of whole listings (docs/cli.md, "One answer, one source") on
/// every path that reads one: swapi.dev at fault, swapi.py4e.com healthy,
/// both as recorded, and a clock the test drives.
@Suite("Whole listings, on every path")
struct WholeListingTests {
    let diagnostics = RecordingDiagnostics()
    let folder = Fixtures.temporaryFolder("whole")
    let clock = TestClock()
    static let dev = "https://swapi.dev/api/", py4e = "https://swapi.py4e.com/api/"

    /// swapi.dev's listing pages as `fault` rewrites their text (nil: as
    /// recorded); swapi.py4e.com's as recorded.
    private func services(_ fault: @escaping @Sendable (URL, String) -> String?) throws -> StubTransport {
        let recorded = try StubTransport.recordedSWAPI()
        return StubTransport { request in
            var response = try await recorded.send(request)
            let text = String(decoding: response.body, as: UTF8.self)
            if request.url.host == "swapi.dev", request.url.path.hasSuffix("/species"),
                let altered = fault(request.url, text)
            {
                response.body = Data(altered.utf8)
            }
            return response
        }
    }

    private func client(_ transport: StubTransport, roots: [String] = [dev, py4e]) -> SpeciesClient {
        SpeciesClient(
            configuration: .init(
                roots: roots.compactMap(APIRoot.init), cache: CachePolicy(directory: folder), fallback: false),
            transport: transport, diagnostics: diagnostics, clock: clock)
    }

    /// Every path that reads a listing, and what each answers with
    /// swapi.py4e.com's species: their URLs.
    private static let paths: [(String, @Sendable (SpeciesClient) async throws -> [String?])] = [
        ("--all-pages", { try await $0.allSpecies().value.map(\.url) }),
        ("--limit 22", { try await $0.allSpecies(limit: 22).value.map(\.url) }),
        ("--page 1", { try await $0.page(1).value.species.map(\.url) }),
        ("--page 2", { try await $0.page(2).value.species.map(\.url) }),
        ("--search an", { try await $0.allSpecies(search: "an").value.map(\.url) }),
        ("show wook", { [try await $0.species(.name("wook")).value.url] }),
    ]

    /// What `path` answers from swapi.py4e.com, whole: nothing of
    /// swapi.dev's pages is cached, and swapi.dev is not remembered.
    private func expectAnsweredByTheSecond(_ transport: StubTransport) async throws {
        for (path, read) in Self.paths {
            let urls = try await read(client(transport))
            #expect(!urls.isEmpty && urls.allSatisfy { $0?.hasPrefix(Self.py4e) == true }, "\(path): \(urls)")
            let expected = try await read(client(try StubTransport.recordedSWAPI(), roots: [Self.py4e]))
            #expect(urls == expected, "\(path): the right species, all of them")
        }
        let cache = ResponseCache(directory: folder)
        #expect(cache.read(URL(string: Self.dev + "species/")!) == nil)
        #expect(cache.read(URL(string: Self.dev + "species/?page=2")!) == nil)
        #expect(cache.rememberedServices().first?.remembered.service == Self.py4e)
    }

    /// Case 1: a page without a whole count, 0 or more.
    @Test(arguments: ["", #""count":null,"#, #""count":"37","#, #""count":-1,"#, #""count":1e400,"#])
    func aPageWithoutAUsableCountIsNoAnswer(count: String) async throws {
        let transport = try services { _, text in
            text.replacingOccurrences(of: #"{"count":37,"#, with: "{\(count)")
                .replacingOccurrences(of: #"{"count":17,"#, with: "{\(count)")
                .replacingOccurrences(of: #"{"count":1,"#, with: "{\(count)")
        }
        try await expectAnsweredByTheSecond(transport)
        let entries = ResponseCache(directory: folder).summary().entries
        let alone = await fault { _ = try await client(transport, roots: [Self.dev]).allSpecies() }
        #expect(alone?.kind == .badAnswer)
        #expect(
            alone?.description.hasPrefix("https://swapi.dev/api/species/ did not answer with SWAPI JSON: 'count' ")
                == true)
        #expect(ResponseCache(directory: folder).summary().entries == entries, "nothing of swapi.dev's")
    }

    /// Case 2: a `next` link that loops back, to its own page or off the
    /// origin: a failure of the service, named by the page that carries it.
    @Test(arguments: [
        ("https://swapi.dev/api/species/?page=1", LinkFault.loops),
        ("https://swapi.dev/api/species/?page=2", .loops),
        ("https://evil.example/api/species/?page=3", .leavesOrigin("https://swapi.dev")),
    ])
    func aBadNextLinkGivesWay(link: String, linkFault: LinkFault) async throws {
        let transport = try services { url, text in
            guard url.query == "page=2" else { return nil }
            return text.replacingOccurrences(
                of: #""next":"https://swapi.dev/api/species/?page=3""#, with: "\"next\":\"\(link)\"")
        }
        let species = try await client(transport).allSpecies()
        #expect(species.value.count == 37 && species.value.allSatisfy { $0.url.hasPrefix(Self.py4e) == true })
        let alone = await fault { _ = try await client(transport, roots: [Self.dev]).allSpecies() }
        #expect(alone == .badLink(url: URL(string: "https://swapi.dev/api/species/?page=2")!, link: link, linkFault))
    }

    /// Cases 3, 4 and 5: page 2 one species short, still linking on, for
    /// `--limit`, `--page` and every other path; and nothing of it is
    /// cached for a later run.
    @Test func aShortPageIsNoAnswerOnAnyPath() async throws {
        let transport = try services { url, text in
            guard url.query == "page=2",
                var page = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
            else { return nil }
            page["results"] = (page["results"] as? [Any]).map { Array($0.dropLast()) }
            return (try? JSONSerialization.data(withJSONObject: page)).map { String(decoding: $0, as: UTF8.self) }
        }
        let short = await fault { _ = try await client(transport, roots: [Self.dev]).page(2) }
        #expect(short?.description.contains("species/?page=2 is not whole") == true, "\(String(describing: short))")
        try await expectAnsweredByTheSecond(transport)
        let page = try await client(transport).page(2)
        #expect(page.value.number == 2 && page.value.pageCount == 4 && page.value.count == 37)
        for limit in [11, 22] {
            let error = await fault {
                _ = try await client(transport, roots: [Self.dev]).allSpecies(limit: limit)
            }
            #expect(error?.kind == .badAnswer, "--limit \(limit) reads page 2, which is short")
        }
        #expect(
            try await client(transport, roots: [Self.dev]).allSpecies(limit: 10).value.count == 10, "page 1 is whole")
    }

    /// Case 6: a service that ignores `?search=`, as a caching proxy that
    /// drops the query would, does not answer the search.
    @Test func anAnswerThatIgnoresTheSearchIsNoAnswer() async throws {
        let recorded = try StubTransport.recordedSWAPI()
        let transport = StubTransport { request in
            var asked = request
            if request.url.host == "swapi.dev", request.url.query?.contains("search") == true {
                asked.url = URL(string: "https://swapi.dev/api/species/")!
            }
            return try await recorded.send(asked)
        }
        let species = try await client(transport).allSpecies(search: "an")
        #expect(species.value.count == 17 && species.value.allSatisfy { $0.url.hasPrefix(Self.py4e) == true })
        let alone = await fault { _ = try await client(transport, roots: [Self.dev]).allSpecies(search: "an") }
        #expect(
            alone
                == .incomplete(
                    url: URL(string: "https://swapi.dev/api/species/?search=an")!, .unmatched("'Droid'", search: "an")))
    }

}
