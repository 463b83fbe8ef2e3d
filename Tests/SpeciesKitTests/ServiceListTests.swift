import Foundation
import Testing
import TestSupport

@testable import SpeciesKit

/// SWAPI's services, as recorded from swapi.dev, served under each host of
/// a list as that host would: its own links. A host in `failing` fails as
/// it says; every request is recorded with the pace it must keep.
private final class Services: HTTPTransport {
    private let recorded: StubTransport
    private let failing: [String: StubTransport.Reply]
    private let log = RecordedValues<(url: URL, pace: MinimumPace?)>()

    init(failing: [String: StubTransport.Reply] = [:]) throws {
        recorded = try StubTransport.recordedSWAPI()
        self.failing = failing
    }

    /// The requests to `host`, in order.
    func requests(to host: String) -> [URL] {
        log.all.map(\.url).filter { $0.host == host }
    }

    func paces(of host: String) -> [MinimumPace?] {
        log.all.filter { $0.url.host == host }.map(\.pace)
    }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        log.append((request.url, request.minimumPace))
        let host = request.url.host ?? ""
        switch failing[host] {
        case .failure(let kind)?:
            throw TransportError(kind, url: request.url, detail: "\(host) broke")
        case .response(let response)?:
            return response
        case nil:
            let own = "https://\(host)/"
            let asked = request.url.absoluteString.replacingOccurrences(of: own, with: "https://swapi.dev/")
            var response = try await recorded.send(HTTPRequest(url: URL(string: asked)!))
            response.body = Data(
                String(decoding: response.body, as: UTF8.self).replacingOccurrences(of: "https://swapi.dev/", with: own)
                    .utf8)
            return response
        }
    }
}

@Suite("SWAPI's services in turn")
struct ServiceListTests {
    let diagnostics = RecordingDiagnostics()
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("species-services-\(UUID().uuidString)")
    static let dev = "swapi.dev", py4e = "swapi.py4e.com"
    /// The budget of a test that is not about time: long enough for a
    /// machine that builds species beside the tests, as CI's does.
    static let patient = 120.0

    private func client(
        _ transport: any HTTPTransport, roots: [String] = [dev, py4e], retries: Int = 3,
        maxAge: Double = CachePolicy.defaultMaxAge,
        fallback: Bool = true, offline: Bool = false, cached: Bool = true, timeout: Double = Self.patient,
        telling diagnostics: RecordingDiagnostics? = nil
    ) -> SpeciesClient {
        SpeciesClient(
            configuration: .init(
                roots: roots.map { APIRoot("https://\($0)/api/")! }, timeout: timeout, retries: retries,
                cache: CachePolicy(
                    directory: cached ? folder : nil, maxAge: maxAge, mode: offline ? .offline : .normal),
                fallback: fallback),
            transport: transport, diagnostics: diagnostics ?? self.diagnostics)
    }

