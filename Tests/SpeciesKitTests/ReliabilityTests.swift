import Foundation
import Testing
import TestSupport

@testable import SpeciesKit

@Suite("Next links")
struct LinkPolicyTests {
    let page = URL(string: "https://swapi.dev/api/species/")!

    private func resolve(_ link: String, root: String = "https://swapi.dev/api/") throws -> String {
        try LinkPolicy.resolve(link, of: page, root: APIRoot(root)!).absoluteString
    }

    @Test(
        "an http link under an https root on its host is upgraded",
        arguments: [
            ("http://swapi.dev/api/species/?page=2", "https://swapi.dev/api/species/?page=2"),
            ("http://swapi.dev:80/api/species/?page=2", "https://swapi.dev/api/species/?page=2"),
            ("https://SWAPI.dev/api/species/?page=2", "https://SWAPI.dev/api/species/?page=2"),
            ("?page=2", "https://swapi.dev/api/species/?page=2"),
            ("https://swapi.dev:443/api/species/?page=3", "https://swapi.dev:443/api/species/?page=3"),
        ])
    func followed(link: String, expected: String) throws {
        #expect(try resolve(link) == expected)
    }

    @Test(
        "anything off the root's host, port or scheme is refused, and the next source asked",
        arguments: [
            ("https://evil.example/api/species/?page=2", LinkFault.leavesOrigin("https://swapi.dev")),
            ("https://swapi.dev:8443/api/species/?page=2", .leavesOrigin("https://swapi.dev")),
            ("http://swapi.dev:8080/api/species/?page=2", .leavesOrigin("https://swapi.dev")),
            ("file:///etc/passwd", .notHTTP), ("ftp://swapi.dev/api/species/", .notHTTP),
            ("javascript:alert(1)", .notHTTP), ("http://[oops", .notHTTP),
            ("http://", .leavesOrigin("https://swapi.dev")),
        ])
    func refused(link: String, fault: LinkFault) {
        #expect(throws: Fault.badLink(url: page, link: link, fault)) { _ = try resolve(link) }
    }

    @Test func anHTTPSLinkUnderAnHTTPRootIsNotDowngradedButRefused() throws {
        let local = URL(string: "http://127.0.0.1:8000/api/species/")!
        let root = APIRoot("http://127.0.0.1:8000/api/")!
        #expect(
            try LinkPolicy.resolve("http://127.0.0.1:8000/api/species/?page=2", of: local, root: root).absoluteString
                == "http://127.0.0.1:8000/api/species/?page=2")
        #expect(throws: Fault.self) {
            _ = try LinkPolicy.resolve("https://127.0.0.1:8000/api/species/?page=2", of: local, root: root)
        }
    }
}

@Suite("One origin rule")
struct OriginTests {
    @Test(
        "a redirect or link may go on to the same origin, or its twin on the other default port, over https",
        arguments: [
            ("http://swapi.dev/api/species", "http://swapi.dev/api/species/", "http://swapi.dev/api/species/"),
            ("http://swapi.dev/api/species", "https://swapi.dev/api/species/", "https://swapi.dev/api/species/"),
            (
                "https://swapi.dev/api/species", "https://SWAPI.DEV:443/api/species/",
                "https://SWAPI.DEV:443/api/species/"
            ),
            ("HTTPS://swapi.dev/api/species", "https://swapi.dev/api/", "https://swapi.dev/api/"),
            ("https://swapi.dev/api/species", "http://swapi.dev/api/species/", "https://swapi.dev/api/species/"),
            ("https://swapi.dev/api/species", "https://evil.example/api/species/", nil),
            ("http://127.0.0.1:8000/api/", "http://localhost:8000/api/", nil),
            ("http://127.0.0.1:8000/api/", "http://127.0.0.1:8001/api/", nil),
            ("http://127.0.0.1:8000/api/", "https://127.0.0.1:8443/api/", nil),
            ("https://swapi.dev/api/", "http://swapi.dev:8080/api/", nil),
        ] as [(String, String, String?)])
    func follows(from origin: String, to target: String, followed: String?) throws {
        let from = try #require(URL(string: origin).flatMap(Origin.init))
        #expect(from.follow(try #require(URL(string: target)))?.absoluteString == followed)
    }

