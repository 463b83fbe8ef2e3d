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
        "anything off the root's host, port or scheme is refused",
        arguments: [
            ("https://evil.example/api/species/?page=2", "leaves https://swapi.dev"),
            ("https://swapi.dev:8443/api/species/?page=2", "leaves https://swapi.dev"),
            ("http://swapi.dev:8080/api/species/?page=2", "leaves https://swapi.dev"),
            ("file:///etc/passwd", "is not an http(s) URL"),
            ("ftp://swapi.dev/api/species/", "is not an http(s) URL"),
            ("javascript:alert(1)", "is not an http(s) URL"),
            ("http://[oops", "is not a URL"),
            ("http://", "leaves https://swapi.dev"),
        ])
    func refused(link: String, why: String) {
        #expect(throws: SpeciesError.refused(url: page, problem: "its 'next' link '\(link)' \(why); not followed")) {
            _ = try resolve(link)
        }
    }

    @Test func anHTTPSLinkUnderAnHTTPRootIsNotDowngradedButRefused() throws {
        let local = URL(string: "http://127.0.0.1:8000/api/species/")!
        let root = APIRoot("http://127.0.0.1:8000/api/")!
        #expect(
            try LinkPolicy.resolve("http://127.0.0.1:8000/api/species/?page=2", of: local, root: root).absoluteString
                == "http://127.0.0.1:8000/api/species/?page=2")
        #expect(throws: SpeciesError.self) {
            _ = try LinkPolicy.resolve("https://127.0.0.1:8000/api/species/?page=2", of: local, root: root)
        }
    }
}

@Suite("One origin rule")
struct OriginTests {
    @Test(
        "a redirect or link may go on to the same origin, or its https upgrade",
        arguments: [
            ("http://swapi.dev/api/species", "http://swapi.dev/api/species/", true),
            ("http://swapi.dev/api/species", "https://swapi.dev/api/species/", true),
            ("https://swapi.dev/api/species", "https://SWAPI.DEV:443/api/species/", true),
            ("HTTPS://swapi.dev/api/species", "https://swapi.dev/api/", true),
            ("https://swapi.dev/api/species", "http://swapi.dev/api/species/", false),
            ("https://swapi.dev/api/species", "https://evil.example/api/species/", false),
            ("http://127.0.0.1:8000/api/", "http://localhost:8000/api/", false),
            ("http://127.0.0.1:8000/api/", "http://127.0.0.1:8001/api/", false),
            ("http://127.0.0.1:8000/api/", "https://127.0.0.1:8443/api/", false),
        ] as [(String, String, Bool)])
    func admits(from origin: String, to target: String, admitted: Bool) throws {
        let from = try #require(URL(string: origin).flatMap(Origin.init))
        let to = try #require(URL(string: target).flatMap(Origin.init))
        #expect(from.admits(to) == admitted)
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
    let waits = RecordedValues<Double>()

    private func status(_ code: Int, retryAfter: String? = nil) -> StubTransport.Reply {
        .response(
            HTTPResponse(status: code, headers: retryAfter.map { ["Retry-After": $0] } ?? [:], body: Data("{}".utf8)))
    }

    private func retrying(_ script: ScriptedTransport, retries: Int = 3) -> RetryingTransport {
        RetryingTransport(
            script, policy: .init(retries: retries), diagnostics: diagnostics,
            sleep: { [waits] seconds in waits.append(seconds) },
            random: { 0.5 }, now: { Date(timeIntervalSince1970: 1_000_000) })
    }

    @Test(arguments: [429, 500, 502, 503, 504])
    func retriedStatusesAreRetriedWithGrowingWaits(code: Int) async throws {
        let script = ScriptedTransport([status(code), status(code), status(200)])
        let response = try await retrying(script).send(HTTPRequest(url: url))
        #expect(response.status == 200)
        #expect(script.requests.count == 3)
        #expect(waits.all == [0.375, 0.75])
        #expect(diagnostics.notes.count == 2)
        #expect(
            diagnostics.notes.first?.hasPrefix(
                "retry 1 of 3 in 0.4 s: https://swapi.dev/api/species/: it answered HTTP \(code) ") == true)
    }

