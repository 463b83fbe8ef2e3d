import Foundation
import Synchronization
import Testing
import TestSupport

@testable import SpeciesKit

/// Issue 49, item 5: a copy of swapi.info at another host answers every
/// page asked with its whole array; the first bytes of page 1 stop the
/// pages asked beside it, before their bodies are read.
@Suite("The first bytes of page 1")
struct FirstBytesTests {
    static let copy = ListingReaderTests.other

    /// A listing of a dialect not yet known, pages 1 to 4 asked at once.
    static func reader(root: APIRoot = copy, dialect: Dialect? = nil) -> ListingReader {
        var reader = ListingReader(
            root: root, dialect: dialect, guess: .drf, question: .species(limit: nil), search: nil, expectedCount: 37)
        _ = reader.start()
        return reader
    }

    /// Only page 1, of a dialect not yet known, beside other pages, that
    /// begins an array, comes alone.
    @Test(
        arguments: [
            (copy, nil, 1, " \n[{\"name\"", true),
            (copy, nil, 1, "[", true),
            (copy, nil, 2, "[", false),
            (copy, nil, 1, "{\"count\":37", false),
            (copy, nil, 1, "  ", false),
            (APIRoot.publicServices[0], Dialect.drf, 1, "[", false),
        ] as [(APIRoot, Dialect?, Int, String, Bool)])
    func comesAlone(root: APIRoot, dialect: Dialect?, page: Int, bytes: String, alone: Bool) {
        let reader = Self.reader(root: root, dialect: dialect)
        let url = Dialect.drf.listingURL(root, page: page)
        #expect(reader.comesAlone(url, begins: Data(bytes.utf8)) == alone)
    }

    /// Page 1 asked alone has nothing beside it to stop.
    @Test func page1AloneHasNothingToStop() {
        var reader = ListingReader(
            root: Self.copy, dialect: nil, guess: .drf, question: .page(1), search: nil)
        _ = reader.start()
        #expect(!reader.comesAlone(Dialect.drf.listingURL(Self.copy), begins: Data("[".utf8)))
    }

    /// Stopping ends every request but the one kept, and any asked after;
    /// the one kept answers.
    @Test func stoppingEndsTheOthers() async {
        let requests = StoppableRequests()
        let (kept, other, later) = (
            URL(string: "http://x/1")!, URL(string: "http://x/2")!, URL(string: "http://x/3")!
        )
        let (started, starting) = AsyncStream.makeStream(of: Void.self)
        let waiting: @Sendable () async -> Result<Data, Fault> = {
            starting.yield()
            do {
                try await Task.sleep(for: .seconds(600))
                return .success(Data())
            } catch {
                return .failure(.cancelled)
            }
        }
        async let stopped = requests.run(other, waiting)
        var arrivals = started.makeAsyncIterator()
        await arrivals.next()
        requests.stop(except: kept)
        #expect(await stopped == .failure(.cancelled))
        #expect(await requests.run(later, waiting) == .failure(.cancelled))
        #expect(await requests.run(kept) { .success(Data("[]".utf8)) } == .success(Data("[]".utf8)))
    }

    /// URLSessionTransport tells the first bytes of a success's body, once.
    @Test func theTransportTellsTheFirstBytesOnce() async throws {
        let root = try await ServerSession().root()
        let told = Mutex<[Data]>([])
        var request = HTTPRequest(
            url: try #require(URL(string: root + "species/")), limits: RequestLimits(deadline: Deadline(seconds: 120)))
        request.firstBytes = { bytes in told.withLock { $0.append(bytes) } }
        let response = try await URLSessionTransport().send(request)
        let chunks = told.withLock { $0 }
        #expect(response.status == 200 && chunks.count == 1)
        #expect(chunks.first.map { response.body.starts(with: $0) } == true)
        request.url = try #require(URL(string: root + "species/99/"))
        told.withLock { $0 = [] }
        #expect(try await URLSessionTransport().send(request).status == 404)
        #expect(told.withLock { $0 }.isEmpty, "a 404's body is no listing")
    }
}
