import Foundation
import Testing
import TestSupport

@testable import species

/// The cache, the bundled snapshot and --offline, through the binary.
@Suite("Cache and offline, end to end")
struct CacheEndToEndTests {
    let server = ServerSession()
    /// A cache folder of this test's own.
    let cacheHome = Fixtures.temporaryFolder("cache-e2e")

    private var species: SpeciesRunner { SpeciesRunner(server, cacheHome: cacheHome) }

    @Test func aWarmCacheAnswersWithoutTheNetwork() async throws {
        defer { try? FileManager.default.removeItem(at: cacheHome) }
        let cold = try await species(["list", "--all-pages", "--json"])
        let warm = try await species(["list", "--all-pages", "--json"])
        #expect(cold.status == 0 && warm.status == 0)
        #expect(warm.stdout == cold.stdout)
        #expect(try await server.requests().count == 4, "the second run asked nothing")
        let show = try await species(["show", "Wookie"])
        let showAgain = try await species(["show", "Wookie"])
        #expect(showAgain.stdout == (try Fixtures.text("golden/show/3.txt")))
        #expect(show.stdout == showAgain.stdout)
        #expect(try await server.requests().count == 5)
    }

    @Test func aStaleEntryIsRevalidatedWithItsETag() async throws {
        defer { try? FileManager.default.removeItem(at: cacheHome) }
        _ = try await species(["show", "3"])
        let before = try await species(["cache", "info"])
        let revalidated = try await species(["show", "3", "--max-age", "0"])
        #expect(revalidated.status == 0)
        #expect(revalidated.stdout == (try Fixtures.text("golden/show/3.txt")))
        #expect(try await server.requests().count == 2)
        let after = try await species(["cache", "info"])
        #expect(before.stdout.contains("entries: 1, ") && after.stdout.contains("entries: 1, "))
    }

    @Test func refreshAsksEvenWhenFresh() async throws {
        defer { try? FileManager.default.removeItem(at: cacheHome) }
        _ = try await species(["show", "3"])
        _ = try await species(["show", "3", "--refresh"])
        #expect(try await server.requests().count == 2)
    }

    @Test func noCacheNeitherReadsNorWrites() async throws {
        defer { try? FileManager.default.removeItem(at: cacheHome) }
        _ = try await species(["show", "3", "--no-cache"])
        _ = try await species(["show", "3", "--no-cache"])
        #expect(try await server.requests().count == 2)
        let info = try await species(["cache", "info"])
        #expect(info.stdout == "directory: \(cacheHome.path)/species\nentries: 0, 0 bytes\n")
    }