    @Test func credentialsAreRedactedForMessagesAndDroppedForTheDisk() throws {
        let url = try #require(URL(string: "http://user:secret@127.0.0.1:9/api/species/?page=2"))
        #expect(url.redacted == "http://***@127.0.0.1:9/api/species/?page=2")
        #expect(url.withoutCredentials.absoluteString == "http://127.0.0.1:9/api/species/?page=2")
        #expect(URL(string: "https://swapi.dev/api/")?.redacted == "https://swapi.dev/api/")
    }

    @Test func aFollowedLinkCarriesTheRootsCredentials() throws {
        let root = try #require(APIRoot("http://user:secret@127.0.0.1:9/api/"))
        let page = Dialect.drf.listingURL(root)
        #expect(
            try LinkPolicy.resolve("http://127.0.0.1:9/api/species/?page=2", of: page, root: root).absoluteString
                == "http://user:secret@127.0.0.1:9/api/species/?page=2")
    }
}

@Suite("Retries")
struct RetryTests {
    let url = URL(string: "https://swapi.dev/api/species/")!
    let diagnostics = RecordingDiagnostics()
    let clock = TestClock()
    /// The clock's time at each request.
    let times = RecordedValues<Double>()

    private func status(_ code: Int, retryAfter: String? = nil) -> StubTransport.Reply {
        .status(code, headers: retryAfter.map { ["Retry-After": $0] } ?? [:])
    }

    /// The waits between the requests, as the clock saw them.
    private var waits: [Double] {
        zip(times.all, times.all.dropFirst()).map { $1 - $0 }
    }

    /// The client's date, while its clock stands still.
    static let now = Date(timeIntervalSince1970: 1_000_000)

    /// One request of an attempt, as the client sends it, answered by
    /// `replies`, with `retries` and `timeout` on the test's clock: the
    /// status that ended it, and how many requests were made.
    private func send(_ replies: [StubTransport.Reply], retries: Int = 3, timeout: Double = 60) async throws
        -> (status: Int, requests: Int)
    {
        let script = StubTransport.script(replies)
        let timed = StubTransport { [clock, times] request in
            times.append(clock.elapsed)
            return try await script.send(request)
        }
        let time = ClientTime(clock, start: Self.now)
        let fetching = Fetching(
            transport: timed, cache: nil, policy: CachePolicy(directory: nil),
            maxResponseSize: SpeciesClient.Configuration.defaultMaxResponseSize, time: time, diagnostics: diagnostics,
            jitter: { 0.5 })
        let limits = RequestLimits(deadline: Deadline(seconds: timeout, time: time), retries: retries)
        do {
            _ = try await Attempt(.swapi, limits: limits, dialect: .drf, mode: .normal, fetching: fetching).get(url)
            return (200, timed.requests.count)
        } catch Fault.httpStatus(let status, _, _), Fault.notSWAPI(_, let status?) {
            return (status, timed.requests.count)
        }
    }

    /// A response taken that is no answer: 401 and 403 say it is not SWAPI;
    /// any other its status, with the wait its `Retry-After` asks.
    @Test func aResponseTakenIsItsFault() {
        let cases: [(status: Int, headers: [String: String], fault: Fault)] = [
            (401, [:], .notSWAPI(url: url, status: 401)),
            (403, ["Retry-After": "5"], .notSWAPI(url: url, status: 403)),
            (429, ["Retry-After": "1"], .httpStatus(429, url: url, retryAfter: 1)),
            (503, ["retry-after": "120"], .httpStatus(503, url: url, retryAfter: 120)),
            (503, ["Retry-After": "soon"], .httpStatus(503, url: url)),
            (500, [:], .httpStatus(500, url: url)),
        ]
        for (status, headers, fault) in cases {
            let response = HTTPResponse(status: status, headers: headers, body: Data())
            #expect(Retrying.fault(of: response, url: url, now: Self.now) == fault, "\(status) \(headers)")
        }
    }

