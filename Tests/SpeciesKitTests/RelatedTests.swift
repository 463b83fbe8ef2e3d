import Foundation
import Synchronization
import Testing
import TestSupport

@testable import SpeciesKit

@Suite("show --related")
struct RelatedTests {
    let output = CapturedOutput()
    let diagnostics = RecordingDiagnostics()

    private func show(_ query: String, json: Bool = false, transport: any HTTPTransport) async throws {
        let client = SpeciesClient(root: .swapi, transport: transport, diagnostics: diagnostics)
        try await ShowCommand(query: query, json: json, related: true)
            .run(CommandContext(client: client, output: output, diagnostics: diagnostics))
    }

    /// Species 3 as recorded, with `change` applied to its JSON object.
    private static func wookie(_ change: (inout [String: Any]) -> Void) throws -> StubTransport.Reply {
        var object = try #require(try JSONSerialization.jsonObject(with: Fixtures.data("swapi/species-3.json")) as? [String: Any])
        change(&object)
        return .json(try JSONSerialization.data(withJSONObject: object))
    }

    @Test func theDetailTextThenAHomeworldPeopleAndFilmsInEpisodeOrder() async throws {
        try await show("wook", transport: try StubTransport.recordedSWAPI())
        #expect(
            output.text == (try Fixtures.text("golden/show/3.txt")) + """

                Homeworld: Kashyyyk
                People: Chewbacca, Tarfful
                Films: Revenge of the Sith, A New Hope, The Empire Strikes Back, Return of the Jedi

                """)
    }

    @Test func aLinkThatAnswers404IsUnknownNotAFailure() async throws {
        let transport = try StubTransport.recordedSWAPI(overrides: [
            "https://swapi.dev/api/species/3/": try Self.wookie { object in
                object["films"] = ["https://swapi.dev/api/films/7/"] + (object["films"] as? [String] ?? [])
            }
        ])
        try await show("3", transport: transport)
        #expect(output.text.hasSuffix(
            "Films: Revenge of the Sith, A New Hope, The Empire Strikes Back, Return of the Jedi, unknown (not found)\n"))
    }

    @Test func jsonGainsOneKeyAndKeepsTheOthers() async throws {
        let transport = try StubTransport.recordedSWAPI(overrides: [
            "https://swapi.dev/api/species/3/": try Self.wookie { object in
                object["films"] = (object["films"] as? [String] ?? []) + ["https://swapi.dev/api/films/7/"]
            }
        ])
        try await show("3", json: true, transport: transport)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(output.text.utf8)) as? [String: Any])
        let related = try #require(object["related"] as? [String: Any])
        #expect(related["homeworld"] as? String == "Kashyyyk")
        #expect(related["people"] as? [String] == ["Chewbacca", "Tarfful"])
        let films = try #require(related["films"] as? [Any])
        #expect(films.compactMap { $0 as? String } == ["Revenge of the Sith", "A New Hope", "The Empire Strikes Back", "Return of the Jedi"])
        #expect(films.last is NSNull)
        #expect(object["average_height"] as? Int == 210)
        #expect(object["films"] as? [String] != nil)
        #expect(Set(object.keys) == Set(SpeciesJSONTests.keys + ["related"]))
    }

    @Test func noHomeworldIsNullInJSONAndNoneInText() async throws {
        let transport = try StubTransport.recordedSWAPI(overrides: [
            "https://swapi.dev/api/species/4/": .json(Data(#"{"name":"Rodian","homeworld":null,"people":[],"films":[],"url":"https://swapi.dev/api/species/4/"}"#.utf8))
        ])
        try await show("4", transport: transport)
        #expect(output.text.hasSuffix("\n\nHomeworld: none\nPeople: none\nFilms: none\n"))
        let json = CapturedOutput()
        let client = SpeciesClient(root: .swapi, transport: transport, diagnostics: diagnostics)
        try await ShowCommand(query: "4", json: true, related: true).run(CommandContext(client: client, output: json, diagnostics: diagnostics))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.text.utf8)) as? [String: Any])
        let related = try #require(object["related"] as? [String: Any])
        #expect(related["homeworld"] is NSNull)
        #expect(related["people"] as? [String] == [])
    }

    @Test func offlineWhatTheSnapshotLacksIsSaidSo() async throws {
        try await show("6", transport: SnapshotTransport(root: .swapi, diagnostics: diagnostics))
        #expect(output.text.hasSuffix("""

            Homeworld: unknown
            People: unknown (not available offline)
            Films: The Phantom Menace, Attack of the Clones, Revenge of the Sith, The Empire Strikes Back, Return of the Jedi

            """))
    }

    @Test func aLinkOffTheAPIsHostIsRefused() async throws {
        let transport = try StubTransport.recordedSWAPI(overrides: [
            "https://swapi.dev/api/species/3/": try Self.wookie { $0["homeworld"] = "https://evil.example/api/planets/14/" }
        ])
        let error = await speciesError { try await show("3", transport: transport) }
        #expect(error?.exitCode == 65)
        #expect(output.text.isEmpty)
        #expect(!transport.requests.contains { $0.host == "evil.example" })
    }

    @Test func aFailingLinkFailsTheCommandWithNothingPrinted() async throws {
        let transport = try StubTransport.recordedSWAPI(overrides: [
            "https://swapi.dev/api/people/13/": .json(Data("<html>".utf8), status: 503)
        ])
        let error = await speciesError { try await show("3", transport: transport) }
        #expect(error?.exitCode == 69)
        #expect(output.text.isEmpty)
    }

    @Test func atMostSixAtOnceWithProgress() async throws {
        let recorded = try StubTransport.recordedSWAPI()
        let flight = Mutex((now: 0, most: 0))
        let transport = FunctionTransport { request in
            flight.withLock { $0.now += 1; $0.most = max($0.most, $0.now) }
            defer { flight.withLock { $0.now -= 1 } }
            // Long enough for the requests to overlap.
            try await Task.sleep(nanoseconds: 10_000_000)
            return try await recorded.send(request)
        }
        try await show("1", transport: transport)
        #expect(flight.withLock { $0.most } == SpeciesClient.defaultPageConcurrency)
        #expect(output.text.hasSuffix("""

            Homeworld: Coruscant
            People: Dormé, Dooku, Bail Prestor Organa, Jocasta Nu
            Films: The Phantom Menace, Attack of the Clones, Revenge of the Sith, A New Hope, The Empire Strikes Back, Return of the Jedi

            """))
        #expect(diagnostics.progress.contains("fetching related resources 11 of 11…"))
        #expect(diagnostics.progress.last == "(ended)")
    }
}

@Suite("Progress messages")
struct ProgressTests {
    let output = CapturedOutput()
    let diagnostics = RecordingDiagnostics()

    private func run(_ command: (CommandContext) async throws -> Void) async throws {
        let client = SpeciesClient(root: .swapi, transport: try StubTransport.recordedSWAPI(), diagnostics: diagnostics)
        try await command(CommandContext(client: client, output: output, diagnostics: diagnostics))
    }

    @Test func everyPageSaysWhereItStandsThenEndsBeforeTheOutput() async throws {
        try await run(ListCommand(allPages: true).run)
        let progress = diagnostics.progress
        #expect(progress.first == "fetching page 1…")
        #expect(Set(progress.dropFirst().dropLast()) == ["fetching page 2 of 4…", "fetching page 3 of 4…", "fetching page 4 of 4…"])
        #expect(progress.last == "(ended)")
    }

    @Test func onePageAndOneSpecies() async throws {
        try await run(ListCommand(page: 2).run)
        #expect(diagnostics.progress == ["fetching page 2…", "(ended)"])
        try await run(ShowCommand(query: "3").run)
        #expect(diagnostics.progress.suffix(2) == ["looking up '3'…", "(ended)"])
    }
}
