import Foundation
import Testing
import TestSupport

@testable import SpeciesKit

/// A cache in a folder of its own, removed by the test's end.
private func temporaryCache() throws -> ResponseCache {
    ResponseCache(directory: Fixtures.temporaryFolder("cache"))
}

/// The files of `folder`, its folders of temporary files and locks aside.
private func files(in folder: URL) throws -> [URL] {
    try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil).filter {
        !["tmp", "locks"].contains($0.lastPathComponent)
    }
}

@Suite("Response cache on disk")
struct ResponseCacheTests {
    let url = URL(string: "https://swapi.dev/api/species/3/")!

    private func entry(_ body: String = #"{"name":"Wookie"}"#, fetched: Double = 1_700_000_000) -> ResponseCache.Entry {
        ResponseCache.Entry(
            url: url.absoluteString, fetched: Date(timeIntervalSince1970: fetched), etag: "\"abc\"",
            lastModified: "Sat, 20 Dec 2014 21:36:42 GMT", body: Data(body.utf8))
    }

    @Test func anEntryReadsBackAsWritten() throws {
        let cache = try temporaryCache()
        defer { try? FileManager.default.removeItem(at: cache.directory) }
        #expect(cache.read(url) == nil)
        try cache.write(entry())
        #expect(cache.read(url) == entry())
        #expect(cache.read(URL(string: "https://swapi.dev/api/species/4/")!) == nil)
        let files = try files(in: cache.directory).map(\.lastPathComponent)
        #expect(files.count == 1 && files[0].hasSuffix(".entry"), "no temporary file is left: \(files)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache.directory.path + "/tmp").isEmpty)
    }

    @Test func theFolderAndItsFilesAreTheOwnersOnly() throws {
        let cache = try temporaryCache()
        defer { try? FileManager.default.removeItem(at: cache.directory) }
        try cache.write(entry())
        let attributes = try FileManager.default.attributesOfItem(atPath: cache.directory.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o700)
        let file = try #require(try files(in: cache.directory).first)
        let fileAttributes = try FileManager.default.attributesOfItem(atPath: file.path)
        #expect((fileAttributes[.posixPermissions] as? Int) == 0o600)
    }