    @Test(arguments: [429, 500, 502, 503, 504])
    func retriedStatusesAreRetriedWithGrowingWaits(code: Int) async throws {
        let (ended, requests) = try await send([status(code), status(code), status(200)])
        #expect(ended == 200 && requests == 3)
        #expect(waits == [0.375, 0.75])
        #expect(diagnostics.notes.count == 2)
        #expect(
            diagnostics.notes.first?.hasPrefix(
                "retry 1 of 3 in 0.4 s: https://swapi.dev/api/species/: it answered HTTP \(code) ") == true)
    }

    /// `--verbose` tells each attempt, not only the last.
    @Test func eachAttemptIsTraced() async throws {
        _ = try await send([status(503), .failure(.connectionLost), status(200)])
        let traces = diagnostics.traces
        #expect(traces.count == 3, "\(traces)")
        #expect(traces[0].hasPrefix("GET https://swapi.dev/api/species/: 503 Service Unavailable, 2 bytes, "))
        #expect(traces[1].hasPrefix("GET https://swapi.dev/api/species/: failed after "))
        #expect(traces[1].hasSuffix(" ms: stubbed connection lost"))
        #expect(traces[2].hasSuffix(" ms, from the network"))
    }

    @Test(arguments: [400, 401, 403, 404, 410, 418])
    func otherClientErrorsAreNotRetried(code: Int) async throws {
        let (ended, requests) = try await send([status(code), status(200)])
        #expect(ended == code && requests == 1)
        #expect(diagnostics.notes.isEmpty)
    }

    @Test func retriesRunOutWithTheLastResponse() async throws {
        let (ended, requests) = try await send([status(503), status(503), status(503)], retries: 2)
        #expect(ended == 503 && requests == 3)
    }

    @Test func noRetriesMeansOneRequest() async throws {
        let (ended, requests) = try await send([status(503), status(200)], retries: 0)
        #expect(ended == 503 && requests == 1)
    }

    /// An HTTP date in each of RFC 9110's three forms (5.6.7), the two
    /// obsolete ones included (issue 29), 10 s after the test's now.
    @Test(
        "Retry-After in seconds or as an HTTP date is waited exactly",
        arguments: [
            ("2", 2.0), ("0", 0.0), ("30", 30.0), ("Mon, 12 Jan 1970 13:46:50 GMT", 10.0),
            ("Monday, 12-Jan-70 13:46:50 GMT", 10.0), ("Mon Jan 12 13:46:50 1970", 10.0),
            ("Mon Jan  5 13:46:50 1970", 0.0),
        ])
    func retryAfterIsHonoured(value: String, seconds: Double) async throws {
        #expect(try await send([status(429, retryAfter: value), status(200)]).status == 200)
        #expect(waits == [seconds])
        #expect(diagnostics.notes.first?.contains(", as the server asked:") == true)
    }

    @Test func anUnreadableRetryAfterFallsBackToBackoff() async throws {
        _ = try await send([status(503, retryAfter: "soon"), status(200)])
        #expect(waits == [0.375])
    }

    /// Issue 28: a `Retry-After` past the deadline is not waited out; the
    /// request fails at once, saying how long is left.
    @Test(arguments: [("29", 5.0), ("4", 2.0)])
    func aRetryAfterLongerThanTheTimeLeftFailsAtOnce(value: String, timeout: Double) async throws {
        let asked = try #require(Double(value))
        await #expect(
            throws: Fault.rateLimited(
                url: url, status: 503, retryAfter: asked, secondsLeft: timeout, at: Self.now)
        ) {
            _ = try await send([status(503, retryAfter: value)], timeout: timeout)
        }
        #expect(clock.elapsed == 0, "no wait at all")
    }

    /// Each wait is taken from the one deadline: the retries stop where
    /// the next wait would leave no time for another try.
    @Test func theWaitsStopAtTheDeadline() async throws {
        let ones = [StubTransport.Reply](repeating: status(503, retryAfter: "1"), count: 4)
        let error = await #expect(throws: Fault.self) { _ = try await send(ones, timeout: 2.5) }
        #expect(
            error == .rateLimited(url: url, status: 503, retryAfter: 1, secondsLeft: 0.5, at: Self.now + 2),
            "\(String(describing: error))")
        #expect(waits == [1, 1] && clock.elapsed == 2)
        let (ended, requests) = try await send([status(503), status(503), status(503), status(200)], timeout: 1.5)
        #expect(ended == 503 && requests == 3, "0.375 s, 0.75 s, then 1.5 s would pass the deadline")
        #expect(clock.elapsed == 1 + 1 + 1.125)
    }

    @Test(
        "any Retry-After in digits is held to a bound: no trap, a readable wait",
        arguments: [
            ("99999999999999999999999", "31688087 years"), ("1000000000000", "31688 years"), ("2592000", "30 days"),
        ])
    func hugeRetryAfters(value: String, wait: String) async throws {
        let message = await fault { _ = try await send([status(503, retryAfter: value)]) }?.description ?? ""
        #expect(
            message.hasPrefix(
                "https://swapi.dev/api/species/ answered HTTP 503 Service Unavailable and asks to wait \(wait); 60.0 s of the timeout are left"
            ))
        #expect(!message.contains("try again after") || wait == "30 days")
    }

    /// RFC 9110 allows digits or an HTTP date: `0x10` is not 16 s, nor
    /// `1e19` 31 million years; the usual back-off applies.
    @Test(arguments: ["0x10", "1e19", "inf", "1.5", "-3", "+5", " ", "10 s"])
    func aRetryAfterThatIsNotDigitsNorADateIsIgnored(value: String) async throws {
        let (ended, _) = try await send([status(503, retryAfter: value), status(200)], retries: 1)
        #expect(ended == 200)
        #expect(waits.count == 1 && (0.25...0.5).contains(waits[0]), "\(waits)")
        #expect(RetryAfter.seconds(value, now: Date()) == nil)
    }

    @Test func aDroppedConnectionIsRetriedButATimeoutIsNot() async throws {
        let (ended, requests) = try await send([.failure(.connectionLost), status(200)])
        #expect(ended == 200 && requests == 2)
        await #expect(throws: Fault.self) {
            _ = try await send([.failure(.timedOut), status(200)])
        }
        await #expect(throws: Fault.self) { _ = try await send([.failure(.connectionRefused), status(200)]) }
        #expect(times.all.count == 4, "one request each for a timeout and a refusal")
    }

    /// The retry rule as a table: each response or failure in, the step out.
    @Test(
        arguments: [
            // status, Retry-After, retries, seconds left: the step
            (200, nil, 3, 10.0, "take 200"), (404, nil, 3, 10, "take 404"), (503, nil, 3, 10, "retry 0.25"),
            (503, nil, 0, 10, "take 503"), (503, nil, 3, 0.2, "take 503"), (429, "2", 3, 10, "retry 2.0 asked"),
            (429, "20", 3, 10, "fail"), (429, "0x10", 3, 10, "retry 0.25"), (502, "1", 0, 10, "take 502"),
        ] as [(Int, String?, Int, Double, String)])
    func theRetryRule(status: Int, retryAfter: String?, retries: Int, left: Double, step: String) {
        var retrying = Retrying(retries: retries)
        let response = HTTPResponse(
            status: status, headers: retryAfter.map { ["Retry-After": $0] } ?? [:], body: Data())
        let url = URL(string: "https://swapi.dev/api/species/")!
        let next = retrying.next(after: response, url: url, secondsLeft: left, now: Date(), unit: 0)
        switch next {
        case .take(let taken): #expect(step == "take \(taken.status)")
        case .retry(let wait, let asked, _): #expect(step == "retry \(wait)" + (asked ? " asked" : ""))
        case .fail(let error):
            guard case .rateLimited(_, status, 20, left, _) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(step == "fail")
        }
    }

    /// Of the transport's failures, only a dropped connection is retried.
    @Test(arguments: [
        (TransportError.Kind.connectionLost, true), (.connectionRefused, false), (.timedOut, false),
        (.insecureConnection, false),
    ])
    func theRetryRuleOfFailures(kind: TransportError.Kind, retried: Bool) {
        var retrying = Retrying(retries: 1)
        let error = TransportError(kind, url: URL(string: "https://swapi.dev/api/species/")!, detail: "x")
        let first = retrying.next(after: error, secondsLeft: 10, unit: 0)
        #expect((first == .retry(after: 0.25, asked: false, because: "x")) == retried)
        if retried { #expect(retrying.next(after: error, secondsLeft: 10, unit: 0) == .fail(Fault(error))) }
    }

    @Test func backoffDoublesUpToACapWithJitter() {
        #expect(Retrying.backoff(attempt: 0, unit: 0) == 0.25)
        #expect(Retrying.backoff(attempt: 0, unit: 1) == 0.5)
        #expect(Retrying.backoff(attempt: 1, unit: 0) == 0.5)
        #expect(Retrying.backoff(attempt: 2, unit: 1) == 2)
        #expect(Retrying.backoff(attempt: 10, unit: 1) == 8)
        #expect(Retrying.backoff(attempt: 1000, unit: 0) == 4)
    }

    @Test(arguments: [
        (0.0, "0 s"), (25.0, "25 s"), (119, "119 s"), (119.5, "2 min"), (600, "10 min"), (25924, "7 h 12 min"),
        (-5, "0 s"), (.nan, "0 s"),
    ])
    func waitsAreDescribedForPeople(seconds: Double, text: String) {
        #expect(TimeSpan.describe(seconds) == text)
    }
}

