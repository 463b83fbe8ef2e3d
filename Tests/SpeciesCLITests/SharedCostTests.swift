import Foundation
import Testing
import TestSupport

@testable import species

#if canImport(Glibc)
import Glibc
#endif

/// What runs share and remember, end to end (issues 42 and 48): runs that
/// share a cache folder share a fetch and take its lock in turn, a service
/// found down is not asked for a minute while something else can answer,
/// what is remembered says only what was seen, and the folder's
/// housekeeping costs nothing against the clock. The server counts the
/// requests; time is read by species' own clock (`--verbose`), with room
/// for a busy machine, and a test that is about a time limit says its
/// `--timeout` (the default's first-byte limit is 3 s).
@Suite("What runs share and remember, end to end")
struct SharedCostTests {
    /// A server of the suite's own: its hanging requests hold no other
    /// suite's, nor theirs these.
    static let server = Task { try await FixtureServer.start() }
    let session = ServerSession(on: SharedCostTests.server)
    let cache = Fixtures.temporaryFolder("shared-cost")

    private var runner: SpeciesRunner { SpeciesRunner(cacheHome: cache) }

    private func species(_ arguments: [String]) async throws -> ProcessResult {
        try await runner(arguments)
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

    /// A run's own short clock is no dead service: `--timeout 1` against a
    /// service that answers in 2 s records nothing, and the next run, with
    /// time enough, is answered by it.
    @Test func aRunsOwnShortClockIsNoDeadService() async throws {
        let root = try await session.root(delay: 2000)
        let short = try await species(["--timeout", "1", "--base-url", root, "show", "5"])
        #expect(short.status == 69 && short.stderr.contains(" timed out: "), "\(short)")
        let long = try await species(["--timeout", "60", "--base-url", root, "show", "5"])
        #expect(long.status == 0 && long.stdout.hasPrefix("Hutt\n") && long.stderr == "", "\(long)")
    }

    /// A pinned service that refuses is asked again by the next run: with
    /// nothing to stand in for it, a record may not keep it from answering.
    @Test func aServiceWithNothingToStandInIsAskedAgain() async throws {
        let closed = "http://127.0.0.1:\(SelfCheckCommand.closedPort() ?? 9)/api/"
        for _ in 0..<2 {
            let result = try await species(["--no-fallback", "--base-url", closed, "show", "3"])
            #expect(
                result.status == 69
                    && result.stderr == "error: could not reach \(closed)species/3/: connection refused\n",
                "\(result)")
        }
    }

