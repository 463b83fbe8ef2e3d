import Foundation
import Synchronization
import Testing
import TestSupport

@testable import SpeciesKit

/// `list --all-pages` asks for every page it expects at once (issue 12):
/// as many as the cache's copy of page 1 says, else as many as the SWAPI
/// data built into species fill. `RoundTripGate` holds requests until a
/// round trip's worth have come, so a client that waits for page 1 first
/// stalls, and the test says so.
@Suite("All pages in one round trip")
struct RoundTripTests {
    let diagnostics = RecordingDiagnostics()
    let cacheFolder = FileManager.default.temporaryDirectory.appendingPathComponent(
        "species-round-trip-\(UUID().uuidString)")

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
        let recorded = try StubTransport.recordedSWAPI()
        let gate = RoundTripGate(recorded, width: pages)
        #expect(try await client(gate).allSpecies(search: search).count == species)
        #expect(!gate.stalled, "one round trip")
        #expect(recorded.requests.count == pages, "\(recorded.requests)")
    }

    @Test func aStaleCacheIsRevalidatedInOneRoundTrip() async throws {
        defer { try? FileManager.default.removeItem(at: cacheFolder) }
        let api = ConditionalAPI(try StubTransport.recordedSWAPI())
        _ = try await client(api, cached: true).allSpecies()
        let gate = RoundTripGate(api, width: 4)
        #expect(try await client(gate, cached: true, maxAge: 0).allSpecies().count == 37)
        #expect(!gate.stalled)
        #expect(api.revalidated == 4, "every page asked with If-None-Match, and 304 each")
    }

    @Test func theCachesCountWinsOverTheBuiltInData() async throws {
        defer { try? FileManager.default.removeItem(at: cacheFolder) }
        let api = SyntheticAPI(species: 60)
        #expect(try await client(api, cached: true).allSpecies().count == 60)
        #expect(api.requests.count == 6, "4 guessed, then the 2 that page 1's count adds: \(api.requests)")

        let gate = RoundTripGate(api, width: 6)
        #expect(try await client(gate, cached: true, maxAge: 0).allSpecies().count == 60)
        #expect(!gate.stalled)
        #expect(api.requests.count == 12)
    }

    @Test func pagesPastTheEndAreDroppedAndTheir404sAreNoError() async throws {
        let api = SyntheticAPI(species: 15)
        #expect(try await client(api).allSpecies().map(\.name) == (1...15).map { "Species \($0)" })
        #expect(Set(api.requests) == Set((1...4).map(SyntheticAPI.url)), "pages 3 and 4 were guessed, and answered 404")
        #expect(diagnostics.warnings.isEmpty)
    }

    @Test func serialStillWaitsForEachPage() async throws {
        let api = SyntheticAPI(species: 37)
        #expect(try await client(api, serial: true).allSpecies().count == 37)
        #expect(api.mostInFlight == 1)
        #expect(api.requests == (1...4).map(SyntheticAPI.url))
    }
}

/// Adds an ETag to every answer of `base`, and answers 304 to a request
/// that sends it back.
private final class ConditionalAPI: HTTPTransport {
    private let base: any HTTPTransport
    private let count = Mutex(0)

    init(_ base: any HTTPTransport) {
        self.base = base
    }

    var revalidated: Int { count.withLock { $0 } }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let etag = "\"\(request.url.absoluteString.count)\""
        if request.headers["If-None-Match"] == etag {
            count.withLock { $0 += 1 }
            return HTTPResponse(status: 304, body: Data())
        }
        var response = try await base.send(request)
        response.headers["etag"] = etag
        return response
    }
}
