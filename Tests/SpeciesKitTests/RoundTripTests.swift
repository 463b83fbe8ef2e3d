import Foundation
import Testing
import TestSupport

@testable import SpeciesKit

/// `list --all-pages` asks for every page it expects at once (issue 12):
/// as many as the cache's copy of page 1 says, else as many as the SWAPI
/// data built into species fill. The stub holds the first requests until a
/// round trip's worth have come, so a client that waits for page 1 first
/// stalls, and the test says so.
@Suite("All pages in one round trip")
struct RoundTripTests {
    let diagnostics = RecordingDiagnostics()
    let cacheFolder = Fixtures.temporaryFolder("round-trip")

    private func client(
        _ transport: any HTTPTransport, cached: Bool = false, maxAge: Double = 86_400, serial: Bool = false
    ) -> SpeciesClient {
        SpeciesClient.stubbed(transport, diagnostics: diagnostics) { configuration in
            configuration.serial = serial
            if cached { configuration.cache = CachePolicy(directory: cacheFolder, maxAge: maxAge) }
        }
    }

    @Test(arguments: [(nil, 4, 37), ("an", 2, 17), ("wook", 1, 1)])
    func coldEveryPageTheBuiltInDataFillsIsAskedAtOnce(search: String?, pages: Int, species: Int) async throws {
        let recorded = try StubTransport.recordedSWAPI(firstRound: pages)
        #expect(try await client(recorded).allSpecies(search: search).value.count == species)
        #expect(!recorded.stalled, "one round trip")
        #expect(recorded.requests.count == pages, "\(recorded.urls)")
    }

    @Test func aStaleCacheIsRevalidatedInOneRoundTrip() async throws {
        defer { try? FileManager.default.removeItem(at: cacheFolder) }
        let recorded = try StubTransport.recordedSWAPI()
        let revalidated = RecordedValues<URL>()
        // An ETag on every answer, and 304 to a request that sends it back.
        let conditional = { @Sendable (request: HTTPRequest) async throws -> HTTPResponse in
            let etag = "\"\(request.url.absoluteString.count)\""
            if request.headers["If-None-Match"] == etag {
                revalidated.append(request.url)
                return HTTPResponse(status: 304, body: Data())
            }
            var response = try await recorded.send(request)
            response.headers["etag"] = etag
            return response
        }
        _ = try await client(StubTransport(conditional), cached: true).allSpecies()
        let gate = StubTransport(firstRound: 4, conditional)
        #expect(try await client(gate, cached: true, maxAge: 0).allSpecies().value.count == 37)
        #expect(!gate.stalled)
        #expect(revalidated.all.count == 4, "every page asked with If-None-Match, and 304 each")
    }

    @Test func theCachesCountWinsOverTheBuiltInData() async throws {
        defer { try? FileManager.default.removeItem(at: cacheFolder) }
        let api = StubTransport.synthetic(species: 60)
        #expect(try await client(api, cached: true).allSpecies().value.count == 60)
        #expect(api.requests.count == 6, "4 guessed, then the 2 that page 1's count adds: \(api.urls)")

        let gate = StubTransport(firstRound: 6) { try await api.send($0) }
        #expect(try await client(gate, cached: true, maxAge: 0).allSpecies().value.count == 60)
        #expect(!gate.stalled)
        #expect(api.requests.count == 12)
    }

    @Test func pagesPastTheEndAreDroppedAndTheir404sAreNoError() async throws {
        let api = StubTransport.synthetic(species: 15)
        #expect(try await client(api).allSpecies().value.map(\.name) == (1...15).map { "Species \($0)" })
        #expect(
            Set(api.urls) == Set((1...4).map(StubTransport.syntheticURL)),
            "pages 3 and 4 were guessed, and answered 404")
        #expect(diagnostics.warnings.isEmpty)
    }

    @Test func serialStillWaitsForEachPage() async throws {
        let api = StubTransport.synthetic(species: 37)
        #expect(try await client(api, serial: true).allSpecies().value.count == 37)
        #expect(api.mostInFlight == 1)
        #expect(api.urls == (1...4).map(StubTransport.syntheticURL))
    }
}