    /// `--verbose` tells each attempt, not only the last.
    @Test func eachAttemptIsTraced() async throws {
        let script = ScriptedTransport([status(503), .failure(.connectionLost), status(200)])
        _ = try await retrying(script).send(HTTPRequest(url: url))
        let traces = diagnostics.traces
        #expect(traces.count == 3, "\(traces)")
        #expect(traces[0].hasPrefix("GET https://swapi.dev/api/species/: 503 Service Unavailable, 2 bytes, "))
        #expect(traces[1].hasPrefix("GET https://swapi.dev/api/species/: failed after "))
        #expect(traces[1].hasSuffix(" ms: scripted connectionLost"))
        #expect(traces[2].hasSuffix(" ms, from the network"))
    }

    @Test(arguments: [400, 401, 403, 404, 410, 418])
    func otherClientErrorsAreNotRetried(code: Int) async throws {
        let script = ScriptedTransport([status(code), status(200)])
        #expect(try await retrying(script).send(HTTPRequest(url: url)).status == code)
        #expect(script.requests.count == 1)
        #expect(diagnostics.notes.isEmpty)
    }

    @Test func retriesRunOutWithTheLastResponse() async throws {
        let script = ScriptedTransport([status(503), status(503), status(503)])
        #expect(try await retrying(script, retries: 2).send(HTTPRequest(url: url)).status == 503)
        #expect(script.requests.count == 3)
    }

    @Test func noRetriesMeansOneRequest() async throws {
        let script = ScriptedTransport([status(503), status(200)])
        #expect(try await retrying(script, retries: 0).send(HTTPRequest(url: url)).status == 503)
        #expect(script.requests.count == 1)
    }

    @Test(
        "Retry-After in seconds or as an HTTP date is waited exactly",
        arguments: [("2", 2.0), ("0", 0.0), ("Mon, 12 Jan 1970 13:46:50 GMT", 10.0), ("30", 30.0)])
    func retryAfterIsHonoured(value: String, seconds: Double) async throws {
        let script = ScriptedTransport([status(429, retryAfter: value), status(200)])
        #expect(try await retrying(script).send(HTTPRequest(url: url)).status == 200)
        #expect(waits.all == [seconds])
        #expect(diagnostics.notes.first?.contains(", as the server asked:") == true)
    }

    @Test func anUnreadableRetryAfterFallsBackToBackoff() async throws {
        let script = ScriptedTransport([status(503, retryAfter: "soon"), status(200)])
        _ = try await retrying(script).send(HTTPRequest(url: url))
        #expect(waits.all == [0.375])
    }

