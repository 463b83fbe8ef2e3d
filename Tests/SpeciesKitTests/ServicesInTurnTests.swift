import Foundation
import Testing
import TestSupport

@testable import SpeciesKit

extension StubTransport {
    /// The requests to `host`, in order.
    fileprivate func requests(to host: String) -> [URL] {
        requests.map(\.url).filter { $0.host == host }
    }

    fileprivate func paces(of host: String) -> [MinimumPace?] {
        requests.filter { $0.url.host == host }.map(\.limits.minimumPace)
    }
}

@Suite("SWAPI's services in turn")
struct ServicesInTurnTests {
    let diagnostics = RecordingDiagnostics()
    let folder = Fixtures.temporaryFolder("services")
    let clock = TestClock()
    static let dev = "swapi.dev", py4e = "swapi.py4e.com"

    private func Services(failing: [String: StubTransport.Reply] = [:]) throws -> StubTransport {
        try StubTransport.recordedSWAPI(failing: failing)
    }

    private func client(
        _ transport: any HTTPTransport, roots: [String] = [dev, py4e], retries: Int = 3,
        maxAge: Double = CachePolicy.defaultMaxAge, fallback: Bool = true, offline: Bool = false,
        cached: Bool = true, timeout: Double = SpeciesClient.Configuration.defaultTimeout, serial: Bool = false,
        telling diagnostics: RecordingDiagnostics? = nil
    ) -> SpeciesClient {
        SpeciesClient(
            configuration: .init(
                roots: roots.map { APIRoot("https://\($0)/api/")! }, timeout: timeout, retries: retries,
                serial: serial, attemptDelay: .infinity,
                cache: CachePolicy(
                    directory: cached ? folder : nil, maxAge: maxAge, mode: offline ? .offline : .normal),
                fallback: fallback),
            transport: transport, diagnostics: diagnostics ?? self.diagnostics, clock: clock)
    }

