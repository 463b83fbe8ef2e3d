import Foundation
import Testing
import TestSupport

@testable import SpeciesKit

/// A cache in a folder of its own, removed by the test's end.
private func temporaryCache() throws -> ResponseCache {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("species-cache-test-\(UUID().uuidString)")
    return ResponseCache(directory: folder)
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
        let files = try FileManager.default.contentsOfDirectory(atPath: cache.directory.path)
        #expect(files.count == 1 && files[0].hasSuffix(".entry"), "no temporary file is left: \(files)")
    }

    @Test func theFolderIsPrivate() throws {
        let cache = try temporaryCache()
        defer { try? FileManager.default.removeItem(at: cache.directory) }
        try cache.write(entry())
        let attributes = try FileManager.default.attributesOfItem(atPath: cache.directory.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o700)
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
        let file = try #require(try FileManager.default.contentsOfDirectory(at: cache.directory, includingPropertiesForKeys: nil).first)
        try Data(contents.utf8).write(to: file)
        #expect(cache.read(url) == nil)
        try cache.write(entry("replaced"))
        #expect(cache.read(url)?.body == Data("replaced".utf8))
    }

    @Test func aFolderInPlaceOfAnEntryReadsAsAbsent() throws {
        let cache = try temporaryCache()
        defer { try? FileManager.default.removeItem(at: cache.directory) }
        try cache.write(entry())
        let file = try #require(try FileManager.default.contentsOfDirectory(at: cache.directory, includingPropertiesForKeys: nil).first)
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
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache.directory.path).count == 1)
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
        #expect(summary.oldest == Date(timeIntervalSince1970: 100) && summary.newest == Date(timeIntervalSince1970: 200))
        try Data("left by an interrupted write".utf8).write(to: cache.directory.appendingPathComponent(".x.entry.1.2.tmp"))
        #expect(try cache.clear().entries == 2)
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache.directory.path).isEmpty)
    }

    @Test(
        arguments: [
            (["XDG_CACHE_HOME": "/x/cache", "HOME": "/home/u"], "/x/cache/species"),
            (["XDG_CACHE_HOME": "relative", "HOME": "/home/u"], "/home/u/.cache/species"),
            (["HOME": "/home/u"], "/home/u/.cache/species"), ([:], nil),
        ] as [([String: String], String?)])
    func whereTheCacheLives(environment: [String: String], path: String?) {
        #expect(ResponseCache.defaultDirectory(environment: environment)?.path == path)
    }
}

@Suite("Cache policy")
struct CachingTransportTests {
    let url = URL(string: "https://swapi.dev/api/species/3/")!
    let diagnostics = RecordingDiagnostics()
    let now = Date(timeIntervalSince1970: 2_000_000)

    private func transport(
        _ network: any HTTPTransport, _ cache: ResponseCache?, mode: CachingTransport.Mode = .normal,
        snapshot: (any HTTPTransport)? = nil
    ) -> CachingTransport {
        let now = self.now
        return CachingTransport(
            network: network, cache: cache, snapshot: snapshot, maxAge: 60, mode: mode, diagnostics: diagnostics,
            now: { now })
    }

    private func cached(_ cache: ResponseCache, age: Double, body: String = "cached") throws {
        try cache.write(.init(url: url.absoluteString, fetched: now.addingTimeInterval(-age), etag: "\"v1\"", body: Data(body.utf8)))
    }

    @Test func aFreshEntryIsTheAnswerWithoutTheNetwork() async throws {
        let cache = try temporaryCache()
        defer { try? FileManager.default.removeItem(at: cache.directory) }
        try cached(cache, age: 10)
        let network = ScriptedTransport([])
        let response = try await transport(network, cache).send(HTTPRequest(url: url))
        #expect(response.body == Data("cached".utf8))
        #expect(network.requests.isEmpty)
    }

    @Test func aStaleEntryIsRevalidatedAndA304RefreshesIt() async throws {
        let cache = try temporaryCache()
        defer { try? FileManager.default.removeItem(at: cache.directory) }
        try cached(cache, age: 600)
        let seen = RecordedValues<HTTPRequest>()
        let network = FunctionTransport { request in
            seen.append(request)
            return HTTPResponse(status: 304, body: Data())
        }
        let response = try await transport(network, cache).send(HTTPRequest(url: url))
        #expect(response.status == 200 && response.body == Data("cached".utf8))
        #expect(seen.all.first?.headers["If-None-Match"] == "\"v1\"")
        #expect(cache.read(url)?.fetched == now)
    }

    @Test func aNewAnswerReplacesTheEntry() async throws {
        let cache = try temporaryCache()
        defer { try? FileManager.default.removeItem(at: cache.directory) }
        try cached(cache, age: 600)
        let network = ScriptedTransport([.response(HTTPResponse(status: 200, headers: ["ETag": "\"v2\""], body: Data("new".utf8)))])
        #expect(try await transport(network, cache).send(HTTPRequest(url: url)).body == Data("new".utf8))
        #expect(cache.read(url)?.etag == "\"v2\"")
        #expect(cache.read(url)?.body == Data("new".utf8))
    }