    @Test func aRetryAfterLongerThan30SecondsFailsAtOnce() async throws {
        let script = ScriptedTransport([status(429, retryAfter: "25924")])
        await #expect(
            throws: TransportError(
                .throttled(status: 429, retryAfter: 25924), url: url, detail: "it asks to wait 7 h 12 min")
        ) {
            _ = try await retrying(script).send(HTTPRequest(url: url))
        }
        #expect(waits.all.isEmpty)
    }

    @Test(
        "any Retry-After in digits is held to a bound: no trap, a readable wait",
        arguments: [
            ("99999999999999999999999", "31688087 years"), ("1000000000000", "31688 years"), ("2592000", "30 days"),
        ])
    func hugeRetryAfters(value: String, wait: String) async throws {
        let script = ScriptedTransport([status(503, retryAfter: value)])
        do {
            _ = try await retrying(script).send(HTTPRequest(url: url))
            Issue.record("no error")
        } catch let error as TransportError {
            #expect(error.detail == "it asks to wait \(wait)")
            guard case .throttled(let status, let seconds) = error.kind else { return #expect(Bool(false)) }
            let message = SpeciesError.rateLimited(url: url, status: status, retryAfter: seconds).description
            #expect(
                message.hasPrefix(
                    "https://swapi.dev/api/species/ answered HTTP 503 Service Unavailable and asks to wait \(wait)"))
            #expect(!message.contains("try again after") || wait == "30 days")
        }
    }

    /// RFC 9110 allows digits or an HTTP date: `0x10` is not 16 s, nor
    /// `1e19` 31 million years; the usual back-off applies.
    @Test(arguments: ["0x10", "1e19", "inf", "1.5", "-3", "+5", " ", "10 s"])
    func aRetryAfterThatIsNotDigitsNorADateIsIgnored(value: String) async throws {
        let script = ScriptedTransport([
            status(503, retryAfter: value), .response(HTTPResponse(status: 200, body: Data())),
        ])
        let response = try await retrying(script, retries: 1).send(HTTPRequest(url: url))
        #expect(response.status == 200)
        #expect(waits.all.count == 1 && (0.25...0.5).contains(waits.all[0]), "\(waits.all)")
        #expect(RetryAfter.seconds(value, now: Date()) == nil)
    }

    @Test func aDroppedConnectionIsRetriedButATimeoutIsNot() async throws {
        let dropped = ScriptedTransport([.failure(.connectionLost), status(200)])
        #expect(try await retrying(dropped).send(HTTPRequest(url: url)).status == 200)
        #expect(dropped.requests.count == 2)

        let timedOut = ScriptedTransport([.failure(.timedOut(seconds: 1)), status(200)])
        await #expect(throws: TransportError.self) { _ = try await retrying(timedOut).send(HTTPRequest(url: url)) }
        #expect(timedOut.requests.count == 1)

        let refused = ScriptedTransport([.failure(.connectionRefused), status(200)])
        await #expect(throws: TransportError.self) { _ = try await retrying(refused).send(HTTPRequest(url: url)) }
        #expect(refused.requests.count == 1)
    }

    @Test func backoffDoublesUpToACapWithJitter() {
        let policy = RetryingTransport.Policy(retries: 3)
        #expect(policy.backoff(attempt: 0, unit: 0) == 0.25)
        #expect(policy.backoff(attempt: 0, unit: 1) == 0.5)
        #expect(policy.backoff(attempt: 1, unit: 0) == 0.5)
        #expect(policy.backoff(attempt: 2, unit: 1) == 2)
        #expect(policy.backoff(attempt: 10, unit: 1) == 8)
        #expect(policy.backoff(attempt: 1000, unit: 0) == 4)
    }

    @Test(arguments: [
        (0.0, "0 s"), (25.0, "25 s"), (119, "119 s"), (119.5, "2 min"), (600, "10 min"), (25924, "7 h 12 min"),
        (-5, "0 s"), (.nan, "0 s"),
    ])
    func waitsAreDescribedForPeople(seconds: Double, text: String) {
        #expect(TimeSpan.describe(seconds) == text)
    }
}

@Suite("Deadline")
struct DeadlineTests {
    let url = URL(string: "https://swapi.dev/api/species/")!

