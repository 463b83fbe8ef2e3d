import Foundation
import Testing
import TestSupport

/// `--timeout`, the whole command's clock, retries and `Retry-After`, end
/// to end: every test here of a time limit or a wait. The rules themselves
/// are tested on a clock the tests drive (ServicesInTurnTests, RetryTests,
/// DeadlineTests); these run the built species against a server of the
/// suite's own, and read how long it took by its own clock (`--verbose`),
/// with slack for a busy machine.
@Suite("Timeouts, retries and waits, end to end")
struct TimeTests {
    static let server = Task { try await FixtureServer.start() }
    let session = ServerSession(on: TimeTests.server)
    /// What a loaded machine may add to a run after its deadline: ending
    /// the requests, writing the error.
    static let slack = 2.0

    /// The installed species, without the cache or the fallback, verbose,
    /// so that it says how long it took.
    private func installed(_ arguments: [String]) async throws -> ProcessResult {
        try await SpeciesRunner(options: ["--no-cache", "-v"], fallback: false, build: .installed)(arguments)
    }

    /// The debug species against this suite's session with `fault`, without
    /// the fallback.
    private func species(_ fault: String?, _ arguments: [String]) async throws -> ProcessResult {
        try await SpeciesRunner(session, fallback: false)(fault, arguments)
    }