    @Test func byDefaultSWAPIsPublicServicesInOrder() {
        #expect(
            SpeciesClient().roots.map(\.url.absoluteString) == [
                "https://swapi.dev/api/", "https://swapi.py4e.com/api/", "https://www.swapi.tech/api/",
                "https://swapi.info/api/",
            ])
        #expect(SpeciesClient(configuration: .init(roots: [])).roots == APIRoot.publicServices)
        #expect(SpeciesClient(configuration: .init(roots: [.swapi, .swapi])).roots == [.swapi])
    }

    @Test(arguments: [
        StubTransport.Reply.failure(.unknownHost), .failure(.connectionRefused), .failure(.connectionLost),
        .failure(.insecureConnection),
        .failure(.timedOut(seconds: 3)), .response(HTTPResponse(status: 503, body: Data("<html>".utf8))),
        .response(HTTPResponse(status: 429, body: Data())),
        .response(HTTPResponse(status: 200, body: Data("<!DOCTYPE html><title>Log in to the WiFi</title>".utf8))),
        .response(HTTPResponse(status: 302, headers: ["Location": "http://portal.example/"], body: Data())),
    ])
    func aServiceThatCannotAnswerGivesWayAtOnce(failure: StubTransport.Reply) async throws {
        let services = try Services(failing: [Self.dev: failure])
        let page = try await client(services).page()
        #expect(page.species.first?.url == "https://swapi.py4e.com/api/species/1/")
        #expect(services.requests(to: Self.dev).count == 1, "no retry")
        #expect(diagnostics.notes.count == 1)
        #expect(diagnostics.notes.first?.hasPrefix("swapi.dev did not answer (") == true)
        #expect(diagnostics.notes.first?.hasSuffix("); answered by swapi.py4e.com") == true)
    }

    @Test func theNoticeNamesTheCause() async throws {
        let services = try Services(failing: [Self.dev: .failure(.insecureConnection)])
        _ = try await client(services).allSpecies()
        #expect(diagnostics.notes == ["swapi.dev did not answer (swapi.dev broke); answered by swapi.py4e.com"])
    }

    @Test func theTraceTellsEachStep() async throws {
        let services = try Services(failing: [Self.dev: .failure(.insecureConnection)])
        _ = try await client(services).allSpecies()
        let traces = diagnostics.traces
        #expect(
            traces.first
                == "page plan: pages 1 to 4 at once (as many as the SWAPI data built into species fills), then the rest that page 1 counts"
        )
        #expect(traces.contains("giving up on swapi.dev: swapi.dev broke"))
        #expect(
            traces.contains {
                $0.hasPrefix("GET https://swapi.dev/api/species/: failed after ")
                    && $0.hasSuffix(" ms: swapi.dev broke")
            })
        #expect(traces.contains("swapi.py4e.com answers in swapi.dev's form (drf)"))
        let pages = traces.filter { $0.hasPrefix("GET https://swapi.py4e.com/api/species/") }
        #expect(
            pages.count == 4 && pages.allSatisfy { $0.contains(": 200 OK, ") && $0.hasSuffix(" ms, from the network") },
            "\(traces)")
        let cached = RecordingDiagnostics()
        _ = try await client(services, roots: [Self.py4e], telling: cached).page(2)
        #expect(
            cached.traces.first?.hasPrefix(
                "GET https://swapi.py4e.com/api/species/?page=2: from the cache, no request (fetched ") == true)
        #expect(cached.traces.dropFirst() == ["swapi.py4e.com answers in swapi.dev's form (drf)"])
    }

    @Test func onlyTheLastServiceRetries() async throws {
        let unavailable = StubTransport.Reply.response(
            HTTPResponse(status: 503, headers: ["Retry-After": "0"], body: Data()))
        let services = try Services(failing: [Self.dev: unavailable, Self.py4e: unavailable])
        let error = await speciesError { _ = try await client(services, retries: 2, fallback: false).species(.id(3)) }
        #expect(services.requests(to: Self.dev).count == 1 && services.requests(to: Self.py4e).count == 3)
        #expect(error?.description == "swapi.dev and swapi.py4e.com did not answer (HTTP 503 Service Unavailable)")
        #expect(diagnostics.notes.filter { $0.hasPrefix("retry ") }.count == 2, "\(diagnostics.notes)")
    }

    /// Every request of a service others follow, the first and the last.
    @Test func onlyAServiceOthersFollowHasAMinimumPace() async throws {
        let services = try Services(failing: [Self.py4e: .failure(.connectionRefused)])
        _ = try await client(services, roots: [Self.dev, Self.py4e], cached: false).allSpecies()
        #expect(services.paces(of: Self.dev) == [MinimumPace?](repeating: .followed, count: 4))
        let last = try Services(failing: [Self.dev: .failure(.connectionRefused)])
        _ = try await client(last, cached: false).allSpecies()
        #expect(last.paces(of: Self.py4e) == [MinimumPace?](repeating: nil, count: 4))
        let alone = try Services()
        _ = try await client(alone, roots: [Self.dev]).page()
        #expect(alone.paces(of: Self.dev) == [nil])
    }

    @Test func a404IsAnAnswer() async throws {
        let services = try Services()
        let error = await speciesError { _ = try await client(services).species(.id(99)) }
        #expect(error == .notFound(what: "species 99", url: URL(string: "https://swapi.dev/api/species/99/")!))
        #expect(services.requests(to: Self.py4e).isEmpty && diagnostics.notes.isEmpty)
    }

    @Test func theServiceThatAnsweredIsAskedFirstWhileRemembered() async throws {
        let down = try Services(failing: [Self.dev: .failure(.insecureConnection)])
        _ = try await client(down).page(1)
        #expect(diagnostics.notes == ["swapi.dev did not answer (swapi.dev broke); answered by swapi.py4e.com"])
        let next = RecordingDiagnostics()
        let again = try Services(failing: [Self.dev: .failure(.insecureConnection)])
        _ = try await client(again, telling: next).page(2)
        #expect(again.requests(to: Self.dev).isEmpty && again.requests(to: Self.py4e).count == 1)
        #expect(next.notes.isEmpty)
        let record = try #require(ServiceMemory.all(in: ResponseCache(directory: folder)).first)
        #expect(
            record.list == ["https://swapi.dev/api/", "https://swapi.py4e.com/api/"]
                && record.remembered.service == "https://swapi.py4e.com/api/")
        #expect(ResponseCache(directory: folder).summary().entries == 2, "a record is no entry")
    }

    @Test func aStaleMemoryStartsFromTheTopAndSaysNothingWhenTheSameAnswers() async throws {
        _ = try await client(try Services(failing: [Self.dev: .failure(.insecureConnection)])).page(1)
        let stale = RecordingDiagnostics()
        let services = try Services(failing: [Self.dev: .failure(.insecureConnection)])
        let since = try #require(ServiceMemory.all(in: ResponseCache(directory: folder)).first?.remembered.since)
        _ = try await client(services, maxAge: 0, telling: stale).page(1)
        #expect(services.requests(to: Self.dev).count == 1 && stale.notes.isEmpty)
        let record = try #require(ServiceMemory.all(in: ResponseCache(directory: folder)).first?.remembered)
        #expect(record.since == since && record.confirmed > since)
    }

    @Test func whenTheRememberedServiceFailsTheListStartsAgainFromTheTop() async throws {
        _ = try await client(try Services(failing: [Self.dev: .failure(.insecureConnection)])).page(1)
        let later = RecordingDiagnostics()
        let services = try Services(failing: [Self.py4e: .failure(.unknownHost)])
        _ = try await client(services, telling: later).page(2)
        #expect(later.notes == ["swapi.py4e.com did not answer (swapi.py4e.com broke); answered by swapi.dev"])
        #expect(
            ServiceMemory.all(in: ResponseCache(directory: folder)).first?.remembered.service
                == "https://swapi.dev/api/")
    }

    @Test func withNoFallbackOneErrorNamesEachServiceAndWhy() async throws {
        let services = try Services(failing: [
            Self.dev: .failure(.insecureConnection), Self.py4e: .failure(.unknownHost),
            "swapi.info": .failure(.unknownHost),
        ])
        let error = await speciesError {
            _ = try await client(services, roots: [Self.dev, Self.py4e, "swapi.info"], fallback: false).page()
        }
        #expect(
            error?.description
                == "swapi.dev did not answer (swapi.dev broke); swapi.py4e.com did not answer (swapi.py4e.com broke); swapi.info did not answer (swapi.info broke)"
        )
        let grouped = SpeciesError.describe([
            ServiceFailure(service: "a", error: .httpStatus(503, url: URL(string: "http://a/")!)),
            ServiceFailure(
                service: "b",
                error: .unreachable(
                    TransportError(.unknownHost, url: URL(string: "http://b/")!, detail: "unknown host"))),
            ServiceFailure(
                service: "c",
                error: .unreachable(
                    TransportError(.unknownHost, url: URL(string: "http://c/")!, detail: "unknown host"))),
        ])
        #expect(grouped == "a did not answer (HTTP 503 Service Unavailable); b and c did not answer (unknown host)")
    }

    @Test func whenNoneAnswersTheCacheOfAnyOfThemStandsIn() async throws {
        _ = try await client(try Services(failing: [Self.dev: .failure(.insecureConnection)])).page(1)
        let later = RecordingDiagnostics()
        let down = try Services(failing: [Self.dev: .failure(.unknownHost), Self.py4e: .failure(.unknownHost)])
        let page = try await client(down, maxAge: 0, telling: later).page(1)
        #expect(page.species.first?.url == "https://swapi.py4e.com/api/species/1/")
        #expect(later.notes.count == 1)
        #expect(
            later.notes.first?.hasPrefix(
                "swapi.dev did not answer (swapi.dev broke); swapi.py4e.com did not answer (swapi.py4e.com broke): answering from the cache of swapi.py4e.com, as fetched "
            )
                == true)
    }

    @Test func thenSWAPIsOwnDataUnderTheFirstPublicService() async throws {
        let portal = StubTransport.Reply.response(HTTPResponse(status: 200, body: Data("<html>".utf8)))
        let down = try Services(failing: [
            "127.0.0.1": portal, Self.dev: .failure(.unknownHost), Self.py4e: .failure(.unknownHost),
        ])
        let page = try await client(down, roots: ["127.0.0.1", Self.py4e, Self.dev], cached: false).page(1)
        #expect(page.species.first?.url == "https://swapi.py4e.com/api/species/1/")
        #expect(
            diagnostics.notes == [
                "127.0.0.1 did not answer (its answer is not SWAPI JSON); swapi.py4e.com did not answer (swapi.py4e.com broke); "
                    + "swapi.dev did not answer (swapi.dev broke): answering from the SWAPI data built into species (recorded \(BundledCatalog.recorded))"
            ])
    }

    @Test func aListOfOtherHostsWithNoCacheFails() async throws {
        let down = try Services(failing: [
            "127.0.0.1": .failure(.connectionRefused), "127.0.0.2": .failure(.connectionRefused),
        ])
        let error = await speciesError { _ = try await client(down, roots: ["127.0.0.1", "127.0.0.2"]).page() }
        #expect(
            error?.description
                == "127.0.0.1 did not answer (127.0.0.1 broke); 127.0.0.2 did not answer (127.0.0.2 broke); the cache holds no answer from any of them"
        )
    }

    @Test func offlineTheCacheOfEachThenTheBuiltInData() async throws {
        _ = try await client(try Services(failing: [Self.dev: .failure(.insecureConnection)])).page(1)
        let offline = try Services()
        let cached = try await client(offline, offline: true).page(1)
        #expect(
            cached.species.first?.url == "https://swapi.py4e.com/api/species/1/"
                && offline.requests(to: Self.dev).isEmpty)
        let builtIn = try await client(offline, offline: true).page(2)
        #expect(builtIn.species.first?.url == "https://swapi.py4e.com/api/species/11/")
        #expect(offline.requests(to: Self.dev).isEmpty && offline.requests(to: Self.py4e).isEmpty)
    }

    @Test func aSpeciesURLOfOneServiceIsTheSameIdOnAnother() async throws {
        let services = try Services(failing: [Self.dev: .failure(.insecureConnection)])
        let query = try SpeciesQuery(
            "https://swapi.dev/api/species/3/", roots: [.swapi, APIRoot("https://swapi.py4e.com/api/")!])
        let wookie = try await client(services).species(query)
        #expect(wookie.name == "Wookie" && wookie.url == "https://swapi.py4e.com/api/species/3/")
        #expect(services.requests(to: Self.py4e).map(\.absoluteString) == ["https://swapi.py4e.com/api/species/3/"])
    }

    /// A walk down the list takes at most the timeout: a service that
    /// never answers takes it all, and the next is not asked.
    @Test func theWalkEndsWithinTheTimeout() async throws {
        let deaf = FunctionTransport { request in
            try await Pause.seconds(60)
            throw TransportError(.other, url: request.url, detail: "unreachable")
        }
        let error = await speciesError {
            _ = try await client(deaf, fallback: false, cached: false, timeout: 0.2).page()
        }
        #expect(
            error?.description
                == "https://swapi.dev/api/species/ timed out: no complete answer before the 0.2 s for the list of services ran out"
        )
    }
}