    /// A service silent for the whole time it was given is down: for a
    /// minute the cache answers without asking it, saying when it failed;
    /// a refresh asks it, and an answer of it ends the record.
    @Test func aServiceFoundDownIsNotAskedWhileTheCacheAnswers() async throws {
        // Its first request is answered; every later one hangs.
        let root = try await session.root(fault: "hang", sound: 1)
        let asked = { try await session.requests(fault: "hang", sound: 1).count }
        #expect(try await species(["--base-url", root, "show", "3"]).status == 0)
        let down = try await species(["-v", "--timeout", "4", "--max-age", "0", "--base-url", root, "show", "3"])
        #expect(down.status == 0 && down.stdout.hasPrefix("Wookie\n"), "\(down)")
        #expect(
            down.messages.hasPrefix(
                "note: \(Self.host(root)) did not answer (no complete answer before the 4 s timeout"),
            "\(down.messages)")
        #expect(try await asked() == 2)
        let skipped = try await species(["-v", "--max-age", "0", "--base-url", root, "show", "3"])
        #expect(skipped.status == 0 && skipped.stdout.hasPrefix("Wookie\n"), "\(skipped)")
        #expect(
            skipped.messages.hasPrefix("note: \(Self.host(root)) did not answer ")
                && skipped.messages.contains(" ago: answering from the cache, as fetched ")
                && skipped.messages.hasSuffix(" s, or at once on a refresh\n"), "\(skipped.messages)")
        #expect(try await asked() == 2, "not asked")
        #expect(try #require(skipped.ownSeconds) < 1 + TimeTests.slack, "no wait")
        let refreshed = try await species(["--timeout", "1", "--refresh", "--base-url", root, "show", "3"])
        let count = try await asked()
        #expect(refreshed.status == 0 && count == 3, "a refresh asks it: \(refreshed)")
    }

    /// Any answer of a service ends the record of its outage; a record that
    /// does not read, or a folder of locks that is a file, is no error.
    @Test func anAnswerEndsTheOutageAndBrokenFilesAreNoError() async throws {
        // Its first request hangs, the others are answered.
        let root = try await session.root(fault: "hang", faulty: 1)
        let first = try await species(["--timeout", "4", "--base-url", root, "show", "3"])
        #expect(first.status == 69)
        let folder = cache.appendingPathComponent("species")
        let records = {
            try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".record") }
        }
        #expect(try records().count == 1, "the outage is recorded")
        let next = try await species(["--base-url", root, "show", "3"])
        #expect(next.status == 0 && next.stdout.hasPrefix("Wookie\n") && next.stderr == "", "asked: \(next)")
        #expect(try records().isEmpty, "its answer ends the record")
        for name in ["0000000000000001.record", "0000000000000002.record"] {
            try Data("species-cache 1\ngarbage".utf8).write(to: folder.appendingPathComponent(name))
        }
        try FileManager.default.removeItem(at: folder.appendingPathComponent("locks"))
        try Data("no folder".utf8).write(to: folder.appendingPathComponent("locks"))
        let broken = try await species(["--base-url", root, "show", "7"])
        #expect(broken.status == 0 && broken.stdout.hasPrefix("Trandoshan\n"), "\(broken)")
    }

    /// Eight runs started together, the two services of their list dead
    /// and the first's page cached, find them dead once: the first asks
    /// each once and answers from the cache, the others read what it
    /// recorded once they have its lock and answer from the cache at once;
    /// none says it was offline.
    @Test func runsStartedTogetherFindADeadNetworkOnce() async throws {
        // The first's first request is answered; every other hangs.
        let first = try await session.root(fault: "hang", sound: 1), second = try await session.root(fault: "hang")
        let list = ["-v", "--timeout", "15", "--max-age", "0", "--base-url", "\(first) \(second)", "list"]
        // Asked alone, so that no stagger on a busy machine asks the second.
        let online = try await species(["--base-url", first, "list"])
        #expect(online.status == 0, "\(online)")
        let runs = (0..<8).map { _ in Task { try await species(list) } }
        var results: [ProcessResult] = []
        for run in runs { results.append(try await run.value) }
        #expect(results.allSatisfy { $0.status == 0 && $0.stdout == online.stdout }, "\(results)")
        #expect(results.allSatisfy { !$0.stderr.contains("offline") })
        #expect(try await session.requests(fault: "hang", sound: 1).count == 2)
        #expect(try await session.requests(fault: "hang").count == 1)
        let names = "\(Self.authority(first)) and \(Self.authority(second))"
        let told = results.filter {
            $0.messages.hasPrefix("note: \(names) did not answer ")
                && $0.messages.contains(" ago: answering from the cache of \(Self.authority(first)), as fetched ")
        }
        #expect(told.count == 7, "\(results.map(\.messages))")
        let seconds = results.compactMap(\.ownSeconds)
        #expect(seconds.count == 8 && seconds.allSatisfy { $0 < 3.25 + TimeTests.slack }, "\(seconds)")
    }

    /// A run that holds the lock and is stopped (SIGSTOP) never holds
    /// another run past its own clock, and the other says what happened:
    /// 69, never 130, which is Ctrl-C's, nor "offline".
    @Test func aWaitingRunTellsTheTruth() async throws {
        let root = try await session.root(fault: "hang")
        let holder = try await runner.start(nil, ["--timeout", "60", "--base-url", root, "list"])
        _ = try await session.requests(fault: "hang", atLeast: 1)
        holder.signal(SIGSTOP)
        defer {
            holder.signal(SIGKILL)
            holder.signal(SIGCONT)
        }
        let host = Self.host(root)
        let cases: [([String], String)] = [
            (
                ["--no-fallback"],
                "error: the 1 s timeout ran out while another run asked \(host) the same (--timeout)\n"
            ),
            (
                [],
                "error: the 1 s timeout ran out while another run asked \(host) the same; the cache holds no answer "
                    + "from \(host) (--timeout)\n"
            ),
        ]
        for (options, error) in cases {
            let waiter = try await species(["-v", "--timeout", "1"] + options + ["--base-url", root, "list"])
            #expect(waiter.status == 69 && waiter.messages == error, "\(waiter)")
            #expect(waiter.stderr.contains("verbose: waiting for another run that asks the same\n"))
            #expect(try #require(waiter.ownSeconds) < 1 + TimeTests.slack)
        }
    }

    /// A lock holder killed (SIGKILL) while another run waits for it holds
    /// no one: the waiter takes the lock at once, asks, and says only what
    /// happened; the lock's file is gone after it.
    @Test func aKilledLockHolderHoldsNoOne() async throws {
        // The holder's request hangs; the waiter's is answered.
        let root = try await session.root(fault: "hang", faulty: 1)
        let holder = try await runner.start(nil, ["--timeout", "60", "--base-url", root, "show", "3"])
        _ = try await session.requests(fault: "hang", faulty: 1, atLeast: 1)
        let hook = try await PreloadLibrary.built("stop_when_lock_held")
        let waiter = try await runner.start(
            nil, ["-v", "--timeout", "60", "--base-url", root, "show", "3"], environment: ["LD_PRELOAD": hook.path])
        #expect(await waiter.stopped(), "it found the lock held")
        holder.signal(SIGKILL)
        _ = try await holder.result()
        waiter.signal(SIGCONT)
        let result = try await waiter.result()
        #expect(result.status == 0 && result.stdout.hasPrefix("Wookie\n"), "\(result)")
        #expect(result.stderr.contains("verbose: waited "), "\(result.stderr)")
        #expect(!result.stderr.contains("its answer is in the cache"))
        let locks = cache.appendingPathComponent("species/locks")
        #expect(try FileManager.default.contentsOfDirectory(atPath: locks.path).isEmpty, "no lock file is left")
    }

    /// The folder's housekeeping is bounded: 50,000 temporary files of
    /// killed writers cost a run a hundred looks, inside its clock, and it
    /// answers from the network; one whose process id lives again goes by
    /// its age; `cache clear` leaves a lock a run holds.
    @Test func housekeepingIsBoundedAndLeavesHeldLocks() async throws {
        let root = try await session.root()
        let temporary = cache.appendingPathComponent("species/tmp")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        for index in 0..<50_000 {
            let name = ".\(String(format: "%016x", index)).entry.999999999.\(index).tmp"
            let descriptor = creat(temporary.appendingPathComponent(name).path, 0o600)
            guard descriptor >= 0 else { throw POSIXError(.EIO) }
            close(descriptor)
        }
        let fresh = try await species(["--timeout", "5", "--base-url", root, "show", "5"])
        #expect(fresh.status == 0 && fresh.stdout.hasPrefix("Hutt\n"), "\(fresh)")
        let left = try FileManager.default.contentsOfDirectory(atPath: temporary.path).count
        #expect(left >= 50_000 - 100 && left < 50_000, "\(left) left")
        // A live process id (this test's), an hour old: its writer is gone.
        let aged = Fixtures.temporaryFolder("aged")
        let agedTemporary = aged.appendingPathComponent("species/tmp")
        try FileManager.default.createDirectory(at: agedTemporary, withIntermediateDirectories: true)
        let old = agedTemporary.appendingPathComponent(".0000000000000001.entry.\(getpid()).1.tmp")
        try Data("x".utf8).write(to: old)
        try FileManager.default.setAttributes(
            [.modificationDate: Date().addingTimeInterval(-3600)], ofItemAtPath: old.path)
        let young = agedTemporary.appendingPathComponent(".0000000000000002.entry.\(getpid()).2.tmp")
        try Data("x".utf8).write(to: young)
        #expect(try await SpeciesRunner(cacheHome: aged)(["--base-url", root, "show", "5"]).status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: agedTemporary.path) == [young.lastPathComponent])
        // A lock held by a run that hangs survives a clear.
        let hanging = try await session.root(fault: "hang")
        let holder = try await runner.start(nil, ["--timeout", "60", "--base-url", hanging, "list"])
        defer { holder.signal(SIGKILL) }
        _ = try await session.requests(fault: "hang", atLeast: 1)
        let locks = cache.appendingPathComponent("species/locks")
        #expect(try FileManager.default.contentsOfDirectory(atPath: locks.path).count == 1)
        #expect(try await species(["cache", "clear"]).status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: locks.path).count == 1, "the held lock stays")
        #expect((try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) == nil, "cleared")
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
