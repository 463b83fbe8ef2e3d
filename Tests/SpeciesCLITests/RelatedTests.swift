import Foundation
import SpeciesKit
import Synchronization
import Testing
import TestSupport

@testable import species

@Suite("show --related")
struct RelatedTests {
    let output = CapturedOutput()
    let diagnostics = RecordingDiagnostics()

    private func show(
        _ query: SpeciesQuery, json: Bool = false, transport: any HTTPTransport,
        configure: (inout SpeciesClient.Configuration) -> Void = { _ in }
    ) async throws {
        try await ShowCommand(query: query, format: json ? .json : .text, related: true)
            .run(.stubbed(transport, output: output, diagnostics: diagnostics, configure: configure))
    }

    /// Species 3 as recorded, with `change` applied to its JSON object.
    private static func wookie(_ change: (inout [String: Any]) -> Void) throws -> StubTransport.Reply {
        var object = try #require(
            try JSONSerialization.jsonObject(with: Fixtures.data("swapi/species-3.json")) as? [String: Any])
        change(&object)
        return .json(try JSONSerialization.data(withJSONObject: object))
    }

    static let wookieRelated = """

        Homeworld: Kashyyyk
        People: Chewbacca, Tarfful
        Films: Revenge of the Sith, A New Hope, The Empire Strikes Back, Return of the Jedi

        """

    @Test func theDetailTextThenAHomeworldPeopleAndFilmsInEpisodeOrder() async throws {
        try await show(.name("wook"), transport: try StubTransport.recordedSWAPI())
        #expect(output.text == (try Fixtures.text("golden/show/3.txt")) + Self.wookieRelated)
    }

    @Test func aLinkThatAnswers404IsUnknownNotAFailure() async throws {
        let transport = try StubTransport.recordedSWAPI(overrides: [
            "https://swapi.dev/api/species/3/": try Self.wookie { object in
                object["films"] = ["https://swapi.dev/api/films/7/"] + (object["films"] as? [String] ?? [])
            }
        ])
        try await show(.id(3), transport: transport)
        #expect(
            output.text.hasSuffix(
                "Films: Revenge of the Sith, A New Hope, The Empire Strikes Back, Return of the Jedi, unknown (not found)\n"
            ))
        #expect(diagnostics.warnings.isEmpty)
    }

    @Test func jsonGainsOneKeyAndKeepsTheOthers() async throws {
        let transport = try StubTransport.recordedSWAPI(overrides: [
            "https://swapi.dev/api/species/3/": try Self.wookie { object in
                object["films"] = (object["films"] as? [String] ?? []) + ["https://swapi.dev/api/films/7/"]
            }
        ])
        try await show(.id(3), json: true, transport: transport)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(output.text.utf8)) as? [String: Any])
        let related = try #require(object["related"] as? [String: Any])
        #expect(related["homeworld"] as? String == "Kashyyyk")
        #expect(related["people"] as? [String] == ["Chewbacca", "Tarfful"])
        let films = try #require(related["films"] as? [Any])
        #expect(
            films.compactMap { $0 as? String } == [
                "Revenge of the Sith", "A New Hope", "The Empire Strikes Back", "Return of the Jedi",
            ])
        #expect(films.last is NSNull)
        #expect(object["average_height"] as? Int == 210)
        #expect(Set(object.keys) == Set(SpeciesJSONKeys.all + ["related"]))
    }

    @Test func noHomeworldIsNullInJSONAndNoneInText() async throws {
        let transport = try StubTransport.recordedSWAPI(overrides: [
            "https://swapi.dev/api/species/4/": .json(
                Data(
                    #"{"name":"Rodian","homeworld":null,"people":[],"films":[],"url":"https://swapi.dev/api/species/4/"}"#
                        .utf8))
        ])
        try await show(.id(4), transport: transport)
        #expect(output.text.hasSuffix("\n\nHomeworld: none\nPeople: none\nFilms: none\n"))
        let json = CapturedOutput()
        try await ShowCommand(query: .id(4), format: .json, related: true).run(
            .stubbed(transport, output: json, diagnostics: diagnostics))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.text.utf8)) as? [String: Any])
        let related = try #require(object["related"] as? [String: Any])
        #expect(related["homeworld"] is NSNull)
        #expect(related["people"] as? [String] == [])
    }

    @Test func offlineTheBuiltInDataNamesEverything() async throws {
        // SWAPI names Yoda's homeworld, planets/28, 'unknown'.
        try await show(.id(6), transport: StubTransport.script([])) {
            $0.cache.mode = .offline
            $0.fallback = true
        }
        #expect(
            output.text.hasSuffix(
                """

                Homeworld: unknown
                People: Yoda
                Films: The Phantom Menace, Attack of the Clones, Revenge of the Sith, The Empire Strikes Back, Return of the Jedi

                """))
    }

    @Test func aLinkIsReadForWhatItNamesAndFetchedUnderTheRoot() async throws {
        let transport = try StubTransport.recordedSWAPI(overrides: [
            "https://swapi.dev/api/species/3/": try Self.wookie {
                $0["homeworld"] = "https://evil.example/api/planets/14/"
            }
        ])
        try await show(.id(3), transport: transport)
        #expect(output.text.hasSuffix(Self.wookieRelated))
        #expect(!transport.requests.contains { $0.url.host == "evil.example" })
    }

    /// Issue 28: a link that fails, other than SWAPI's own 404, leaves the
    /// answer not whole; from a service alone, nothing is printed.
    @Test(
        arguments: [
            (
                StubTransport.Reply.json(Data("<html>".utf8), status: 503),
                "https://swapi.dev/api/people/13/ answered HTTP 503 Service Unavailable"
            ),
            (
                .json(Data("<html>".utf8)),
                "https://swapi.dev/api/people/13/ did not answer with SWAPI JSON: the body is not JSON (it begins '<html>')"
            ),
        ])
    func aLinkThatFailsIsNoAnswer(reply: StubTransport.Reply, error: String) async throws {
        let transport = try StubTransport.recordedSWAPI(overrides: ["https://swapi.dev/api/people/13/": reply])
        let thrown = await speciesError { try await show(.id(3), transport: transport) }
        #expect(thrown?.description == error)
        #expect(output.text.isEmpty && diagnostics.warnings.isEmpty)
    }

    @Test(.timeLimit(.minutes(1)))
    func atMostSixAtOnceWithProgress() async throws {
        // The species comes at once; its 11 links are then asked 6 at a time.
        let recorded = try StubTransport.recordedSWAPI()
        let barrier = StubTransport(firstRound: 6, passes: { $0.path.contains("/species/") }) {
            try await recorded.send($0)
        }
        try await show(.id(1), transport: barrier)
        #expect(barrier.mostInFlight == 6 && !barrier.stalled, "six wait together, and never more")
        #expect(
            output.text.hasSuffix(
                """

                Homeworld: Coruscant
                People: Dormé, Dooku, Bail Prestor Organa, Jocasta Nu
                Films: The Phantom Menace, Attack of the Clones, Revenge of the Sith, A New Hope, The Empire Strikes Back, Return of the Jedi

                """))
        #expect(diagnostics.progress.contains("fetching related resources 11 of 11…"))
        #expect(diagnostics.progress.last == "(ended)")
    }
}

/// The keys of the JSON object of a species, in order.
enum SpeciesJSONKeys {
    static let all = [
        "id", "name", "classification", "designation", "average_height", "skin_colors", "hair_colors",
        "eye_colors", "average_lifespan", "homeworld", "language", "people", "films", "created", "edited", "url",
    ]
}