    @Test func credentialsNeverReachTheDisk() throws {
        let cache = try temporaryCache()
        defer { try? FileManager.default.removeItem(at: cache.directory) }
        let secret = try #require(URL(string: "http://user:secret@127.0.0.1:9/api/species/3/"))
        try cache.write(.init(url: ResponseCache.key(secret), fetched: Date(), body: Data("{}".utf8)))
        #expect(cache.read(secret)?.url == "http://127.0.0.1:9/api/species/3/")
        #expect(cache.read(URL(string: "http://127.0.0.1:9/api/species/3/")!) != nil)
        let file = try #require(
            try files(in: cache.directory).first)
        #expect(!String(decoding: try Data(contentsOf: file), as: UTF8.self).contains("secret"))
    }

    @Test(
        "an entry that does not add up reads as absent",
        arguments: [
            "", "garbage", "species-cache 1\nurl https://swapi.dev/api/species/3/\n\n{}",
            "species-cache 1\nurl https://swapi.dev/api/species/3/\nfetched 1\nlength 99\n\n{}",
            "species-cache 1\nurl https://swapi.dev/api/species/4/\nfetched 1\nlength 2\n\n{}",
            "species-cache 2\nurl https://swapi.dev/api/species/3/\nfetched 1\nlength 2\n\n{}",
            "species-cache 1\nurl https://swapi.dev/api/species/3/\nfetched soon\nlength 2\n\n{}",
        ])
    func corruptEntries(contents: String) throws {
        let cache = try temporaryCache()
        defer { try? FileManager.default.removeItem(at: cache.directory) }
        try cache.write(entry())
        let file = try #require(
            try files(in: cache.directory).first)
        try Data(contents.utf8).write(to: file)
        #expect(cache.read(url) == nil)
        try cache.write(entry("replaced"))
        #expect(cache.read(url)?.body == Data("replaced".utf8))
    }

    /// A file is read no further than an entry's header and a body within
    /// the size limit: 100 MiB of zeros once took every offline run 11 s.
    @Test func aLargeOrForeignFileIsNoEntryAndIsNotReadWhole() throws {
        let folder = Fixtures.temporaryFolder("species-cache-test")
        let cache = ResponseCache(directory: folder, maxBodySize: 1000)
        defer { try? FileManager.default.removeItem(at: folder) }
        try cache.write(entry())
        let file = try #require(
            try files(in: folder).first)
        // An entry whose body is over the limit, and one that is no entry.
        let large = entry(String(repeating: "x", count: 1001))
        try Data(ResponseCache.header(of: large) + large.body).write(to: file)
        #expect(cache.read(url) == nil)
        try FileManager.default.removeItem(at: file)
        try FileManager.default.createSymbolicLink(atPath: file.path, withDestinationPath: "/dev/zero")
        #expect(cache.read(url) == nil, "a device is no entry")
        #expect(cache.summary().entries == 0, "nor is a link")
        try FileManager.default.removeItem(at: file)
        try Data(count: 10_000_000).write(to: file)
        #expect(cache.read(url) == nil)
        #expect(cache.summary() == .init(entries: 1, bytes: 10_000_000))
        try cache.write(entry())
        #expect(cache.read(url) == entry())
    }

    /// A record is a line or two: one past 4 KiB is none, whatever the
    /// limit on entries (100 MiB of one was read whole on every run).
    @Test func aLargeRecordIsNone() throws {
        let folder = Fixtures.temporaryFolder("species-cache-test")
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = ResponseCache(directory: folder)
        try cache.remember("https://swapi.dev/api/\n2026-11-24T00:00:00.000000Z", as: "service list", at: Date())
        #expect(cache.record("service list")?.value == "https://swapi.dev/api/\n2026-11-24T00:00:00.000000Z")
        let file = try #require(
            try files(in: folder).first)
        let large = ResponseCache.Entry(url: "service list", fetched: Date(), body: Data(count: 4097))
        try Data(ResponseCache.header(of: large) + large.body).write(to: file)
        #expect(cache.record("service list") == nil)
        #expect(cache.records(prefix: "service").isEmpty)
    }

    /// A process killed between writing and renaming leaves its temporary
    /// file; the first write of the next process, and clear, remove it. A
    /// write lists no folder: what the first missed stays until the next
    /// process, however many writes follow.
    @Test func theTemporaryFileOfAKilledWriterIsRemovedByTheNextProcess() throws {
        let cache = try temporaryCache()
        defer { try? FileManager.default.removeItem(at: cache.directory) }
        let temporaries = cache.directory.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: temporaries, withIntermediateDirectories: true)
        // A process id that is not running: past the kernel's largest.
        let abandoned = temporaries.appendingPathComponent(".0123456789abcdef.entry.99999999.7.tmp")
        let running = temporaries.appendingPathComponent(".0123456789abcdef.entry.1.8.tmp")
        try Data("half".utf8).write(to: abandoned)
        try Data("half".utf8).write(to: running)
        try cache.write(entry())
        #expect(!FileManager.default.fileExists(atPath: abandoned.path))
        #expect(FileManager.default.fileExists(atPath: running.path), "its writer (pid 1) may still rename it")
        let later = temporaries.appendingPathComponent(".0123456789abcdef.entry.99999999.9.tmp")
        try Data("half".utf8).write(to: later)
        try cache.write(entry("again"))
        #expect(FileManager.default.fileExists(atPath: later.path), "the second write lists nothing")
        _ = try cache.clear()
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache.directory.path).isEmpty)
        try cache.write(entry("after clear"))
        #expect(cache.read(url).map { String(decoding: $0.body, as: UTF8.self) } == "after clear")
    }

    @Test func aWriteThatFailsSaysWhy() throws {
        let blocker = Fixtures.temporaryFolder("species-cache-test")
        try Data("a file, not a folder".utf8).write(to: blocker)
        defer { try? FileManager.default.removeItem(at: blocker) }
        let cache = ResponseCache(directory: blocker.appendingPathComponent("species"))
        #expect(
            throws: ResponseCache.Failure(
                path: blocker.appendingPathComponent("species").path, reason: "Not a directory")
        ) {
            try cache.write(entry())
        }
    }

    @Test func aFolderInPlaceOfAnEntryReadsAsAbsent() throws {
        let cache = try temporaryCache()
        defer { try? FileManager.default.removeItem(at: cache.directory) }
        try cache.write(entry())
        let file = try #require(
            try files(in: cache.directory).first)
        try FileManager.default.removeItem(at: file)
        try FileManager.default.createDirectory(at: file, withIntermediateDirectories: false)
        #expect(cache.read(url) == nil)
    }

    @Test func concurrentWritersLeaveOneWholeEntry() async throws {
        let cache = try temporaryCache()
        defer { try? FileManager.default.removeItem(at: cache.directory) }
        let bodies = (0..<40).map { String(repeating: String($0 % 10), count: 20_000 + $0) }
        await withTaskGroup(of: Void.self) { group in
            for body in bodies {
                group.addTask { try? cache.write(entry(body)) }
            }
        }
        let body = String(decoding: try #require(cache.read(url)).body, as: UTF8.self)
        #expect(bodies.contains(body))
        #expect(try files(in: cache.directory).count == 1)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: cache.directory.appendingPathComponent("tmp").path)
                .isEmpty)
    }

    @Test func validatorsWithLineBreaksAreNotKept() throws {
        let cache = try temporaryCache()
        defer { try? FileManager.default.removeItem(at: cache.directory) }
        var odd = entry()
        odd.etag = "\"a\"\nfetched 0"
        try cache.write(odd)
        #expect(cache.read(url)?.etag == nil)
        #expect(cache.read(url)?.fetched == odd.fetched)
    }

    @Test func summaryAndClear() throws {
        let cache = try temporaryCache()
        defer { try? FileManager.default.removeItem(at: cache.directory) }
        #expect(cache.summary() == .init())
        try cache.write(entry(fetched: 100))
        var other = entry(fetched: 200)
        other.url = "https://swapi.dev/api/species/4/"
        try cache.write(other)
        let summary = cache.summary()
        #expect(summary.entries == 2)
        #expect(
            summary.oldest == Date(timeIntervalSince1970: 100) && summary.newest == Date(timeIntervalSince1970: 200))
        try Data("left by an interrupted write".utf8).write(
            to: cache.directory.appendingPathComponent("tmp/.0123456789abcdef.entry.1.2.tmp"))
        #expect(try cache.clear().entries == 2)
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache.directory.path).isEmpty)
    }

    @Test func clearRemovesOnlyTheFilesTheCacheWrote() throws {
        let cache = try temporaryCache()
        defer { try? FileManager.default.removeItem(at: cache.directory) }
        try cache.write(entry())
        let folder = cache.directory.appendingPathComponent("0123456789abcdef.entry")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        try Data("mine".utf8).write(to: folder.appendingPathComponent("keep"))
        try Data("mine".utf8).write(to: cache.directory.appendingPathComponent("notes.txt"))
        try Data("mine".utf8).write(to: cache.directory.appendingPathComponent("x.entry"))
        #expect(try cache.clear().entries == 1)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: cache.directory.path).sorted() == [
                "0123456789abcdef.entry", "notes.txt", "x.entry",
            ])
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("keep").path))
    }

    @Test func clearsAtOnceAllSucceed() async throws {
        let cache = try temporaryCache()
        defer { try? FileManager.default.removeItem(at: cache.directory) }
        for number in 0..<50 {
            try cache.write(
                .init(url: "https://swapi.dev/api/species/\(number)/", fetched: Date(), body: Data("{}".utf8)))
        }
        let failures = await withTaskGroup(of: Bool.self, returning: Int.self) { group in
            for _ in 0..<3 { group.addTask { (try? cache.clear()) == nil } }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(failures == 0)
        #expect(cache.summary().entries == 0)
    }

    @Test(
        arguments: [
            (["XDG_CACHE_HOME": "/x/cache", "HOME": "/nonexistent"], "/x/cache/species"),
            (["XDG_CACHE_HOME": "relative", "HOME": "/tmp"], "/tmp/.cache/species"),
            (["HOME": "/tmp"], "/tmp/.cache/species"), ([:], nil),
            // Issue 29: a missing home is never made, and a relative one is ignored.
            (["HOME": "/nonexistent/x"], nil), (["HOME": "relative"], nil), (["HOME": "tmp"], nil),
        ] as [([String: String], String?)])
    func whereTheCacheLives(environment: [String: String], path: String?) {
        #expect(ResponseCache.defaultDirectory(environment: environment)?.path == path)
    }
}