    /// Before: `Retry-After: 4` on every try with `--timeout 2` took 12 s,
    /// three retries of 4 s each.
    @Test func aRetryAfterPastTheTimeLeftFailsAtOnceSayingSo() async throws {
        let root = try await session.root(fault: "retry-after-4")
        let result = try await installed(["--timeout", "2", "--base-url", root, "list"])
        #expect(result.status == 69 && result.stdout == "", "\(result)")
        #expect(
            result.messages.hasPrefix(
                "error: \(root)species/ answered HTTP 503 Service Unavailable and asks to wait 4 s; "))
        #expect(result.messages.contains(" s of the timeout are left; try again after "), "\(result)")
        #expect(try #require(result.ownSeconds) < 2 + Self.slack, "\(result)")
        #expect(try await session.requests(fault: "retry-after-4").count == 1, "not waited out")
    }

    /// Every service asks to wait longer than the timeout leaves: none is
    /// waited for.
    @Test func servicesThatAllAskToWaitTooLongAreNotWaitedFor() async throws {
        let first = try await session.root(fault: "retry-after-4"), last = try await session.root(fault: "503-always")
        let result = try await installed(["--timeout", "3", "--retries", "1", "--base-url", "\(first) \(last)", "list"])
        #expect(result.status == 69 && result.stdout == "", "\(result)")
        #expect(try #require(result.ownSeconds) < 3 + Self.slack, "\(result)")
    }

    /// Before: `--serial` against a slow but steady service (1.1 KiB/s)
    /// gave each page the whole `--timeout` again: 17.8 s or more at
    /// `--timeout 8`. Now the walk ends at the deadline.
    @Test func aSlowWalkEndsAtTheDeadline() async throws {
        let root = try await session.root(fault: "slow-body")
        let result = try await installed(["--timeout", "4", "--base-url", root, "list", "--all-pages", "--serial"])
        #expect(result.status == 69 && result.stdout == "", "\(result)")
        // Issue 44: `done after` comes last, after the error.
        let lines = result.stderr.split(separator: "\n")
        #expect(
            lines.dropLast().last?.hasSuffix(
                " timed out: no complete answer before the 4 s timeout ran out (--timeout)")
                == true && lines.last?.hasPrefix("verbose: done after ") == true, "\(result)")
        let seconds = try #require(result.ownSeconds)
        #expect(seconds >= 4 && seconds < 4 + Self.slack, "\(result)")
    }

    /// Before: `show 3 --related` whose related resources hang on every
    /// service took 6.2 s at `--timeout 5`.
    @Test func relatedResourcesThatHangOnEveryServiceEndAtTheDeadline() async throws {
        let first = try await session.root(fault: "related-hang"), last = try await session.root(fault: "related-hang")
        let result = try await installed(["--timeout", "5", "--base-url", "\(first) \(last)", "show", "3", "--related"])
        #expect(result.status == 69 && result.stdout == "", "\(result)")
        #expect(try #require(result.ownSeconds) < 5 + Self.slack, "\(result)")
    }

    /// At the default 15 s, a service that others follow has 3 s to begin
    /// its answer (a fifth of the timeout, at least 3 s).
    @Test func aHangingServiceGivesWayAfterThreeSeconds() async throws {
        let hanging = try await session.root(fault: "hang"), answering = try await session.root()
        let result = try await SpeciesRunner()(
            ["--timeout", "15", "--no-cache", "--base-url", hanging, "--base-url", answering, "list"])
        #expect(result.status == 0)
        #expect(result.stdout == (try Fixtures.text("golden/list/page-1.txt")))
        let names = [hanging, answering].map { $0.replacingOccurrences(of: "http://", with: "") }
        #expect(
            result.stderr
                == "note: \(names[0]) did not answer (no answer began within 3 s); answered by \(names[1])\n")
    }

    @Test func a429WithRetryAfterIsWaitedOutAndRetried() async throws {
        let result = try await species("429-once", ["list"])
        let root = try await session.root(fault: "429-once")
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == (try Fixtures.text("golden/list/page-1.txt")))
        #expect(
            result.stderr
                == "note: retry 1 of 3 in 1.0 s, as the server asked: \(root)species/: it answered HTTP 429 Too Many Requests\n"
        )
        #expect(try await session.requests(fault: "429-once").count == 2)
    }

    @Test func aRetryAfterDateIsHonoured() async throws {
        let result = try await species("429-date-once", ["list"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == (try Fixtures.text("golden/list/page-1.txt")))
        let firstLine = result.stderr.split(separator: "\n").first ?? ""
        #expect(firstLine.hasPrefix("note: retry 1 of 3 in ") && firstLine.contains(" s, as the server asked: "))
    }

    @Test func aRetryAfterOfHoursFailsAtOnceSayingWhen() async throws {
        let result = try await species("429-long", ["list"])
        let root = try await session.root(fault: "429-long")
        #expect(result.status == 69)
        #expect(result.stdout == "")
        #expect(
            result.stderr.hasPrefix(
                "error: \(root)species/ answered HTTP 429 Too Many Requests and asks to wait 7 h 12 min; "))
        #expect(result.stderr.contains(" s of the timeout are left; try again after "))
        #expect(result.stderr.hasSuffix(" UTC (--timeout)\n"))
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(try await session.requests(fault: "429-long").count == 1)
    }

    @Test(arguments: [("500-once", "500 Internal Server Error"), ("503-once", "503 Service Unavailable")])
    func aServerErrorIsRetried(fault: String, status: String) async throws {
        let result = try await species(fault, ["list"])
        let root = try await session.root(fault: fault)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == (try Fixtures.text("golden/list/page-1.txt")))
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 2)
        // The first wait is 0.5 s scaled by a jitter factor from 0.5 to 1.
        #expect(
            ["0.2", "0.3", "0.4", "0.5"].contains {
                lines[0] == "note: retry 1 of 3 in \($0) s: \(root)species/: it answered HTTP \(status)"
            })
        #expect(lines[1] == "")
    }

    @Test func retriesRunOutWithTheLastAnswer() async throws {
        let result = try await species("503-always", ["list", "--retries", "1"])
        let root = try await session.root(fault: "503-always")
        #expect(result.status == 69)
        #expect(result.stdout == "")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.first?.hasPrefix("note: retry 1 of 1 in ") == true)
        #expect(lines.last == "error: \(root)species/ answered HTTP 503 Service Unavailable")
        #expect(try await session.requests(fault: "503-always").count == 2)
    }

    @Test func aDroppedConnectionIsRetried() async throws {
        let result = try await species("drop-once", ["list"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == (try Fixtures.text("golden/list/page-1.txt")))
        #expect(result.stderr.hasPrefix("note: retry 1 of 3 in "))
        #expect(result.stderr.contains(": the connection dropped before a complete answer ("))
    }

    @Test(arguments: [("hang", "1"), ("drip", "1.5")])
    func aSilentOrDrippingServerTimesOut(fault: String, timeout: String) async throws {
        let root = try await session.root(fault: fault)
        let result = try await SpeciesRunner()([
            "-v", "--no-fallback", "--base-url", root, "list", "--timeout", timeout,
        ])
        #expect(result.status == 69)
        #expect(result.stdout == "")
        #expect(
            result.messages
                == "error: \(root)species/ timed out: no complete answer before the \(timeout) s timeout ran out (--timeout)\n"
        )
        // The server would hang for 300 s, or drip for half an hour.
        #expect(try #require(result.ownSeconds) < Double(timeout)! + Self.slack, "the deadline ends it: \(result)")
        // Timeouts are not retried: a retry would be announced on stderr
        // (checked above) and asked again. Under a busy test run the server
        // may not have read the one request before it was given up.
        let log = try await session.requests(fault: fault)
        #expect(log.count <= 1, "\(log)")
    }

    @Test func aRetryAfterPastAnyRangeFailsAtOnceReadably() async throws {
        let result = try await species("retry-after-huge", ["list"])
        let root = try await session.root(fault: "retry-after-huge")
        #expect(result.status == 69 && !result.killedBySignal, "\(result)")
        #expect(result.stdout == "")
        #expect(
            result.stderr.hasPrefix(
                "error: \(root)species/ answered HTTP 503 Service Unavailable and asks to wait 31688087 years; "))
        #expect(result.stderr.hasSuffix(" s of the timeout are left (--timeout)\n"), "\(result)")
        #expect(try await session.requests(fault: "retry-after-huge").count == 1)
    }

    @Test func aRetryAfterThatIsNotDigitsIsIgnored() async throws {
        let root = try await session.root(fault: "retry-after-hex")
        let result = try await installed(["--retries", "1", "--base-url", root, "list"])
        #expect(result.status == 0, "\(result)")
        let first = try #require(result.messages.split(separator: "\n").first)
        #expect(
            first.hasPrefix("note: retry 1 of 1 in 0.")
                && first.hasSuffix(" s: \(root)species/: it answered HTTP 503 Service Unavailable"), "\(first)")
        let huge = try await installed(["--base-url", try await session.root(fault: "retry-after-huge"), "list"])
        #expect(huge.status == 69 && huge.stderr.contains(" and asks to wait 31688087 years"), "\(huge)")
    }

    /// `--timeout 1` holds while four transfers inflate a GiB each (before:
    /// 3.1 s, the deadline itself kept waiting by cancellations that held
    /// Swift's threads; 620 to 880 MB).
    /// A server of the test's own, which makes its bombs before it listens.
    @Test(arguments: SpeciesBuild.allCases)
    func fourGzipBombsEndWithinTheTimeout(build: SpeciesBuild) async throws {
        let server = try await FixtureServer.start(["--gzip-bombs"])
        defer { Task { await server.stop() } }
        let root = server.root(session: "bombs/fault=gzip-bombs")
        let result = try await SpeciesRunner(build: build)([
            "-v", "--no-cache", "--base-url", root, "list", "--all-pages", "--timeout", "1",
        ])
        #expect(result.status == 65 || result.status == 69, "\(result)")
        #expect(result.stdout == "" && result.messages.split(separator: "\n").count == 1)
        // 1.0 to 1.1 s beside four busy processes; the rest is slack for a
        // machine that runs the whole suite beside it.
        #expect(try #require(result.ownSeconds) < 1 + Self.slack, "the 1 s deadline holds: \(result)")
        #expect(result.peakMemory < 500 << 20, "\(result.peakMemory >> 20) MB")
    }
}
