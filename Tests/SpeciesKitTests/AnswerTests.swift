import Foundation
import Testing
import TestSupport

@testable import SpeciesKit

/// What a library user gets of each answer: its source, a `SpeciesError`
/// for every failure, and no request to any host but its services'.
@Suite("Answers as a library user gets them")
struct AnswerTests {
    let folder = Fixtures.temporaryFolder("answers")
    let clock = TestClock()

    private func client(
        _ transport: StubTransport, roots: [APIRoot] = [.swapi], offline: Bool = false, maxAge: Double = 86400
    ) -> SpeciesClient {
        SpeciesClient(
            configuration: .init(
                roots: roots, retries: 0,
                cache: CachePolicy(directory: folder, maxAge: maxAge, mode: offline ? .offline : .normal)),
            transport: transport, clock: clock)
    }

    @Test func eachAnswerSaysItsSource() async throws {
        let recorded = try StubTransport.recordedSWAPI()
        #expect(try await client(recorded).page().source == .service(.swapi))
        let down = StubTransport { _ in throw TransportError(.unknownHost, url: .swapiSpecies, detail: "unknown host") }
        // Stale: the service is asked, cannot answer, and its cache stands in.
        let cached = try await client(down, maxAge: 0).page()
        if case .cache(let root, let fetched) = cached.source {
            #expect(root == .swapi && abs(fetched.timeIntervalSinceNow) < 600)
        } else {
            Issue.record("\(cached.source)")
        }
        let builtIn = try await client(down).species(.id(3))
        #expect(builtIn.source == .builtInData(recorded: "2026-11-21") && builtIn.value.name == "Wookie")
        #expect(try await client(down, offline: true).allSpecies().source == .builtInData(recorded: "2026-11-21"))
    }

    /// The URL case built directly, bypassing `SpeciesQuery(_:roots:)`:
    /// refused before any request, a species URL of another service or not.
    @Test(arguments: [
        "http://example.com/api/planets/1/", "http://127.0.0.1:8001/api/species/3/", "https://swapi.dev/api/planets/1/",
    ])
    func aURLOfNoServiceOfTheClientIsRefusedUnasked(url: String) async throws {
        let transport = try StubTransport.recordedSWAPI()
        let query = SpeciesQuery.url(try #require(URL(string: url)))
        for client in [client(transport), client(transport, roots: APIRoot.publicServices)] {
            await #expect(throws: SpeciesError.notASpeciesURL(url, expected: "https://swapi.dev/api/species/<id>/")) {
                _ = try await client.species(query)
            }
            await #expect(throws: SpeciesError.self) { _ = try await client.speciesAndRelated(query) }
        }
        #expect(transport.requests.isEmpty)
    }

    /// Every failure is a `SpeciesError`, cancellation too: a `catch`
    /// needs no other case.
    @Test func aCancelledAnswerIsASpeciesError() async throws {
        let client = client(StubTransport { request in try await StubTransport.Reply.hang.answer(request) })
        let task = Task { () -> SpeciesError? in
            do throws(SpeciesError) {
                _ = try await client.allSpecies()
                return nil
            } catch {
                return error
            }
        }
        task.cancel()
        #expect(await task.value == .cancelled)
    }
}

extension URL {
    fileprivate static let swapiSpecies = URL(string: "https://swapi.dev/api/species/")!
}