@Suite("Cache policy")
struct CachePolicyTests {
    let url = URL(string: "https://swapi.dev/api/species/3/")!
    let clock = TestClock()
    /// The client's date, while its clock stands still.
    let now = Date(timeIntervalSince1970: 2_000_000)
    static let wookie = #"{"name":"Wookie","url":"https://swapi.dev/api/species/3/"}"#

    /// An attempt at swapi.dev, as its client makes one, whose entries
    /// answer for 60 s; offline, an attempt at the cache alone.
    private func attempt(
        _ network: any HTTPTransport, _ cache: ResponseCache?, mode: CachePolicy.Mode = .normal, readsCache: Bool = true
    ) -> Attempt {
        let time = ClientTime(clock, start: now)
        let fetching = Fetching(
            transport: network, cache: cache, policy: CachePolicy(directory: cache?.directory, maxAge: 60, mode: mode),
            maxResponseSize: SpeciesClient.Configuration.defaultMaxResponseSize, time: time,
            diagnostics: RecordingDiagnostics(), jitter: { 0.5 })
        let limits = RequestLimits(deadline: Deadline(seconds: 60, time: time))
        return Attempt(
            .swapi, limits: mode == .offline ? nil : limits, dialect: .drf, mode: mode, fetching: fetching,
            readsCache: readsCache)
    }