/// The rules of time: one deadline, and a minimum pace, on a clock the
/// test drives.
@Suite("Deadline and pace")
struct DeadlineTests {
    @Test func aDeadlineCountsDownOnItsClockAndNoWaitPassesIt() async throws {
        let clock = TestClock()
        let deadline = Deadline(seconds: 5, clock: clock)
        clock.advance(by: 1.5)
        #expect(deadline.secondsLeft == 3.5 && !deadline.hasPassed)
        try await deadline.sleep(2)
        #expect(clock.elapsed == 3.5)
        try await deadline.sleep(60)
        #expect(clock.elapsed == 5 && deadline.hasPassed && deadline.secondsLeft == 0)
        try await deadline.sleep(.nan)
        try await deadline.sleep(-1)
        #expect(clock.elapsed == 5)
    }

    @Test func aResponseMustBeginWithinItsFirstByteSeconds() {
        var meter = MinimumPace.Meter(.followed, start: 10)
        #expect(meter.shortfall(at: 12.75, begun: false, bytes: 0) == nil)
        #expect(meter.shortfall(at: 13, begun: false, bytes: 0) == "no answer began within 3 s")
        var begun = MinimumPace.Meter(.followed, start: 10)
        #expect(begun.shortfall(at: 13, begun: true, bytes: 0) == nil)
    }

