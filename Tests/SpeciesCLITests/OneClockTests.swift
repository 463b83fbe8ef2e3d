import Foundation
import Testing
import TestSupport

/// Issue 28: `--timeout` is the whole command's clock, and only whole
/// answers exit 0. The rules are tested on a clock the tests drive
/// (ServiceListTests, RetryTests, DeadlineTests); these few run the
/// installed build against a server of the suite's own, each case of the
/// issue once, with slack for a busy machine.
@Suite("One clock, and only whole answers")
struct OneClockTests {
    static let server = Task { try await FixtureServer.start() }
    let session = ServerSession(on: OneClockTests.server)
    private var species: SpeciesRunner { SpeciesRunner(options: ["--no-cache"], fallback: false, build: .installed) }
    /// What a loaded machine may add to a run: starting, and ending.
    static let slack = 3.0

    /// Before: `Retry-After: 4` on every try with `--timeout 2` took 12 s,
    /// three retries of 4 s each.
    @Test func aRetryAfterPastTheTimeLeftFailsAtOnceSayingSo() async throws {
        let root = try await session.root(fault: "retry-after-4")
        let result = try await species(["--timeout", "2", "--base-url", root, "list"])
        #expect(result.status == 69 && result.stdout == "", "\(result)")
        #expect(
            result.stderr.hasPrefix(
                "error: \(root)species/ answered HTTP 503 Service Unavailable and asks to wait 4 s; "))
        #expect(result.stderr.contains(" s of the timeout are left; try again after "), "\(result)")
        #expect(result.seconds < 2 + Self.slack, "\(result.seconds) s")
        #expect(try await session.requests(fault: "retry-after-4").count == 1, "not waited out")
    }

    /// Every service asks to wait longer than the timeout leaves: none is
    /// waited for.
    @Test func servicesThatAllAskToWaitTooLongAreNotWaitedFor() async throws {
        let first = try await session.root(fault: "retry-after-4"), last = try await session.root(fault: "503-always")
        let result = try await species(["--timeout", "3", "--retries", "1", "--base-url", "\(first) \(last)", "list"])
        #expect(result.status == 69 && result.stdout == "", "\(result)")
        #expect(result.seconds < 3 + Self.slack, "\(result.seconds) s")
    }

    /// Before: `--serial` against a slow but steady service (1.1 KiB/s)
    /// gave each page the whole `--timeout` again: 17.8 s or more at
    /// `--timeout 8`. Now the walk ends at the deadline.
    @Test func aSlowWalkEndsAtTheDeadline() async throws {
        let root = try await session.root(fault: "slow-body")
        let result = try await species(["--timeout", "4", "--base-url", root, "list", "--all-pages", "--serial"])
        #expect(result.status == 69 && result.stdout == "", "\(result)")
        #expect(
            result.stderr.hasSuffix(" timed out: no complete answer before the 4 s timeout ran out (--timeout)\n"),
            "\(result)")
        #expect(result.seconds >= 4 && result.seconds < 4 + Self.slack, "\(result.seconds) s")
    }

    /// Before: `show 3 --related` whose related resources hang on every
    /// service took 6.2 s at `--timeout 5`.
    @Test func relatedResourcesThatHangOnEveryServiceEndAtTheDeadline() async throws {
        let first = try await session.root(fault: "related-hang"), last = try await session.root(fault: "related-hang")
        let result = try await species(["--timeout", "5", "--base-url", "\(first) \(last)", "show", "3", "--related"])
        #expect(result.status == 69 && result.stdout == "", "\(result)")
        #expect(result.seconds < 5 + Self.slack, "\(result.seconds) s")
    }

    /// Before: page 2 empty printed 10 of 37 species, exit 0, and cached
    /// them. Now the next service answers the whole listing; alone, the
    /// service's listing is no answer.
    @Test func aListingShortOfItsCountGivesWayAndIsNotCached() async throws {
        let short = try await session.root(fault: "later-empty"), answering = try await session.root()
        let cache = Fixtures.temporaryFolder("short")
        let result = try await SpeciesRunner(cacheHome: cache, build: .installed)([
            "--base-url", "\(short) \(answering)", "list", "--all-pages", "--json",
        ])
        #expect(result.status == 0, "\(result)")
        let species = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        #expect(species.count == 37 && species.allSatisfy { ($0["url"] as? String)?.hasPrefix(answering) == true })
        let name = { (root: String) in root.replacingOccurrences(of: "http://", with: "") }
        #expect(
            result.stderr
                == "\(name(short)) did not answer in full (\(short)species/?page=2 is not whole: it counts 0 species, "
                + "where page 1 counted 37, after 1 page, which is dropped); answered by \(name(answering))\n")
        let offline = try await SpeciesRunner(cacheHome: cache, build: .installed)([
            "--offline", "-v", "--base-url", short, "list",
        ])
        #expect(!offline.stderr.contains("from the cache"), "nothing of the short listing is cached: \(offline)")

        let alone = try await self.species(["--base-url", short, "list", "--all-pages"])
        #expect(alone.status == 65 && alone.stdout == "", "\(alone)")
        #expect(
            alone.stderr
                == "error: \(short)species/?page=2 is not whole: it counts 0 species, where page 1 counted 37\n")
    }
}