    /// A body read as a species, and kept, as a whole answer is; anything
    /// else is refused.
    private func get(_ attempt: Attempt, keeping: Bool = true) async throws -> String {
        let body = try await attempt.get(url)
        guard let name = try? Decode.species(body).species.name else {
            throw Fault.invalidResponse(url: url, .notASpecies)
        }
        if keeping {
            attempt.handedOver(url)
            _ = attempt.keep()
        }
        return name
    }

    private func cached(_ cache: ResponseCache, age: Double, body: String = wookie) throws {
        try cache.write(
            .init(url: url.absoluteString, fetched: now.addingTimeInterval(-age), etag: "\"v1\"", body: Data(body.utf8))
        )
    }

    private func withCache(_ body: (ResponseCache) async throws -> Void) async throws {
        let cache = try temporaryCache()
        defer { try? FileManager.default.removeItem(at: cache.directory) }
        try await body(cache)
    }

    /// Cache writes are part of the command's clock (issue 42): an answer
    /// kept after its deadline writes nothing.
    @Test func noEntryIsWrittenOnceTheDeadlineHasPassed() async throws {
        try await withCache { cache in
            let network = StubTransport { _ in HTTPResponse(status: 200, body: Data(Self.wookie.utf8)) }
            let late = attempt(network, cache)
            _ = try await late.get(url)
            late.handedOver(url)
            clock.advance(by: 61)
            _ = late.keep()
            #expect(cache.read(url) == nil)
            let inTime = attempt(network, cache)
            #expect(try await get(inTime) == "Wookie")
            #expect(cache.read(url) != nil)
        }
    }

    @Test func aFreshEntryIsTheAnswerWithoutTheNetwork() async throws {
        try await withCache { cache in
            try cached(cache, age: 10)
            let network = StubTransport.script([])
            #expect(try await get(attempt(network, cache)) == "Wookie")
            #expect(network.requests.isEmpty)
        }
    }

    @Test func anEntryFromTheFutureIsStale() async throws {
        try await withCache { cache in
            try cached(cache, age: -3600)
            let network = StubTransport.script([.response(HTTPResponse(status: 304, body: Data()))])
            _ = try await get(attempt(network, cache))
            #expect(network.requests.count == 1)
            #expect(cache.read(url)?.fetched == now)
        }
    }