    /// curl's `--speed-limit 1024 --speed-time 3`: fewer than 3 KiB over
    /// any 3 s gives way; a steady 1.1 KiB/s does not.
    @Test func thenItMustBringItsBytesPerSecondOverAnyWindow() {
        var steady = MinimumPace.Meter(.followed, start: 0)
        for tick in 1...40 {
            let time = Double(tick) * 0.25
            #expect(steady.shortfall(at: time, begun: true, bytes: Int(time * 1130)) == nil, "\(time)")
        }
        // 2,000 bytes a second until 2 s, then nothing: from 0.5 s to 3.5 s,
        // 3,000 bytes came.
        var stalling = MinimumPace.Meter(.followed, start: 0)
        let first = (1...16).map { Double($0) * 0.25 }.first { time in
            stalling.shortfall(at: time, begun: true, bytes: min(Int(time * 2000), 4000)) != nil
        }
        #expect(first == 3.5)
        #expect(
            stalling.shortfall(at: 3.75, begun: true, bytes: 4000) == "its answer came at less than 1 KiB/s for 3 s")
    }
}

@Suite("Pagination limits")
struct PaginationLimitTests {
    let diagnostics = RecordingDiagnostics()

    /// A page of `species` species named Endless, from `first` on.
    private func page(next: String?, count: Int, species: Int = 10, first: Int = 1) -> HTTPResponse {
        let next = next.map { "\"\($0)\"" } ?? "null"
        let results = (first..<first + species).map {
            #"{"name":"Endless \#($0)","url":"https://swapi.dev/api/species/\#($0)/"}"#
        }
        let body = #"{"count":\#(count),"next":\#(next),"results":[\#(results.joined(separator: ","))]}"#
        return HTTPResponse(status: 200, body: Data(body.utf8))
    }

