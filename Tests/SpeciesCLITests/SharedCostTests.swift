import Foundation
import Testing
import TestSupport

/// Cost that does not grow with use (issue 42), end to end: runs that
/// share a cache folder share a fetch, a service found dead is not asked
/// again for a minute, services are staggered, and `SWAPI_OFFLINE`. The
/// server counts the requests; time is read by species' own clock
/// (`--verbose`), with room for a busy machine.
@Suite("Cost that does not grow with use, end to end")
struct SharedCostTests {
    /// A server of the suite's own: its hanging requests hold no other
    /// suite's, nor theirs these.
    static let server = Task { try await FixtureServer.start() }
    let session = ServerSession(on: SharedCostTests.server)
    let cache = Fixtures.temporaryFolder("shared-cost")

    private func species(_ arguments: [String]) async throws -> ProcessResult {
        try await SpeciesRunner(cacheHome: cache)(arguments)
    }

    /// Eight runs at once on one cache folder, as `xargs -P 8` makes them,
    /// cost at most twice one run's requests: the first holds the lock of
    /// the question, the others wait and read what it cached.
    @Test func eightRunsOnOneCacheFolderShareAFetch() async throws {
        let root = try await session.root(delay: 300)
        let runs = (0..<8).map { _ in
            Task { try await species(["--base-url", root, "list", "--all-pages", "--json"]) }
        }
        var outputs: [String] = []
        for run in runs { outputs.append(try await run.value.stdout) }
        #expect(Set(outputs).count == 1)
        #expect(
            try (JSONSerialization.jsonObject(with: Data(outputs[0].utf8)) as? [Any])?.count == 37)
        #expect(try await session.requests(delay: 300).count <= 8, "one run asks 4")
    }

    /// A root that accepts and never answers, asked twice within the
    /// minute: the second run does not ask it, and says when it failed; a
    /// refresh asks it again.
    @Test func aRootThatNeverAnswersCostsItsWaitOnce() async throws {
        let root = try await session.root(fault: "hang")
        let first = try await species(["-v", "--timeout", "1", "--base-url", root, "list"])
        #expect(first.status == 69, "\(first)")
        let asked = try await session.requests(fault: "hang", atLeast: 1).count
        let second = try await species(["-v", "--timeout", "1", "--base-url", root, "list"])
        #expect(second.status == 69)
        #expect(
            second.messages.hasPrefix("error: \(Self.host(root)) did not answer ")
                && second.messages.contains(" ago, and the cache holds no answer; asked again in ")
                && second.messages.hasSuffix(" s, or at once on a refresh\n"), "\(second.messages)")
        #expect(try await session.requests(fault: "hang").count == asked, "not asked again")
        #expect(try #require(second.ownSeconds) < 1, "no wait")
        let refreshed = try await species(["-v", "--timeout", "1", "--refresh", "--base-url", root, "list"])
        #expect(refreshed.messages.contains(" timed out: "), "asked again: \(refreshed.messages)")
    }

    /// Any answer of a service ends the record of an outage; a record that
    /// does not read, or a folder of locks that is a file, is no error.
    @Test func anAnswerEndsTheOutageAndBrokenFilesAreNoError() async throws {
        // Its first request hangs, the others are answered.
        let root = try await session.root(fault: "hang", faulty: 1)
        let first = try await species(["--timeout", "1", "--base-url", root, "show", "3"])
        #expect(first.status == 69)
        let down = try await species(["--base-url", root, "show", "3"])
        #expect(down.status == 69 && down.stderr.contains(" ago, and the cache holds no answer; asked again in "))
        let refreshed = try await species(["--refresh", "--base-url", root, "show", "3"])
        #expect(refreshed.status == 0 && refreshed.stdout.hasPrefix("Wookie\n"), "\(refreshed)")
        let next = try await species(["--base-url", root, "show", "5"])
        #expect(next.status == 0 && next.stdout.hasPrefix("Hutt\n") && next.stderr == "", "\(next)")
        let folder = cache.appendingPathComponent("species")
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".record") {
            try Data("species-cache 1\ngarbage".utf8).write(to: folder.appendingPathComponent(name))
        }
        try FileManager.default.removeItem(at: folder.appendingPathComponent("locks"))
        try Data("no folder".utf8).write(to: folder.appendingPathComponent("locks"))
        let broken = try await species(["--base-url", root, "show", "7"])
        #expect(broken.status == 0 && broken.stdout.hasPrefix("Trandoshan\n"), "\(broken)")
    }

    /// Three services that never answer, then one that does: each is asked
    /// beside the one before once it has been quiet for 0.25 s, so the
    /// fourth answers within a timeout that asking them in turn (3 s each,
    /// 9 s before the fourth) would pass.
    @Test func staggeredServicesAnswerWithinATimeoutThatInTurnWouldPass() async throws {
        let hanging = try await (1...3).asyncMap { try await session.root(fault: "hang", faulty: $0 * 1000) }
        let answering = try await session.root()
        let result = try await SpeciesRunner(options: ["--no-cache"])(
            ["-v", "--timeout", "8.5", "--base-url", (hanging + [answering]).joined(separator: " "), "show", "3"])
        #expect(result.status == 0 && result.stdout.hasPrefix("Wookie\n"), "\(result)")
        let names = hanging.map(Self.authority)
        #expect(
            result.messages
                == "note: \(names[0]), \(names[1]) and \(names[2]) did not answer (no answer began within 3 s); "
                + "answered by \(Self.authority(answering))\n")
    }

    /// A run that holds the lock of a question and hangs never holds
    /// another run past the other's own timeout.
    @Test func aLockHeldByAHangingRunHoldsNoOtherPastItsClock() async throws {
        let root = try await session.root(fault: "hang")
        let holder = try await SpeciesRunner(cacheHome: cache).start(
            nil, ["--timeout", "60", "--base-url", root, "list"])
        _ = try await session.requests(fault: "hang", atLeast: 1)
        let waiter = try await species(["-v", "--timeout", "1", "--base-url", root, "list"])
        #expect(waiter.status == 69)
        #expect(waiter.stderr.contains("verbose: waiting for another run that asks the same"), "\(waiter.stderr)")
        #expect(try #require(waiter.ownSeconds) < 1 + TimeTests.slack)
        holder.signal(SIGKILL)
        _ = try? await holder.result()
    }

    /// `SWAPI_OFFLINE` is `--offline` for a session.
    @Test func swapiOfflineMakesASessionOffline() async throws {
        let result = try await SpeciesRunner(cacheHome: cache)(
            ["--base-url", try await session.root(), "list"], environment: ["SWAPI_OFFLINE": "1"])
        #expect(result.status == 69 && result.stderr.contains("is not in the cache, and the client is offline"))
        #expect(try await session.requests().isEmpty)
    }

    /// `127.0.0.1:8000/t1/api/`: a root of the session as messages name it
    /// in a list of several on one host.
    private static func authority(_ root: String) -> String {
        String(root.dropFirst("http://".count))
    }

    /// `127.0.0.1:8000`: a root as messages name it alone.
    private static func host(_ root: String) -> String {
        String(authority(root).prefix { $0 != "/" })
    }
}

extension Sequence {
    fileprivate func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}