    @Test func aRequestThatOutlivesTheDeadlineTimesOut() async {
        let silent = FunctionTransport { _ in
            try await Task.sleep(nanoseconds: 60_000_000_000)
            return HTTPResponse(status: 200, body: Data())
        }
        let start = Date()
        await #expect(
            throws: TransportError(.timedOut(seconds: 0.2), url: url, detail: "no complete answer within 0.2 s")
        ) {
            _ = try await DeadlineTransport(silent, seconds: 0.2).send(HTTPRequest(url: url))
        }
        // Far below the 60 s of the request, and far above what a busy test
        // runner on two cores may add.
        #expect(Date().timeIntervalSince(start) < 30, "the slow request was cancelled, not awaited")
    }

    @Test func aPromptAnswerPassesThrough() async throws {
        let prompt = FunctionTransport { _ in HTTPResponse(status: 200, body: Data("{}".utf8)) }
        #expect(try await DeadlineTransport(prompt, seconds: 10).send(HTTPRequest(url: url)).status == 200)
    }

    /// The deadline holds even when the transport below ignores its
    /// cancellation (URLSession busy with a long header block did).
    @Test func theDeadlineHoldsWhenTheTransportDoesNotListen() async {
        // Held until the test is over, whatever cancellation says.
        let held = RecordedValues<CheckedContinuation<Void, Never>>()
        let deaf = FunctionTransport { _ in
            await withCheckedContinuation { held.append($0) }
            return HTTPResponse(status: 200, body: Data())
        }
        let ended = await Self.firstOf(seconds: 10) {
            _ = try? await DeadlineTransport(deaf, seconds: 0.1).send(HTTPRequest(url: url))
        }
        #expect(ended, "the request ended at its deadline, not never")
        held.all.forEach { $0.resume() }
    }

    /// Whether `body` ends before `seconds` have passed.
    private static func firstOf(seconds: Double, _ body: @escaping @Sendable () async -> Void) async -> Bool {
        await withCheckedContinuation { continuation in
            let once = RecordedValues<Bool>()
            let finish = { @Sendable (ended: Bool) in
                once.append(ended)
                if once.all.count == 1 { continuation.resume(returning: ended) }
            }
            Task {
                await body()
                finish(true)
            }
            Task {
                try? await Task.sleep(nanoseconds: UInt64(seconds * 1e9))
                finish(false)
            }
        }
    }

    @Test func aFailureIsNotTurnedIntoATimeout() async {
        let refused = ScriptedTransport([.failure(.connectionRefused)])
        await #expect(throws: TransportError(.connectionRefused, url: url, detail: "scripted connectionRefused")) {
            _ = try await DeadlineTransport(refused, seconds: 10).send(HTTPRequest(url: url))
        }
    }
}

@Suite("Pagination limits")
struct PaginationLimitTests {
    let diagnostics = RecordingDiagnostics()

    private func page(next: String?, count: Int = 1, name: String = "Endless") -> HTTPResponse {
        let next = next.map { "\"\($0)\"" } ?? "null"
        let body = #"{"count":\#(count),"next":\#(next),"previous":null,"results":[{"name":"\#(name)"}]}"#
        return HTTPResponse(status: 200, body: Data(body.utf8))
    }