    /// A server that never ends can only say so with its count, which
    /// page 1 carries: no page past 500 is asked for.
    @Test func aCountOfMoreThan500PagesIsRefusedAtPage1() async throws {
        let asked = RecordedValues<URL>()
        let endless = StubTransport { request in
            asked.append(request.url)
            let number = Int(request.url.query?.split(separator: "=").last ?? "1") ?? 1
            return page(next: "https://swapi.dev/api/species/?page=\(number + 1)", count: 5_001, first: number * 10 - 9)
        }
        let client = SpeciesClient.stubbed(endless, diagnostics: diagnostics)
        let error = await fault { _ = try await client.allSpecies() }
        #expect(
            error
                == .tooLarge(url: URL(string: "https://swapi.dev/api/species/")!, .pages(500)))
        #expect(asked.all.count <= 4, "page 1, and the pages asked with it")
    }

    /// `--page 9223372036854775807`, answered by a server with a page: the
    /// count says how many there are, and a page past them proves the
    /// count wrong (issue 43).
    @Test func theLastPossiblePageNumberDoesNotOverflow() async throws {
        let client = SpeciesClient.stubbed(
            StubTransport { _ in page(next: "https://swapi.dev/api/species/?page=2", count: 37) },
            diagnostics: diagnostics)
        let error = await fault { _ = try await client.page(Int.max) }
        #expect(
            error
                == .incomplete(
                    url: URL(string: "https://swapi.dev/api/species/?page=9223372036854775807")!,
                    .pastTheCount(pages: 4)))
    }

    /// Pages whose data moves while they are read (a species of page 1
    /// comes again first on page 2): the listing is not whole, whether the
    /// page holds one more species or one is missing instead.
    @Test(arguments: [false, true])
    func aSpeciesSeenTwiceMakesTheListingNotWhole(oneMissing: Bool) async throws {
        let recorded = try StubTransport.recordedSWAPI()
        let shifted = StubTransport { request in
            guard request.url.query == "page=2" else { return try await recorded.send(request) }
            var page =
                try JSONSerialization.jsonObject(with: try await recorded.send(request).body) as? [String: Any] ?? [:]
            let first =
                try JSONSerialization.jsonObject(with: Fixtures.data("swapi/species-page-1.json")) as? [String: Any]
            let last = (first?["results"] as? [Any])?.last
            let results = page["results"] as? [Any] ?? []
            page["results"] = [last as Any] + (oneMissing ? results.dropLast() : results[...])
            return HTTPResponse(status: 200, body: try JSONSerialization.data(withJSONObject: page))
        }
        let client = SpeciesClient.stubbed(shifted, diagnostics: diagnostics)
        let error = await fault { _ = try await client.allSpecies() }
        #expect(
            error
                == .incomplete(
                    url: URL(string: "https://swapi.dev/api/species/?page=2")!,
                    oneMissing ? .repeated("'Sullustan'") : .pageLength(11, expected: 10)))
        #expect(diagnostics.warnings.isEmpty)
    }

    @Test func aNextLinkThatAnswers404IsTheLinksFault() async throws {
        let transport = StubTransport([
            "https://swapi.dev/api/species/": .response(page(next: "https://swapi.dev/api/species/?page=2", count: 12))
        ])
        let client = SpeciesClient.stubbed(transport, diagnostics: diagnostics)
        let error = await fault { _ = try await client.allSpecies() }
        #expect(
            error
                == .badLink(
                    url: URL(string: "https://swapi.dev/api/species/")!, link: "https://swapi.dev/api/species/?page=2",
                    .notFound))
    }

    /// Issue 28: pages short of their own count are no answer.
    @Test func aListingShortOfItsCountIsNotWhole() async throws {
        let transport = StubTransport([
            "https://swapi.dev/api/species/": .response(page(next: nil, count: 5, species: 1))
        ])
        let client = SpeciesClient.stubbed(transport, diagnostics: diagnostics)
        let error = await fault { _ = try await client.allSpecies() }
        #expect(
            error?.description
                == "https://swapi.dev/api/species/ is not whole: it holds 1 species, where its place in the listing takes 5"
        )
        #expect(error?.kind == .badAnswer)
    }

    @Test(
        arguments: [
            (TransportError.Kind.tooLarge, "tooLarge"),
            (.redirectRefused, "redirected"),
            (.timedOut, "unreachable"),
            (.connectionRefused, "unreachable"), (.connectionLost, "unreachable"), (.unknownHost, "unreachable"),
        ] as [(TransportError.Kind, String)])
    func transportFailuresBecomeTheirError(kind: TransportError.Kind, error expected: String) async throws {
        let url = Dialect.drf.listingURL(APIRoot.swapi)
        let client = SpeciesClient.stubbed(
            StubTransport([url.absoluteString: .failure(kind)]), diagnostics: diagnostics)
        let error = try #require(await fault { _ = try await client.page() })
        #expect(Mirror(reflecting: error).children.first?.label == expected)
    }
}