    /// The data built in stands in for SWAPI's public services only: a
    /// copy of SWAPI at another host has only its cache.
    @Test func offlineWithAnEmptyCacheUsesTheBundledSnapshotForSWAPIsServices() async throws {
        defer { try? FileManager.default.removeItem(at: cacheHome) }
        let environment = ["XDG_CACHE_HOME": cacheHome.path, "SWAPI_BASE_URL": ""]
        let result = try await SpeciesRunner()(["--offline", "list", "--all-pages"], environment: environment)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == (try Fixtures.text("golden/list/all-pages.txt")))
        #expect(result.stderr == "note: offline: answering from the SWAPI data built in (recorded 2026-11-21)\n")
        let show = try await SpeciesRunner()(["--offline", "show", "yoda's"], environment: environment)
        #expect(show.stdout == (try Fixtures.text("golden/show/6.txt")))
        let root = "http://127.0.0.1:\(SelfCheckCommand.closedPort() ?? 9)/api/"
        let copy = try await SpeciesRunner()(["--offline", "--base-url", root, "list"], environment: environment)
        #expect(copy.status == 69 && copy.stdout == "", "\(copy)")
        #expect(copy.stderr == "error: \(root)species/ is not in the cache, and the client is offline (--offline)\n")
    }

    /// Issue 44: --no-fallback keeps the built-in data out offline too:
    /// the cache answers, or nothing does (69).
    @Test func offlineWithoutAFallbackTheCacheAloneAnswers() async throws {
        defer { try? FileManager.default.removeItem(at: cacheHome) }
        let environment = ["XDG_CACHE_HOME": cacheHome.path, "SWAPI_BASE_URL": ""]
        let empty = try await SpeciesRunner()(["--offline", "--no-fallback", "show", "3"], environment: environment)
        #expect(empty.status == 69 && empty.stdout == "", "\(empty)")
        #expect(
            empty.stderr
                == "error: nothing is cached from swapi.dev, swapi.py4e.com, www.swapi.tech or swapi.info for species 3, and the client is offline (--offline)\n"
        )
        let page = try await SpeciesRunner()(
            ["--offline", "--no-fallback", "list", "--search", "an", "--page", "3"], environment: environment)
        #expect(page.status == 69 && page.stdout == "", "\(page)")
        #expect(
            page.stderr.hasPrefix("error: nothing is cached from swapi.dev, ")
                && page.stderr.hasSuffix(
                    " for page 3 of the species matching 'an', and the client is offline (--offline)\n"),
            "\(page)")
        let off = try await SpeciesRunner()(
            ["--no-cache", "--offline", "--no-fallback", "list"], environment: environment)
        #expect(off.status == 69 && off.stderr.hasPrefix("error: the client is offline with no cache"), "\(off)")
        _ = try await species(["show", "3"])
        let cached = try await species(["--offline", "--no-fallback", "show", "3"])
        #expect(cached.status == 0 && cached.stdout.hasPrefix("Wookie\n") && cached.stderr == "", "\(cached)")
    }

    @Test func offlineReadsTheCacheFirst() async throws {
        defer { try? FileManager.default.removeItem(at: cacheHome) }
        _ = try await species(["show", "3"])
        let offline = try await species(["show", "3", "--offline"])
        #expect(offline.status == 0)
        #expect(offline.stderr == "", "the cache answered, not the snapshot")
        #expect(try await server.requests().count == 1)
        let missing = try await species(["show", "7", "--offline"])
        #expect(missing.status == 69 && missing.stdout == "")
        #expect(
            missing.stderr
                == "error: \(try await server.root())species/7/ is not in the cache, and the client is offline (--offline)\n"
        )
    }

    @Test func cacheInfoAndClear() async throws {
        defer { try? FileManager.default.removeItem(at: cacheHome) }
        _ = try await species(["list", "--all-pages"])
        let info = try await species(["cache", "info"])
        let lines = info.stdout.split(separator: "\n")
        #expect(lines.first == "directory: \(cacheHome.path)/species")
        #expect(lines.dropFirst().first?.hasPrefix("entries: 4, ") == true)
        #expect(lines.count == 4 && lines[2].hasPrefix("oldest: ") && lines[3].hasPrefix("newest: "))
        let clear = try await species(["cache", "clear"])
        #expect(clear.stdout.hasPrefix("removed 4 entries ("))
        #expect(try await species(["cache", "info"]).stdout.hasSuffix("entries: 0, 0 bytes\n"))
    }

    @Test func twoProcessesAtOnceShareTheCache() async throws {
        defer { try? FileManager.default.removeItem(at: cacheHome) }
        async let first = species(["list", "--all-pages", "--json", "--refresh"])
        async let second = species(["list", "--all-pages", "--json", "--refresh"])
        let results = try await [first, second]
        #expect(results.allSatisfy { $0.status == 0 })
        #expect(results[0].stdout == results[1].stdout)
        let warm = try await species(["list", "--all-pages", "--json"])
        #expect(warm.stdout == results[0].stdout)
        let files = try TemporaryCache.files(in: cacheHome.appendingPathComponent("species"))
        #expect(files.count == 4 && files.allSatisfy { $0.lastPathComponent.hasSuffix(".entry") })
    }

    @Test func aCorruptEntryIsIgnoredAndReplaced() async throws {
        defer { try? FileManager.default.removeItem(at: cacheHome) }
        _ = try await species(["show", "3"])
        let folder = cacheHome.appendingPathComponent("species")
        let file = try #require(try TemporaryCache.files(in: folder).first)
        try Data("species-cache 1\ngarbage".utf8).write(to: file)
        let result = try await species(["show", "3"])
        #expect(result.status == 0)
        #expect(result.stdout == (try Fixtures.text("golden/show/3.txt")))
        #expect(try await server.requests().count == 2)
        _ = try await species(["show", "3"])
        #expect(try await server.requests().count == 2, "the entry was replaced")
    }

    @Test func urlSessionMakesNoFoldersOfItsOwn() async throws {
        let home = Fixtures.temporaryFolder("home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        let root = try await server.root()
        let result = try await SpeciesRunner()(["--base-url", root, "show", "3"], environment: ["HOME": home.path])
        #expect(result.status == 0)
        let made = FileManager.default.subpaths(atPath: home.path)?.filter { !$0.hasPrefix(".cache/species") } ?? []
        #expect(made == [".cache"], "only species' own cache folder: \(made)")
    }

    /// Issue 29: a home that does not exist is never made, and a relative
    /// one is ignored; `species` answers all the same, without a cache.
    @Test(arguments: ["/nonexistent/x", "relative-home"])
    func aMissingOrRelativeHomeIsNeverMade(home: String) async throws {
        let folder = Fixtures.temporaryFolder("working")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let result = try await species(
            ["list"], environment: ["HOME": home, "XDG_CACHE_HOME": ""],
            through: { ["sh", "-c", "cd \"$1\" && shift && exec \"$@\"", "sh", folder.path, $0] })
        let page = try Fixtures.text("golden/list/page-1.txt")
        #expect(result.status == 0 && result.stdout == page, "\(result)")
        #expect(!FileManager.default.fileExists(atPath: home), "no home made")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty, "nothing in the working folder")
        let info = try await species(["cache", "info"], environment: ["HOME": home, "XDG_CACHE_HOME": ""])
        #expect(info.stdout == "directory: none (XDG_CACHE_HOME is no absolute path, and HOME no folder's)\n")
    }

    /// Issue 29: a prefix that pins a service, as an alias does, works for
    /// every command, and so does every other global option before it.
    @Test(arguments: [["cache", "clear"], ["cache", "info"], ["completions", "bash"], ["help", "list"]])
    func globalOptionsBeforeAnyCommand(command: [String]) async throws {
        let prefix = ["--base-url", try await server.root(), "--timeout", "5", "--no-fallback", "--serial"]
        let result = try await species(prefix + command)
        #expect(result.status == 0 && result.stderr == "", "\(result)")
        let wrong = try await species(["--timeout", "abc"] + command)
        #expect(wrong.status == 64 && wrong.stdout == "", "\(wrong)")
    }

    @Test(arguments: [["--refresh", "--offline"], ["--refresh", "--no-cache"]])
    func contradictoryCacheOptionsAreUsageErrors(options: [String]) async throws {
        let result = try await SpeciesRunner()(["list"] + options)
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("error: '\(options[0])' and '\(options[1])' cannot be used together\n"))
    }

    @Test(arguments: ["html", "truncated"])
    func aBodyThatIsNotSWAPIJSONIsNotCached(fault: String) async throws {
        let cache = try TemporaryCache()
        let online = try await species(fault, ["list"], environment: cache.environment)
        #expect(online.status == 65)
        #expect(try cache.entries().isEmpty, "nothing stored")

        let offline = try await species(fault, ["list", "--offline"], environment: cache.environment)
        #expect(offline.status == 69 && offline.stdout == "", "\(offline)")
        #expect(
            offline.stderr.hasSuffix("species/ is not in the cache, and the client is offline (--offline)\n"),
            "\(offline)")
    }

    @Test func offlineAPageThatIsNotThereIsNotAServersAnswer() async throws {
        let result = try await species(nil, ["list", "--offline", "--page", "5"], environment: ["SWAPI_BASE_URL": ""])
        #expect(result.status == 1)
        #expect(result.stdout == "")
        #expect(result.stderr.hasSuffix("error: page 5 does not exist; there are 4 pages\n"), "\(result)")
        #expect(!result.stderr.contains("404"))
    }

    /// A record of 100 MiB is no record, and is not read (before: read
    /// whole, 2.1 s and 100 MiB more memory a run); `CacheTests` shows it
    /// is none. The run goes on as if nothing were remembered.
    @Test func aHugeServiceRecordIsNotRead() async throws {
        let cache = Fixtures.temporaryFolder("huge-record")
        // Without a fallback the last service has the whole timeout, as a
        // busy test server may take seconds to answer (docs/cli.md).
        let services = [
            "--no-fallback", "--base-url", try await server.root(), "--base-url",
            try await server.root(dialect: "info"),
        ]
        let environment = ["XDG_CACHE_HOME": cache.path]
        _ = try await SpeciesRunner(build: .installed)(["--refresh"] + services + ["list"], environment: environment)
        let folder = cache.appendingPathComponent("species")
        let records = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
            $0.hasSuffix(".record")
        }
        for name in records {
            let file = folder.appendingPathComponent(name)
            let text = try String(contentsOf: file, encoding: .utf8)
            let huge = 100 << 20
            let header = try #require(text.range(of: "\nlength ")).lowerBound
            var data = Data((text[..<header] + "\nlength \(huge)\n\n").utf8)
            data.append(Data(count: huge))
            try data.write(to: file)
        }
        #expect(!records.isEmpty)
        let result = try await SpeciesRunner(build: .installed)(services + ["list"], environment: environment)
        #expect(try result.status == 0 && result.stdout == Fixtures.text("golden/list/page-1.txt"), "\(result)")
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
        let entries = try TemporaryCache.files(in: folder)
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
            #expect(!result.killedBySignal, "\(result)")
            if arguments[0] == "list" {
                #expect(
                    result.status == 69
                        && result.stderr.hasSuffix(
                            "species/ is not in the cache, and the client is offline (--offline)\n"),
                    "no entry: \(result)")
            } else {
                #expect(result.status == 0)
                #expect(result.stdout.contains("entries: \(entries.count), \(entries.count) GiB"))
            }
        }
    }

    /// Killed while it writes the cache (a listing of 73 MB), species leaves at
    /// most temporary files of its own, readable by their owner only, which
    /// the next write and `cache clear` remove.
    /// The page is made on a server of its own: while the shared server made
    /// it (6 s beside 8 busy loops), its other answers waited for Python's
    /// interpreter lock (0.8 s for one request here), and in CI tests that
    /// started beside this one waited seconds for a first byte.
    @Test func aWriterKilledAnywhereLeavesOnlyItsOwnTemporaryFiles() async throws {
        let cache = Fixtures.temporaryFolder("killed")
        let folder = cache.appendingPathComponent("species")
        let huge = try await FixtureServer.start()
        let server = ServerSession(on: Task { huge })
        let cached = SpeciesRunner(server, cacheHome: cache)
        let hook = try await PreloadLibrary.built("stop_before_rename")
        /// The files of the cache and of its folder of temporary files.
        func names() -> [String] {
            ["", "tmp/"].flatMap { folder in
                ((try? FileManager.default.contentsOfDirectory(
                    atPath: cache.appendingPathComponent("species/" + folder).path))
                    ?? []).filter { !["tmp", "locks"].contains($0) }.map { folder + $0 }
            }
        }
        // Killed once its request is in, before any write; then when it is
        // about to rename its temporary file over the entry: a hook stops
        // it there, however busy the machine.
        for (round, writing) in [false, true].enumerated() {
            let process = try await cached.start(
                "huge-page", ["list", "--all-pages", "--jsonl"], environment: writing ? ["LD_PRELOAD": hook.path] : [:])
            if writing {
                #expect(await process.stopped(), "stopped before its rename")
            } else {
                _ = try await server.requests(fault: "huge-page", atLeast: round + 1)
            }
            process.signal(SIGKILL)
            #expect(try await process.result().killedBySignal, "killed before it ended")
            #expect(names().contains { $0.hasSuffix(".tmp") } == writing, "\(names())")
        }
        for name in names() {
            #expect(name.hasSuffix(".entry") || (name.hasPrefix("tmp/.") && name.hasSuffix(".tmp")), "\(name)")
            let mode =
                try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(name).path)[
                    .posixPermissions] as? Int
            #expect(mode == 0o600, "\(name)")
        }
        let next = try await cached(["list"])
        #expect(next.status == 0)
        #expect(names().allSatisfy { !$0.hasSuffix(".tmp") }, "the next run's first write removes them")
        let clear = try await cached(["cache", "clear"])
        #expect(clear.status == 0)
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).isEmpty)
        await huge.stop()
    }

    /// A full disk and a read-only file system, in a mount namespace of the
    /// test's own; each failure says its own cause. The listing (2,000
    /// species, 1.2 MB) is larger than the 16 KiB file system.
    @Test(
        .enabled("needs root and unshare(1) to mount a file system of its own") { await Capability.mountsItsOwn.value },
        arguments: [("size=16k", "No space left on device"), ("ro", "Read-only file system")])
    func aCacheThatCannotBeWrittenSaysWhy(options: String, reason: String) async throws {
        let cache = Fixtures.temporaryFolder("mounted")
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        let script = "mount -t tmpfs -o \"$1\" tmpfs \"$2\" && shift 2 && exec \"$@\""
        let result = try await SpeciesRunner(server, cacheHome: cache)(
            "big-page", ["list", "--all-pages", "--format", "tsv"],
            through: { ["unshare", "-m", "/bin/sh", "-c", script, "sh", options, cache.path, $0] })
        #expect(result.status == 0, "\(result)")
        let place = cache.appendingPathComponent("species").path
        #expect(result.stderr.hasPrefix("warning: cannot write the cache in \(place): \(reason)\n"), "\(result.stderr)")
    }
}