    @Test func aStaleEntryIsRevalidatedAndA304RefreshesIt() async throws {
        try await withCache { cache in
            try cached(cache, age: 600)
            let network = StubTransport.script([.response(HTTPResponse(status: 304, body: Data()))])
            #expect(try await get(attempt(network, cache)) == "Wookie")
            #expect(network.requests.first?.headers["If-None-Match"] == "\"v1\"")
            #expect(cache.read(url)?.fetched == now)
        }
    }

    @Test func aNewAnswerReplacesTheEntry() async throws {
        try await withCache { cache in
            try cached(cache, age: 600)
            let body = Data(#"{"name":"Wookiee","url":"https://swapi.dev/api/species/3/"}"#.utf8)
            let network = StubTransport.script([
                .response(HTTPResponse(status: 200, headers: ["ETag": "\"v2\""], body: body))
            ])
            #expect(try await get(attempt(network, cache)) == "Wookiee")
            #expect(cache.read(url)?.etag == "\"v2\"")
            #expect(cache.read(url)?.body == body)
        }
    }

    @Test func refreshRevalidatesAFreshEntry() async throws {
        try await withCache { cache in
            try cached(cache, age: 1)
            let network = StubTransport.script([.response(HTTPResponse(status: 304, body: Data()))])
            _ = try await get(attempt(network, cache, mode: .refresh))
            #expect(network.requests.count == 1)
        }
    }

    @Test(
        "what would be refused is never stored",
        arguments: [
            HTTPResponse(status: 200, body: Data("<!DOCTYPE html><html>captive portal</html>".utf8)),
            HTTPResponse(status: 200, body: Data(#"{"name":"Woo"#.utf8)),
            HTTPResponse(status: 404, body: Data(#"{"detail":"Not found"}"#.utf8)),
            HTTPResponse(status: 500, body: Data(wookie.utf8)),
        ])
    func refusedAnswersAreNotCached(response: HTTPResponse) async throws {
        try await withCache { cache in
            let network = StubTransport.script([.response(response)])
            await #expect(throws: Fault.self) { _ = try await get(attempt(network, cache)) }
            #expect(cache.read(url) == nil)
            #expect(cache.summary().entries == 0)
        }
    }

    /// An entry that does not read, whatever its age, is asked of the
    /// service again (an attempt that does not read the cache, as the plan
    /// asks one: `AnswerPlan.Step.again`), and replaced.
    @Test func anEntryThatDoesNotReadIsReadAgain() async throws {
        try await withCache { cache in
            try cached(cache, age: 1, body: "<html>left by an older species</html>")
            let network = StubTransport.script([.json(Data(Self.wookie.utf8))])
            await #expect(throws: Fault.self) { _ = try await get(attempt(network, cache)) }
            let reading = attempt(network, cache, readsCache: false)
            #expect(try await get(reading) == "Wookie")
            #expect(network.requests.count == 1)
            #expect(network.requests.first.map { _ in cache.read(url)?.body } == Data(Self.wookie.utf8))
        }
    }

    @Test func a304ToAQuestionNotAskedIsAnError() async throws {
        let network = StubTransport.script([.response(HTTPResponse(status: 304, body: Data()))])
        let error = await fault { _ = try await get(attempt(network, nil)) }
        #expect(error == .httpStatus(304, url: url))
        #expect(
            error?.description
                == "https://swapi.dev/api/species/3/ answered 304 Not Modified to a request that asked for no revalidation"
        )
    }

    @Test func noCacheAsksTheNetworkEveryTime() async throws {
        let network = StubTransport.script(
            ["1", "2"].map { .json(Data(#"{"name":"\#($0)","url":"https://swapi.dev/api/species/3/"}"#.utf8)) })
        _ = try await get(attempt(network, nil))
        #expect(try await get(attempt(network, nil)) == "2")
    }

    @Test func offlineAnswersFromAnEntryOfAnyAgeNeverTheNetwork() async throws {
        try await withCache { cache in
            let network = StubTransport.script([])
            let error = await fault { _ = try await get(attempt(network, cache, mode: .offline)) }
            #expect(error == .notCached(url: url))
            try cached(cache, age: 1_000_000)
            let cacheOnly = attempt(network, cache, mode: .offline)
            #expect(try await get(cacheOnly, keeping: false) == "Wookie")
            #expect(cacheOnly.oldestFromCache == now.addingTimeInterval(-1_000_000), "how old the answer is")
            #expect(network.requests.isEmpty)
        }
    }
}

@Suite("The SWAPI data built into species")
struct BundledCatalogTests {
    let catalog = BundledCatalog(root: .swapi, dialect: .drf)

    @Test func itHoldsEverySpeciesAsSwapiDevServesThem() throws {
        let species = catalog.species(matching: nil)
        #expect(species.map(\.id) == Array(1...37))
        for item in species {
            let recorded = try Decode.species(Fixtures.data("swapi/species-\(item.id).json")).species
            #expect(item == recorded)
        }
    }

    @Test func itAnswersUnderAnyRoot() throws {
        let root = try #require(APIRoot("http://user:pw@127.0.0.1:9/x/api"))
        let wookie = try BundledCatalog(root: root, dialect: .drf).species(id: 3)
        #expect(wookie.url == "http://127.0.0.1:9/x/api/species/3/")
        #expect(wookie.homeworld == "http://127.0.0.1:9/x/api/planets/14/")
        let tech = try BundledCatalog(root: root, dialect: .tech).species(id: 3)
        #expect(
            tech.url == "http://127.0.0.1:9/x/api/species/3"
                && tech.people.first == "http://127.0.0.1:9/x/api/people/13")
    }

    @Test(arguments: [
        ("yoda's", ["Yoda's species"]), ("AN", ["Human", "Rodian"]), ("dor kel", ["Kel Dor"]), ("zzz", []),
    ])
    func itSearchesAsSwapiDevDoes(text: String, first: [String]) {
        let found = catalog.species(matching: text).compactMap(\.name)
        #expect(Array(found.prefix(first.count)) == first)
        if text == "AN" { #expect(found.count == 17) }
    }

    @Test func pagesHoldTen() throws {
        let page = try catalog.page(4, search: nil)
        #expect(page.count == 37 && page.pageCount == 4 && page.species.count == 7)
        #expect(throws: Fault.noSuchPage(5, pages: 4, search: nil)) { _ = try catalog.page(5, search: nil) }
        #expect(throws: Fault.noSuchPage(3, pages: 2, search: "an")) { _ = try catalog.page(3, search: "an") }
        #expect(throws: Fault.notInBundledData(what: "species 99")) { _ = try catalog.species(id: 99) }
    }

    @Test func itNamesEveryPlanetPersonAndFilmASpeciesLinksTo() throws {
        for species in catalog.species(matching: nil) {
            for link in [species.homeworld].compactMap({ $0 }) + species.people + species.films {
                let reference = try #require(ResourceReference(link))
                guard case .found(let resource) = catalog.resource(reference) else {
                    Issue.record("\(link) is not built in")
                    continue
                }
                #expect((resource.name ?? resource.title) != nil)
            }
        }
        guard case .found(let hope) = catalog.resource(ResourceReference(.films, 1)) else {
            Issue.record("films/1 is not built in")
            return
        }
        #expect(hope.title == "A New Hope" && hope.episode == 4)
    }

    /// `make bundle` writes the file the tool is built with.
    @Test func theBuiltInDataIsUpToDate() async throws {
        let output = Fixtures.temporaryFolder("bundle").appendingPathExtension("swift")
        defer { try? FileManager.default.removeItem(at: output) }
        let result = try await ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            [
                "python3", Fixtures.packageRoot.appendingPathComponent("Tests/Tools/make_bundle.py").path, "--output",
                output.path,
            ],
            environment: ProcessInfo.processInfo.environment)
        #expect(result.status == 0, "\(result)")
        let made = try Data(contentsOf: output)
        let built = try Data(
            contentsOf: Fixtures.packageRoot.appendingPathComponent("Sources/SpeciesKit/Shell/BundledData.swift"))
        #expect(made == built, "run make bundle")
    }
}