@Suite("Terminal safety")
struct TerminalTextTests {
    @Test(
        arguments: [
            ("Wookie", "Wookie"), ("\u{1B}[31mRed", #"\u{1B}[31mRed"#), ("bell\u{07}", #"bell\u{7}"#),
            ("csi\u{9B}2J", #"csi\u{9B}2J"#), ("del\u{7F}", #"del\u{7F}"#),
            ("tab\tnew\nline", #"tab\u{9}new\u{A}line"#),
            ("Pau'an é 🐻", "Pau'an é 🐻"),
        ])
    func controlsAreEscaped(text: String, shown: String) {
        #expect(TerminalText.escape(text) == shown)
    }

    /// What makes text read in another order than it is written, or hides
    /// in it, or breaks a line where a terminal does not show one.
    @Test(
        arguments: [
            ("Hu\u{202E}namow", #"Hu\u{202E}namow"#),
            ("a\u{202A}b\u{202B}c\u{202C}d\u{202D}e", #"a\u{202A}b\u{202B}c\u{202C}d\u{202D}e"#),
            ("\u{2066}x\u{2067}y\u{2068}z\u{2069}", #"\u{2066}x\u{2067}y\u{2068}z\u{2069}"#),
            (
                "zero\u{200B}width\u{200C}\u{200D}\u{200E}\u{200F}",
                #"zero\u{200B}width\u{200C}\u{200D}\u{200E}\u{200F}"#
            ),
            ("\u{FEFF}bom", #"\u{FEFF}bom"#), ("line\u{2028}para\u{2029}", #"line\u{2028}para\u{2029}"#),
            ("narrow\u{202F}space, 🚀 and ❤️ stay", "narrow\u{202F}space, 🚀 and ❤️ stay"),
            // Issue 29: the Hangul fillers, and the tag characters.
            ("a\u{3164}b\u{115F}c\u{1160}d\u{FFA0}e", #"a\u{3164}b\u{115F}c\u{1160}d\u{FFA0}e"#),
            ("flag\u{E0001}\u{E0067}\u{E007F}", #"flag\u{E0001}\u{E0067}\u{E007F}"#), ("한글 stays", "한글 stays"),
        ])
    func invisibleAndReorderingCharactersAreEscaped(text: String, shown: String) {
        #expect(TerminalText.escape(text) == shown)
    }

    @Test func theDetailTextEscapesValuesButKeepsItsOwnLayout() {
        let species = StarWarsSpecies(
            url: Fixtures.speciesURL, name: "\u{1B}[2JRed", averageHeight: 1, skinColors: ["a\u{07}"],
            hairColors: ["b"], eyeColors: ["c"],
            averageLifespan: "9\u{1B}", language: "x\ty")
        #expect(
            DetailRenderer.render(species) == #"""
                \u{1B}[2JRed

                Members of the \u{1B}[2JRed species speak x\u{9}y. The \u{1B}[2JRed can be identified by their height, typically 1cm.

                Typical coloring includes eyes:
                	c
                hair:
                	b
                and skin:
                	a\u{7}

                Their average lifespan is 9\u{1B}.

                """#)
    }

    @Test func tableCellsAreEscaped() {
        let table = SpeciesTable.render([StarWarsSpecies(url: Fixtures.speciesURL, name: "\u{1B}[31mRed")])
        #expect(table.contains(#"\u{1B}[31mRed"#))
        #expect(!table.unicodeScalars.contains("\u{1B}"))
    }

    @Test(arguments: [
        (0, "0 bytes"), (1, "1 byte"), (2, "2 bytes"), (512, "512 bytes"), (1024, "1 KiB"), (1536, "1.5 KiB"),
        (104_857_600, "100 MiB"), (1_073_741_824, "1 GiB"),
    ])
    func byteCounts(bytes: Int, text: String) {
        #expect(ByteCount.describe(bytes) == text)
    }
}