    @Test func refreshRevalidatesAFreshEntry() async throws {
        let cache = try temporaryCache()
        defer { try? FileManager.default.removeItem(at: cache.directory) }
        try cached(cache, age: 1)
        let network = ScriptedTransport([.response(HTTPResponse(status: 304, body: Data()))])
        _ = try await transport(network, cache, mode: .refresh).send(HTTPRequest(url: url))
        #expect(network.requests.count == 1)
    }

    @Test func errorsAndOtherStatusesAreNotCached() async throws {
        let cache = try temporaryCache()
        defer { try? FileManager.default.removeItem(at: cache.directory) }
        let network = ScriptedTransport([.response(HTTPResponse(status: 404, body: Data("{}".utf8)))])
        #expect(try await transport(network, cache).send(HTTPRequest(url: url)).status == 404)
        #expect(cache.read(url) == nil)
    }

    @Test func noCacheAsksTheNetworkEveryTime() async throws {
        let network = ScriptedTransport([.json(Data("1".utf8)), .json(Data("2".utf8))])
        let noCache = transport(network, nil)
        _ = try await noCache.send(HTTPRequest(url: url))
        #expect(try await noCache.send(HTTPRequest(url: url)).body == Data("2".utf8))
    }

    @Test func offlineUsesTheCacheOfAnyAgeThenTheSnapshotNeverTheNetwork() async throws {
        let cache = try temporaryCache()
        defer { try? FileManager.default.removeItem(at: cache.directory) }
        let network = ScriptedTransport([])
        let snapshot = SnapshotTransport(root: .swapi, diagnostics: diagnostics)
        let offline = transport(network, cache, mode: .offline, snapshot: snapshot)

        let fromSnapshot = try await offline.send(HTTPRequest(url: url))
        #expect(try SpeciesDocument.species(fromSnapshot.body).name == "Wookie")

        try cached(cache, age: 1_000_000)
        #expect(try await offline.send(HTTPRequest(url: url)).body == Data("cached".utf8))
        #expect(network.requests.isEmpty)

        let nowhere = transport(network, nil, mode: .offline)
        await #expect(throws: TransportError(.offline, url: url, detail: "it is not in the cache, and --offline keeps off the network")) {
            _ = try await nowhere.send(HTTPRequest(url: url))
        }
    }
}

@Suite("Bundled snapshot")
struct SnapshotTests {
    let diagnostics = RecordingDiagnostics()

    /// `make snapshot` output matches the fixtures it was made from.
    @Test func theSnapshotHoldsEveryRecordedAnswer() throws {
        var recorded = 0
        for line in try Fixtures.text("swapi/index.txt").split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count == 3, fields[2] == "200" else { continue }
            recorded += 1
            var key = String(fields[1].dropFirst("https://swapi.dev/api/".count))
            if key.hasSuffix("?page=1") { key.removeLast("?page=1".count) }
            #expect(BundledSnapshot.responses[key] == (try Fixtures.text("swapi/\(fields[0])")), "\(key)")
        }
        #expect(BundledSnapshot.responses.count == recorded)
    }

    private func client(root: APIRoot = .swapi) -> SpeciesClient {
        SpeciesClient(root: root, transport: SnapshotTransport(root: root, diagnostics: diagnostics), diagnostics: diagnostics)
    }

    @Test func itServesEveryPageUnderAnyRoot() async throws {
        let root = try #require(APIRoot("http://127.0.0.1:9/api/"))
        let species = try await client(root: root).allSpecies(from: root.speciesURL())
        #expect(species.count == 37)
        #expect(species.allSatisfy { $0.url?.hasPrefix("http://127.0.0.1:9/api/species/") == true })
        #expect(diagnostics.notes == ["offline: answering from the SWAPI snapshot bundled with species (\(SnapshotTransport.date))"])
    }

    @Test(arguments: [("yoda's", ["Yoda's species"]), ("AN", ["Human", "Rodian"]), ("kel dor", ["Kel Dor"]), ("zzz", [])])
    func itComputesSearches(text: String, first: [String]) async throws {
        let found = try await client().allSpecies(from: APIRoot.swapi.speciesURL(search: text))
        #expect(Array(found.compactMap(\.name).prefix(first.count)) == first)
        if text == "AN" { #expect(found.count == 17) }
    }

    @Test func itAnswers404ForWhatItDoesNotHold() async throws {
        let error = await speciesError { _ = try await client().species(at: APIRoot.swapi.speciesURL(id: 99)) }
        #expect(error == .httpStatus(404, url: APIRoot.swapi.speciesURL(id: 99)))
    }
}
