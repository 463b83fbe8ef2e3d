import Foundation
import SpeciesKit
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// The third hostile pass (issue 15): crashes, resources and wrong answers
/// on the paths real users take. Where the installed build takes another
/// path than the debug build (HTTPS, the libcurl workarounds, exit), both
/// are run.
@Suite("No crash on the real path")
struct RealPathTests {
    let server = ServerSession()
    let https = ServerSession(on: FixtureServer.sharedHTTPS)

    private var species: SpeciesRunner { SpeciesRunner(server, options: ["--no-cache"], fallback: false) }

    // MARK: 1. Crashes

    /// FoundationNetworking traps when a redirect decision is answered
    /// after its task was cancelled; a walk cancels its other pages when
    /// one fails. It trapped 19 runs in 20.
    @Test(arguments: SpeciesBuild.allCases, ["redirect-other-port", "redirect-later-pages"])
    func aRedirectElsewhereDuringAWalkIsRefusedNeverATrap(build: SpeciesBuild, fault: String) async throws {
        for _ in 0..<10 {
            let result = try await species(fault, ["list", "--all-pages"], build: build)
            #expect(result.status == 65 && !result.killedBySignal, "\(result)")
            #expect(result.stdout == "")
            #expect(
                result.stderr.hasPrefix("error: ")
                    && result.stderr.contains(": it redirects to another origin (http://127.0.0.1:"))
            #expect(result.stderr.split(separator: "\n").count == 1)
        }
    }

    @Test(arguments: SpeciesBuild.allCases)
    func overHTTPSEveryPageArrives(build: SpeciesBuild) async throws {
        let root = try await https.root()
        let result = try await SpeciesRunner(build: build)(
            ["--no-cache", "--base-url", root, "list", "--all-pages", "--json"], environment: TestCertificates.trusted)
        #expect(result.status == 0, "\(result)")
        let species = try JSONDecoder().decode([StarWarsSpecies].self, from: Data(result.stdout.utf8))
        #expect(species.count == 37 && species.first?.url == root + "species/1/")
    }

    /// OpenSSL's cleanup, one of C's exit handlers, raced FoundationNetworking's
    /// own at exit (swift-corelibs-foundation #5469): SIGSEGV after whole
    /// output, about one HTTPS run in 400. species runs no exit handlers.
    @Test(arguments: SpeciesBuild.allCases)
    func noExitHandlerRunsAtExit(build: SpeciesBuild) async throws {
        let library = try await Self.compiled("exit_handlers")
        let root = try await https.root()
        for arguments in [
            ["--version"], ["--no-cache", "--base-url", root, "list", "--all-pages"],
            ["--no-fallback", "--base-url", "http://127.0.0.1:\(ClosedPort.find())/api/", "list"],
        ] {
            let result = try await SpeciesRunner(build: build)(
                arguments, environment: TestCertificates.trusted.merging(["LD_PRELOAD": library.path]) { $1 })
            #expect(!result.killedBySignal, "\(result)")
            #expect(!result.stderr.contains("exit handlers ran"), "\(arguments): \(result)")
        }
        let ordinary = try await ChildProcess.run(
            URL(fileURLWithPath: "/bin/true"), [], environment: ChildProcess.environment(["LD_PRELOAD": library.path]))
        #expect(ordinary.stderr == "exit handlers ran\n", "the library works")
    }

    /// Tests/Tools/`name`.c, a library to preload, built once a run.
    static func compiled(_ name: String) async throws -> URL {
        let library = Fixtures.runFolder.appendingPathComponent("\(name).so")
        if FileManager.default.fileExists(atPath: library.path) { return library }
        let source = Fixtures.packageRoot.appendingPathComponent("Tests/Tools/\(name).c")
        let building = Fixtures.temporaryFolder(name)
        let compiler = try await ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/env"), ["clang", "-shared", "-fPIC", "-o", building.path, source.path])
        try #require(compiler.status == 0, "clang (the toolchain's) builds the library: \(compiler)")
        _ = rename(building.path, library.path)
        return library
    }

    // MARK: 2-6. Resources and deadlines

    /// 20,000 header lines took FoundationNetworking 9 s, past any --timeout:
    /// the transfer stops at the 501st.
    @Test(arguments: SpeciesBuild.allCases)
    func aLongHeaderBlockIsRefusedAtOnce(build: SpeciesBuild) async throws {
        for arguments in [["list"], ["list", "--all-pages"]] {
            let result = try await species("many-headers", arguments, build: build)
            #expect(result.status == 65 && !result.killedBySignal, "\(result)")
            #expect(
                result.stderr
                    == "error: \(try await server.root(fault: "many-headers"))species/: the response has more than 500 header lines or 100 KiB of headers\n"
            )
        }
    }

    @Test func aPageOfThreeMillionEmptyObjectsIsRefused() async throws {
        let result = try await species("empty-objects", ["list"])
        #expect(result.status == 65, "\(result)")
        #expect(result.stdout == "")
        #expect(
            result.stderr
                == "error: \(try await server.root(fault: "empty-objects"))species/: it holds more than 2184533 JSON values (--max-response-size)\n"
        )
    }

    @Test func aPageNumberAtTheEndOfIntIsNotATrap() async throws {
        let result = try await species(nil, ["list", "--page", "9223372036854775807"])
        #expect(result.status == 1 && !result.killedBySignal, "\(result)")
        #expect(result.stderr == "error: page 9223372036854775807 does not exist; there are 4 pages\n")
    }

    /// A cache entry is read no further than its header and a body within
    /// the limit: 100 MiB of zeros took every offline run 11 s, and 1 GiB
    /// more memory than a limit of 1 GB allows.
    @Test func aHugeCorruptCacheEntryIsNoEntry() async throws {
        let cache = Fixtures.temporaryFolder("cache")
        let cached = SpeciesRunner(server, cacheHome: cache)
        let online = try await cached(["list"])
        #expect(online.status == 0)
        let folder = cache.appendingPathComponent("species")
        let entries = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
        try #require(!entries.isEmpty)
        for entry in entries {
            // A sparse file: 1 GiB of zeros that takes no room on disk.
            let file = try FileHandle(forWritingTo: entry)
            try file.truncate(atOffset: 1 << 30)
            try file.close()
        }
        let limited = "ulimit -v 1000000; exec \"$0\" \"$@\""
        for arguments in [["list", "--offline"], ["cache", "info"]] {
            let result = try await cached(arguments, through: { ["bash", "-c", limited, $0] })
            #expect(result.status == 0 && !result.killedBySignal, "\(result)")
            if arguments[0] == "list" {
                #expect(result.stdout == (try Fixtures.text("golden/list/page-1.txt")))
                #expect(result.stderr.hasPrefix("offline: answering from the SWAPI data built into species"))
            } else {
                #expect(result.stdout.contains("entries: \(entries.count), \(entries.count) GiB"))
            }
        }
    }

    /// Killed while it writes the cache (a page of 73 MB), species leaves at
    /// most temporary files of its own, readable by their owner only, which
    /// the next write and `cache clear` remove.
    @Test func aWriterKilledAnywhereLeavesOnlyItsOwnTemporaryFiles() async throws {
        let cache = Fixtures.temporaryFolder("killed")
        let folder = cache.appendingPathComponent("species")
        let cached = SpeciesRunner(server, cacheHome: cache)
        let hook = try await Self.compiled("stop_before_rename")
        func names() -> [String] { (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] }
        // Killed once its request is in, before any write; then when it is
        // about to rename its temporary file over the entry: a hook stops
        // it there, however busy the machine.
        for (round, writing) in [false, true].enumerated() {
            let process = try await cached.start(
                "huge-page", ["list", "--jsonl"], environment: writing ? ["LD_PRELOAD": hook.path] : [:])
            if writing {
                #expect(await process.stopped(), "stopped before its rename")
            } else {
                _ = try await server.requests(fault: "huge-page", atLeast: round + 1)
            }
            process.signal(SIGKILL)
            #expect(try await process.result().killedBySignal, "killed before it ended")
            #expect(names().contains { $0.hasSuffix(".tmp") } == writing, "\(names())")
        }
        let names = names()
        for name in names {
            #expect(name.hasSuffix(".entry") || (name.hasPrefix(".") && name.hasSuffix(".tmp")), "\(name)")
            let mode =
                try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(name).path)[
                    .posixPermissions] as? Int
            #expect(mode == 0o600, "\(name)")
        }
        let next = try await cached(["list"])
        #expect(next.status == 0)
        #expect(
            ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).allSatisfy {
                !$0.hasSuffix(".tmp")
            })
        let clear = try await cached(["cache", "clear"])
        #expect(clear.status == 0)
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).isEmpty)
    }

    /// A full disk and a read-only file system, in a mount namespace of the
    /// test's own; each failure says its own cause. The page (2,000 species,
    /// 1.2 MB) is larger than the 16 KiB file system.
    @Test(arguments: [("size=16k", "No space left on device"), ("ro", "Read-only file system")])
    func aCacheThatCannotBeWrittenSaysWhy(options: String, reason: String) async throws {
        guard try await Self.canMount() else {
            return withKnownIssue("needs root and unshare(1) to mount a file system of its own") {
                throw CancellationError()
            }
        }
        let cache = Fixtures.temporaryFolder("mounted")
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        let script = "mount -t tmpfs -o \"$1\" tmpfs \"$2\" && shift 2 && exec \"$@\""
        let result = try await SpeciesRunner(server, cacheHome: cache)(
            "big-page", ["list", "--format", "tsv"],
            through: { ["unshare", "-m", "/bin/sh", "-c", script, "sh", options, cache.path, $0] })
        #expect(result.status == 0, "\(result)")
        let place = cache.appendingPathComponent("species").path
        #expect(result.stderr.hasPrefix("warning: cannot write the cache in \(place): \(reason)\n"), "\(result.stderr)")
    }

    private static func canMount() async throws -> Bool {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare") else { return false }
        let probe = try await ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/unshare"), ["-m", "/bin/sh", "-c", "mount -t tmpfs tmpfs /mnt"],
            environment: ChildProcess.environment())
        return probe.status == 0
    }

    // MARK: 7-10. Wrong answers

    @Test(arguments: ["later-pages-tech", "dialect-flip"])
    func aDialectThatChangesWithinAWalkIsABadAnswer(fault: String) async throws {
        let result = try await species(fault, ["list", "--all-pages"])
        #expect(result.status == 65, "\(result)")
        #expect(result.stdout == "")
        // Which page comes in the other form depends on the order the pages arrive.
        #expect(result.stderr.hasPrefix("error: \(try await server.root(fault: fault))species"))
        #expect(result.stderr.contains(" did not answer with SWAPI JSON: it answers in swapi."))
        #expect(result.stderr.split(separator: "\n").count == 1 && result.stderr.count < 400)
        #expect(!result.stderr.contains("internal error"))
    }

    @Test func datesAreOneCalendarAndSurviveARoundTrip() async throws {
        let result = try await species("far-dates", ["show", "1", "--json"])
        #expect(result.status == 0, "\(result)")
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        #expect(object?["created"] as? String == "1500-06-01T00:00:00.000000Z")
        let edited = try #require(object?["edited"] as? String)
        #expect(edited.hasPrefix("9999-12-31T23:59:59."))
        let decoded = try JSONDecoder().decode(StarWarsSpecies.self, from: Data(result.stdout.utf8))
        #expect(SpeciesJSON.object(decoded) == result.stdout, "--json, decoded, is the same --json")

        let junk = try await species("far-dates", ["show", "2", "--json"])
        let droid = try JSONSerialization.jsonObject(with: Data(junk.stdout.utf8)) as? [String: Any]
        #expect(droid?["created"] is NSNull && droid?["edited"] is NSNull)
        #expect(
            junk.stderr == "warning: species 'Droid': field 'created' is not a valid UTC timestamp; treated as absent\n"
                + "warning: species 'Droid': field 'edited' is not a valid UTC timestamp; treated as absent\n")
    }

    /// Pages that change while they are read, asked at once: the listing
    /// is no answer, whatever order the pages came in.
    @Test func pagesThatChangeWhileReadAreNoAnswer() async throws {
        let result = try await species("shifting", ["list", "--all-pages", "--format", "tsv", "--fields", "name"])
        #expect(result.status == 65 && result.stdout == "", "\(result)")
        #expect(
            result.stderr.hasPrefix("error: \(try await server.root(fault: "shifting"))species/?page=")
                && result.stderr.contains(" is not whole: "), "\(result)")
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    // MARK: 11-15. Messages and leftovers

    @Test func aPasswordInAnArgumentNeverShows() async throws {
        let result = try await SpeciesRunner()(["show", "http://alice:s3cr3t@host/api/planets/1/"])
        #expect(result.status == 64)
        #expect(!result.stderr.contains("s3cr3t") && !result.stderr.contains("alice"))
        #expect(result.stderr.hasPrefix("error: 'http://***@host/api/planets/1/' is not a species URL of this API"))
    }

    @Test(arguments: [
        ("503-always", "answered HTTP 503 Service Unavailable"),
        ("hang", "timed out: no complete answer before the 1 s timeout ran out (--timeout)"),
    ])
    func aLongArgumentIsCutNotTheCause(fault: String, cause: String) async throws {
        let long = String(repeating: "x", count: 2_000)
        for arguments in [["list", "--search", long], ["show", long]] {
            let result = try await species(
                fault, arguments + ["--retries", "0"] + (fault == "hang" ? ["--timeout", "1"] : []))
            #expect(result.status == 69, "\(result)")
            let line = try #require(result.stderr.split(separator: "\n").last)
            #expect(line.count < 1000 && line.contains(cause), "\(result)")
        }
    }

    @Test(arguments: ["127.1", "2130706433", "0x7f.0.0.1", "127.000.000.001"])
    func anOddSpellingOfAnAddressIsAUsageError(host: String) async throws {
        let result = try await SpeciesRunner()(["--base-url", "http://\(host):8000/api/", "list"])
        #expect(result.status == 64)
        #expect(
            result.stderr.hasPrefix(
                "error: invalid value 'http://\(host):8000/api/' for '--base-url <url>': expected a host name or an IPv4 address "
                    + "written as four numbers from 0 to 255 (FoundationNetworking cannot request '\(host)')\n"))
    }
}