    @Test func aServerThatNeverEndsIsStoppedAfter500Pages() async throws {
        let asked = RecordedValues<URL>()
        let endless = FunctionTransport { request in
            asked.append(request.url)
            let number = Int(request.url.query?.split(separator: "=").last ?? "1") ?? 1
            return page(next: "https://swapi.dev/api/species/?page=\(number + 1)", name: "Endless \(number)")
        }
        let client = SpeciesClient.stubbed(endless, diagnostics: diagnostics)
        let error = await speciesError { _ = try await client.allSpecies() }
        #expect(
            error
                == .refused(
                    url: URL(string: "https://swapi.dev/api/species/?page=501")!,
                    problem: "more than 500 pages; stopped here"))
        #expect((500...506).contains(asked.all.count), "500 pages, and at most the six asked ahead")
    }

    /// `--page 9223372036854775807` of a listing that has a next page.
    @Test func theLastPossiblePageNumberDoesNotOverflow() async throws {
        let client = SpeciesClient.stubbed(
            FunctionTransport { _ in page(next: "https://swapi.dev/api/species/?page=2", count: 37) },
            diagnostics: diagnostics)
        let last = try await client.page(Int.max)
        #expect(last.number == Int.max && last.pageCount == Int.max)
    }

    /// Pages whose data moves while they are read: each species once, and
    /// one warning.
    @Test func aSpeciesSeenTwiceInOneWalkIsHandedOverOnce() async throws {
        let recorded = try StubTransport.recordedSWAPI()
        let shifted = FunctionTransport { request in
            guard request.url.query == "page=2" else { return try await recorded.send(request) }
            var page =
                try JSONSerialization.jsonObject(with: try await recorded.send(request).body) as? [String: Any] ?? [:]
            let first =
                try JSONSerialization.jsonObject(with: Fixtures.data("swapi/species-page-1.json")) as? [String: Any]
            let last = (first?["results"] as? [Any])?.last
            page["results"] = [last as Any] + ((page["results"] as? [Any])?.dropLast() ?? [])
            return HTTPResponse(status: 200, body: try JSONSerialization.data(withJSONObject: page))
        }
        let names = try await SpeciesClient.stubbed(shifted, diagnostics: diagnostics).allSpecies().compactMap(\.name)
        #expect(names.count == 36 && Set(names).count == 36)
        #expect(
            diagnostics.warnings == [
                "the pages of https://swapi.dev/api/species/ changed while they were read: 1 species came twice, and are printed once; "
                    + "1 of the 37 counted are missing"
            ])
    }

    @Test func aNextLinkThatAnswers404IsTheLinksFault() async throws {
        let transport = StubTransport([
            "https://swapi.dev/api/species/": .response(page(next: "https://swapi.dev/api/species/?page=7"))
        ])
        let client = SpeciesClient.stubbed(transport, diagnostics: diagnostics)
        let error = await speciesError { _ = try await client.allSpecies() }
        #expect(
            error
                == .invalidResponse(
                    url: URL(string: "https://swapi.dev/api/species/")!,
                    problem: "its 'next' link https://swapi.dev/api/species/?page=7 answered 404 Not Found"))
    }

    @Test func aCountThatDisagreesIsWarnedAbout() async throws {
        let transport = StubTransport(["https://swapi.dev/api/species/": .response(page(next: nil, count: 5))])
        let client = SpeciesClient.stubbed(transport, diagnostics: diagnostics)
        #expect(try await client.allSpecies().count == 1)
        #expect(diagnostics.warnings == ["the API counted 5 species but sent 1, from https://swapi.dev/api/species/"])
    }

    @Test(
        arguments: [
            (TransportError.Kind.tooLarge(limit: 1024), "tooLarge"),
            (.redirectRefused(location: "https://evil.example/"), "redirected"),
            (.throttled(status: 429, retryAfter: 60), "rateLimited"), (.timedOut(seconds: 1), "unreachable"),
            (.connectionRefused, "unreachable"), (.connectionLost, "unreachable"), (.unknownHost, "unreachable"),
        ] as [(TransportError.Kind, String)])
    func transportFailuresBecomeTheirError(kind: TransportError.Kind, error expected: String) async throws {
        let url = Dialect.drf.listingURL(APIRoot.swapi)
        let client = SpeciesClient.stubbed(
            StubTransport([url.absoluteString: .failure(kind)]), diagnostics: diagnostics)
        let error = try #require(await speciesError { _ = try await client.page() })
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
        ])
    func invisibleAndReorderingCharactersAreEscaped(text: String, shown: String) {
        #expect(TerminalText.escape(text) == shown)
    }

    @Test func aMessageLineIsCutAt1000CharactersInItsMiddle() {
        let line = TerminalText.line(
            "unknown option '--" + String(repeating: "a", count: 100_000) + "'; did you mean x?")
        #expect(line.count == 1000 && line.contains("a…a") && line.hasPrefix("unknown option '--aaa"))
        #expect(line.hasSuffix("aaa'; did you mean x?"))
        #expect(TerminalText.line("short \u{7}") == #"short \u{7}"#)
    }

    @Test func theDetailTextEscapesValuesButKeepsItsOwnLayout() {
        let species = StarWarsSpecies(
            name: "\u{1B}[2JRed", averageHeight: 1, skinColors: ["a\u{07}"], hairColors: ["b"], eyeColors: ["c"],
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
        let table = SpeciesTable.render([StarWarsSpecies(name: "\u{1B}[31mRed")])
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