    @Test func byDefaultSWAPIsPublicServicesInOrder() {
        #expect(
            SpeciesClient().roots.map(\.url.absoluteString) == [
                "https://swapi.dev/api/", "https://swapi.py4e.com/api/", "https://www.swapi.tech/api/",
                "https://swapi.info/api/",
            ])
        #expect(SpeciesClient(configuration: .init(roots: [])).roots.isEmpty, "refused when asked (issue 44)")
        #expect(SpeciesClient(configuration: .init(roots: [.swapi, .swapi])).roots == [.swapi])
    }

    @Test(arguments: [
        StubTransport.Reply.failure(.unknownHost), .failure(.connectionRefused), .failure(.connectionLost),
        .failure(.insecureConnection),
        .failure(.timedOut), .response(HTTPResponse(status: 503, body: Data("<html>".utf8))),
        .response(HTTPResponse(status: 429, body: Data())),
        .response(HTTPResponse(status: 200, body: Data("<!DOCTYPE html><title>Log in to the WiFi</title>".utf8))),
        .response(HTTPResponse(status: 302, headers: ["Location": "http://portal.example/"], body: Data())),
    ])
    func aServiceThatCannotAnswerGivesWayAtOnce(failure: StubTransport.Reply) async throws {
        let services = try Services(failing: [Self.dev: failure])
        let page = try await client(services).page()
        #expect(page.value.species.first?.url == "https://swapi.py4e.com/api/species/1/")
        #expect(services.requests(to: Self.dev).count == 1, "no retry")
        #expect(diagnostics.notes.count == 1)
        #expect(diagnostics.notes.first?.hasPrefix("swapi.dev did not answer (") == true)
        #expect(diagnostics.notes.first?.hasSuffix("); answered by swapi.py4e.com") == true)
    }

    @Test func theNoticeNamesTheCause() async throws {
        let services = try Services(failing: [Self.dev: .failure(.insecureConnection)])
        _ = try await client(services).allSpecies()
        #expect(
            diagnostics.notes == ["swapi.dev did not answer (stubbed insecure connection); answered by swapi.py4e.com"])
    }

    @Test func theTraceTellsEachStep() async throws {
        let services = try Services(failing: [Self.dev: .failure(.insecureConnection)])
        _ = try await client(services).allSpecies()
        let traces = diagnostics.traces
        #expect(
            traces.first
                == "page plan: pages 1 to 4 at once (as many as the SWAPI data built in fills), then the rest that page 1 counts"
        )
        #expect(traces.contains("giving up on swapi.dev: stubbed insecure connection"))
        #expect(
            traces.contains {
                $0.hasPrefix("GET https://swapi.dev/api/species/: failed after ")
                    && $0.hasSuffix(" ms: stubbed insecure connection")
            })
        #expect(traces.contains("swapi.py4e.com answers in swapi.dev's dialect (drf)"))
        let pages = traces.filter { $0.hasPrefix("GET https://swapi.py4e.com/api/species/") }
        #expect(
            pages.count == 4 && pages.allSatisfy { $0.contains(": 200 OK, ") && $0.hasSuffix(" ms, from the network") },
            "\(traces)")
        let cached = RecordingDiagnostics()
        _ = try await client(services, roots: [Self.py4e], telling: cached).page(2)
        #expect(
            cached.traces.first?.hasPrefix(
                "GET https://swapi.py4e.com/api/species/?page=2: from the cache, no request (fetched ") == true)
        #expect(cached.traces.dropFirst() == ["swapi.py4e.com answers in swapi.dev's dialect (drf)"])
    }

    @Test func onlyTheLastServiceRetries() async throws {
        let unavailable = StubTransport.Reply.response(
            HTTPResponse(status: 503, headers: ["Retry-After": "0"], body: Data()))
        let services = try Services(failing: [Self.dev: unavailable, Self.py4e: unavailable])
        let error = await fault { _ = try await client(services, retries: 2, fallback: false).species(.id(3)) }
        #expect(services.requests(to: Self.dev).count == 1 && services.requests(to: Self.py4e).count == 3)
        #expect(error?.description == "swapi.dev and swapi.py4e.com did not answer (HTTP 503 Service Unavailable)")
        #expect(diagnostics.notes.filter { $0.hasPrefix("retry ") }.count == 2, "\(diagnostics.notes)")
    }

    /// Every request of every service of several, the first and the last
    /// (issue 42: the last too, so that a dead network is found in
    /// seconds); a service alone has the whole timeout.
    @Test func everyServiceOfSeveralHasAMinimumPace() async throws {
        let services = try Services(failing: [Self.py4e: .failure(.connectionRefused)])
        _ = try await client(services, roots: [Self.dev, Self.py4e], cached: false).allSpecies()
        #expect(services.paces(of: Self.dev) == [MinimumPace?](repeating: .followed, count: 4))
        let last = try Services(failing: [Self.dev: .failure(.connectionRefused)])
        _ = try await client(last, cached: false).allSpecies()
        #expect(last.paces(of: Self.py4e) == [MinimumPace?](repeating: .followed, count: 4))
        let alone = try Services()
        _ = try await client(alone, roots: [Self.dev]).page()
        #expect(alone.paces(of: Self.dev) == [nil])
    }

    @Test func a404IsAnAnswer() async throws {
        let services = try Services()
        let error = await fault { _ = try await client(services).species(.id(99)) }
        #expect(error == .notFound(what: "species 99", url: URL(string: "https://swapi.dev/api/species/99/")!))
        #expect(services.requests(to: Self.py4e).isEmpty && diagnostics.notes.isEmpty)
    }

    @Test func theServiceThatAnsweredIsAskedFirstWhileRemembered() async throws {
        let down = try Services(failing: [Self.dev: .failure(.insecureConnection)])
        _ = try await client(down).page(1)
        #expect(
            diagnostics.notes == ["swapi.dev did not answer (stubbed insecure connection); answered by swapi.py4e.com"])
        let next = RecordingDiagnostics()
        let again = try Services(failing: [Self.dev: .failure(.insecureConnection)])
        _ = try await client(again, telling: next).page(2)
        #expect(again.requests(to: Self.dev).isEmpty && again.requests(to: Self.py4e).count == 1)
        #expect(next.notes.isEmpty)
        let record = try #require(ResponseCache(directory: folder).rememberedServices().first)
        #expect(
            record.list == ["https://swapi.dev/api/", "https://swapi.py4e.com/api/"]
                && record.remembered.service == "https://swapi.py4e.com/api/")
        #expect(ResponseCache(directory: folder).summary().entries == 2, "a record is no entry")
    }

    @Test func aStaleMemoryStartsFromTheTopAndSaysNothingWhenTheSameAnswers() async throws {
        _ = try await client(try Services(failing: [Self.dev: .failure(.insecureConnection)])).page(1)
        let stale = RecordingDiagnostics()
        let services = try Services(failing: [Self.dev: .failure(.insecureConnection)])
        let since = try #require(ResponseCache(directory: folder).rememberedServices().first?.remembered.since)
        _ = try await client(services, maxAge: 0, telling: stale).page(1)
        #expect(services.requests(to: Self.dev).count == 1 && stale.notes.isEmpty)
        let record = try #require(ResponseCache(directory: folder).rememberedServices().first?.remembered)
        #expect(record.since == since && record.confirmed > since)
    }

    @Test func whenTheRememberedServiceFailsTheListStartsAgainFromTheTop() async throws {
        _ = try await client(try Services(failing: [Self.dev: .failure(.insecureConnection)])).page(1)
        let later = RecordingDiagnostics()
        let services = try Services(failing: [Self.py4e: .failure(.unknownHost)])
        _ = try await client(services, telling: later).page(2)
        #expect(later.notes == ["swapi.py4e.com did not answer (stubbed unknown host); answered by swapi.dev"])
        #expect(
            ResponseCache(directory: folder).rememberedServices().first?.remembered.service
                == "https://swapi.dev/api/")
    }

    @Test func withNoFallbackOneErrorNamesEachServiceAndWhy() async throws {
        let services = try Services(failing: [
            Self.dev: .failure(.insecureConnection), Self.py4e: .failure(.unknownHost),
            "swapi.info": .failure(.unknownHost),
        ])
        let error = await fault {
            _ = try await client(services, roots: [Self.dev, Self.py4e, "swapi.info"], fallback: false).page()
        }
        #expect(
            error?.description
                == "swapi.dev did not answer (stubbed insecure connection); swapi.py4e.com and swapi.info did not answer (stubbed unknown host)"
        )
        let grouped = Fault.describe([
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
        #expect(page.value.species.first?.url == "https://swapi.py4e.com/api/species/1/")
        #expect(later.notes.count == 1)
        #expect(
            later.notes.first?.hasPrefix(
                "swapi.dev and swapi.py4e.com did not answer (stubbed unknown host): answering from the cache of swapi.py4e.com, as fetched "
            )
                == true)
    }

    /// The cache's answer says when what it holds was fetched, not when
    /// it was read.
    @Test func theCachesAnswerTellsWhenItWasFetched() async throws {
        let down = try Services(failing: [Self.py4e: .failure(.connectionRefused)])
        let later = RecordingDiagnostics()
        let downLater = client(down, roots: [Self.py4e], maxAge: 60, telling: later)
        _ = try await client(try Services(), roots: [Self.py4e]).page(1)
        let written = Date()
        clock.advance(by: 300)
        let answer = try await downLater.page(1)
        guard case .cache(_, let fetched) = answer.source else { return #expect(Bool(false), "\(answer.source)") }
        #expect(fetched <= written)
        #expect(
            later.notes == [
                "swapi.py4e.com did not answer (stubbed connection refused): answering from the cache, as fetched 5 min ago"
            ])
    }

    /// A transport's own failure is the failure of its service: the next
    /// answers.
    @Test func aTransportsOwnFailureIsNoAnswerFromItsService() async throws {
        let services = try Services(failing: [Self.dev: .failure(.other)])
        let answer = try await client(services).page(1)
        #expect(answer.source == .service(APIRoot("https://\(Self.py4e)/api/")!))
        let alone = await fault { _ = try await client(services, roots: [Self.dev], fallback: false).page(1) }
        #expect(alone?.kind == .unavailable && alone != .cancelled)
    }

    @Test func thenSWAPIsOwnDataUnderTheFirstPublicService() async throws {
        let portal = StubTransport.Reply.response(HTTPResponse(status: 200, body: Data("<html>".utf8)))
        let down = try Services(failing: [
            "127.0.0.1": portal, Self.dev: .failure(.unknownHost), Self.py4e: .failure(.unknownHost),
        ])
        let page = try await client(down, roots: ["127.0.0.1", Self.py4e, Self.dev], cached: false).page(1)
        #expect(page.value.species.first?.url == "https://swapi.py4e.com/api/species/1/")
        #expect(
            diagnostics.notes == [
                "127.0.0.1 did not answer (its answer is not SWAPI JSON); swapi.py4e.com and swapi.dev did not answer "
                    + "(stubbed unknown host): answering from the SWAPI data built in (recorded \(BundledCatalog.recorded))"
            ])
    }

    @Test func aListOfOtherHostsWithNoCacheFails() async throws {
        let down = try Services(failing: [
            "127.0.0.1": .failure(.connectionRefused), "127.0.0.2": .failure(.connectionRefused),
        ])
        let error = await fault { _ = try await client(down, roots: ["127.0.0.1", "127.0.0.2"]).page() }
        #expect(
            error?.description
                == "127.0.0.1 and 127.0.0.2 did not answer (stubbed connection refused); the cache holds no answer from any of them"
        )
    }

    @Test func offlineTheCacheOfEachThenTheBuiltInData() async throws {
        _ = try await client(try Services(failing: [Self.dev: .failure(.insecureConnection)])).page(1)
        let offline = try Services()
        let cached = try await client(offline, offline: true).page(1)
        #expect(
            cached.value.species.first?.url == "https://swapi.py4e.com/api/species/1/"
                && offline.requests(to: Self.dev).isEmpty)
        let builtIn = try await client(offline, offline: true).page(2)
        #expect(builtIn.value.species.first?.url == "https://swapi.py4e.com/api/species/11/")
        #expect(offline.requests(to: Self.dev).isEmpty && offline.requests(to: Self.py4e).isEmpty)
    }

    @Test func aSpeciesURLOfOneServiceIsTheSameIdOnAnother() async throws {
        let services = try Services(failing: [Self.dev: .failure(.insecureConnection)])
        let query = try SpeciesQuery(
            "https://swapi.dev/api/species/3/", roots: [.swapi, APIRoot("https://swapi.py4e.com/api/")!])
        let wookie = try await client(services).species(query)
        #expect(wookie.value.name == "Wookie" && wookie.value.url == "https://swapi.py4e.com/api/species/3/")
        #expect(services.requests(to: Self.py4e).map(\.absoluteString) == ["https://swapi.py4e.com/api/species/3/"])
    }

    // MARK: Issue 28: one clock for the whole answer

    /// A service that never answers takes the whole timeout, and the next
    /// is not asked; nor is it named.
    @Test func aServiceThatHangsTakesTheTimeoutAndTheNextIsNotAsked() async throws {
        let services = try Services(failing: [Self.dev: .hang])
        let error = await fault {
            _ = try await client(services, roots: [Self.dev], fallback: false, cached: false, timeout: 5).page()
        }
        #expect(error?.description == "https://swapi.dev/api/species/ timed out: stubbed timeout")
        #expect(error?.setting == .timeout)
        #expect(clock.elapsed == 5)
    }

    /// Every request of an answer, of every service, page and retry, ends
    /// by one deadline set when the answer starts.
    @Test func everyRequestOfAnAnswerSharesOneDeadline() async throws {
        let left = RecordedValues<Double>()
        let recorded = try Services(failing: [Self.dev: .after(2, .failure(.connectionRefused))])
        let services = StubTransport { request in
            left.append(request.limits.deadline.secondsLeft)
            return try await recorded.send(request)
        }
        _ = try await client(services, cached: false, timeout: 10, serial: true).allSpecies()
        #expect(left.all == [10, 8, 8, 8, 8], "what is left of the one deadline, not 10 s again")
        #expect(services.requests.allSatisfy { $0.limits.deadline.seconds == 10 })
    }

    /// `--serial` against a slow but steady service: each page takes 2 s,
    /// and the four take 8; with `--timeout 7` the last page is cut at 7 s,
    /// and the data built into species answers, whole.
    @Test func aSlowServiceWalkEndsAtTheDeadlineAndWhatIsLocalAnswers() async throws {
        let slow = try StubTransport.recordedSWAPI()
        let services = StubTransport {
            try await StubTransport.Reply.after(2, .response(try await slow.send($0))).answer($0)
        }
        let species = try await client(services, roots: [Self.dev], cached: false, timeout: 7, serial: true)
            .allSpecies()
        #expect(species.value.count == 37 && clock.elapsed == 7)
        #expect(
            diagnostics.notes == [
                "swapi.dev did not answer in full (stubbed timeout, after 3 pages, which are dropped): "
                    + "answering from the SWAPI data built in (recorded \(BundledCatalog.recorded))"
            ])
    }

    /// Four services that each answer 503 and ask to wait longer than the
    /// timeout leaves: none is waited for, and the built-in data answers at
    /// once.
    @Test func aRetryAfterPastTheDeadlineIsNotWaitedOut() async throws {
        let unavailable = StubTransport.Reply.status(503, headers: ["Retry-After": "5"])
        let hosts = ["swapi.dev", "swapi.py4e.com", "www.swapi.tech", "swapi.info"]
        let services = try Services(failing: Dictionary(uniqueKeysWithValues: hosts.map { ($0, unavailable) }))
        let page = try await client(services, roots: hosts, cached: false, timeout: 3).page()
        #expect(page.value.species.count == 10 && clock.elapsed == 0)
        #expect(services.requests.count == 4, "one each, no retry")
        let last = await fault {
            _ = try await client(services, roots: ["swapi.info"], fallback: false, cached: false, timeout: 3).page()
        }
        #expect(
            last?.description.hasPrefix(
                "https://swapi.info/api/species/ answered HTTP 503 Service Unavailable and asks to wait 5 s; 3.0 s of the timeout are left; try again after "
            ) == true, "\(String(describing: last))")
    }

    /// `show --related` whose related resources hang on every service: the
    /// first gives way at its pace, the second at the deadline, and the
    /// built-in data answers, whole, within the timeout.
    @Test func relatedResourcesThatHangEndAtTheDeadline() async throws {
        let recorded = try StubTransport.recordedSWAPI()
        let services = StubTransport { request in
            guard request.url.path.contains("/species/") else {
                return try await StubTransport.Reply.hang.answer(request)
            }
            return try await recorded.send(request)
        }
        let (species, related) = try await client(services, cached: false, timeout: 5).speciesAndRelated(.id(3)).value
        #expect(
            species.url == "https://swapi.dev/api/species/3/" && related.people.map(\.text) == ["Chewbacca", "Tarfful"])
        #expect(clock.elapsed == 5)
        #expect(
            diagnostics.notes.first?.hasSuffix(
                "answering from the SWAPI data built in (recorded \(BundledCatalog.recorded))") == true)
    }

    // MARK: Issue 28: only whole answers

    /// A later page short of the count its service gave: the next service
    /// answers the whole listing; nothing of the first is cached, and it is
    /// not remembered.
    @Test func aShortPageGivesWayToTheNextServiceAndNothingOfItIsKept() async throws {
        let recorded = try StubTransport.recordedSWAPI()
        let services = StubTransport { request in
            guard request.url.absoluteString == "https://swapi.dev/api/species/?page=2" else {
                return try await recorded.send(request)
            }
            return HTTPResponse(status: 200, body: Data(#"{"count":0,"next":null,"previous":null,"results":[]}"#.utf8))
        }
        let species = try await client(services).allSpecies()
        #expect(
            species.value.count == 37
                && species.value.allSatisfy { $0.url.hasPrefix("https://swapi.py4e.com/") == true })
        #expect(
            diagnostics.notes == [
                "swapi.dev did not answer in full (https://swapi.dev/api/species/?page=2 is not whole: it counts 0 species, where page 1 counted 37, after 1 page, which is dropped); answered by swapi.py4e.com"
            ])
        let cache = ResponseCache(directory: folder)
        #expect(cache.read(URL(string: "https://swapi.dev/api/species/")!) == nil)
        #expect(cache.summary().entries == 4, "the four pages of swapi.py4e.com")
        #expect(cache.rememberedServices().first?.remembered.service == "https://swapi.py4e.com/api/")
    }

    /// Alone, such a service has no whole answer: no listing at all.
    @Test func aShortListingFromAServiceAloneIsAnError() async throws {
        let empty = StubTransport.Reply.json(Data(#"{"count":0,"next":null,"previous":null,"results":[]}"#.utf8))
        let services = try StubTransport.recordedSWAPI(overrides: ["https://swapi.dev/api/species/?page=2": empty])
        let error = await fault {
            _ = try await client(services, roots: [Self.dev], fallback: false).allSpecies()
        }
        #expect(
            error
                == .incomplete(url: URL(string: "https://swapi.dev/api/species/?page=2")!, .countChanged(0, from: 37)))
        #expect(ResponseCache(directory: folder).summary().entries == 0)
    }

    /// A related resource that fails on every service is no answer of
    /// theirs: the built-in data answers, whole; and with nothing to stand
    /// in, the command fails.
    @Test(arguments: [StubTransport.Reply.status(500), .failure(.connectionLost)])
    func aRelatedResourceThatFailsMakesTheAnswerNotWhole(failure: StubTransport.Reply) async throws {
        let recorded = try StubTransport.recordedSWAPI()
        let services = StubTransport { request in
            guard request.url.absoluteString.hasSuffix("/people/13/") else { return try await recorded.send(request) }
            return try await failure.answer(request)
        }
        let (_, related) = try await client(services, cached: false).speciesAndRelated(.id(3)).value
        #expect(related.people == [.named("Chewbacca"), .named("Tarfful")])
        let notes = diagnostics.notes.filter { !$0.hasPrefix("retry ") }
        #expect(notes.count == 1 && diagnostics.warnings.isEmpty, "\(notes)")
        #expect(
            notes.first?.hasSuffix(
                "answering from the SWAPI data built in (recorded \(BundledCatalog.recorded))") == true)
        let alone = await fault {
            _ = try await client(services, roots: [Self.dev], fallback: false, cached: false).speciesAndRelated(.id(3))
                .value
        }
        #expect(alone?.description.contains("https://swapi.dev/api/people/13/") == true, "\(String(describing: alone))")
    }

    /// Issue 43: a person is an object of a person's kind at a person's
    /// URL: a species at a person's URL makes the answer not whole, and a
    /// species URL among the people names no one.
    @Test func aRelatedResourceIsOfTheKindItsLinkNames() async throws {
        let recorded = try StubTransport.recordedSWAPI()
        let ewok = try Fixtures.data("swapi/species-9.json")
        let services = StubTransport { request in
            guard request.url.absoluteString.hasSuffix("/people/13/") else { return try await recorded.send(request) }
            return HTTPResponse(status: 200, body: ewok)
        }
        let alone = await fault {
            _ = try await client(services, roots: [Self.dev], fallback: false, cached: false).speciesAndRelated(.id(3))
        }
        #expect(alone == .invalidResponse(url: URL(string: "https://swapi.dev/api/people/13/")!, .notOfKind("person")))
        var wookie = try Decode.species(try Fixtures.data("swapi/species-3.json")).species
        wookie.people = ["https://swapi.dev/api/species/9/"]
        let related = try await SpeciesClient.stubbed(recorded).related(
            of: wookie, in: BundledCatalog(root: .swapi, dialect: .drf))
        #expect(related.people == [.failed(reason: "a species, not a person")])
    }
}
