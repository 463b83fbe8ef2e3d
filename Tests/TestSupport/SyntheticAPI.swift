import Foundation
import SpeciesKit
import Synchronization

/// A SWAPI-like API of `species` species, 10 a page, at
/// https://swapi.dev/api/species/?page=N, that answers after `delay` and
/// keeps count of the requests it serves at once. Its pages can be made to
/// lie: `count` says another number, a page links elsewhere, a page fails.
public final class SyntheticAPI: HTTPTransport {
    public let species: Int
    private let count: Int
    private let delay: Double
    private let nextLinks: [Int: String]
    private let previousLinks: [Int: String]
    private let failing: Set<Int>

    private let state = Mutex((inFlight: 0, mostInFlight: 0, requests: [String]()))

    /// - Parameters:
    ///   - count: what the pages say the count is (default: the truth).
    ///   - nextLinks: page number to the `next` link it writes instead.
    ///   - previousLinks: page number to the `previous` link it writes instead.
    ///   - failing: pages that answer HTTP 500.
    public init(
        species: Int, count: Int? = nil, delay: Double = 0.02, nextLinks: [Int: String] = [:],
        previousLinks: [Int: String] = [:], failing: Set<Int> = []
    ) {
        self.species = species
        self.count = count ?? species
        self.delay = delay
        self.nextLinks = nextLinks
        self.previousLinks = previousLinks
        self.failing = failing
    }

    public var mostInFlight: Int { state.withLock { $0.mostInFlight } }
    public var requests: [String] { state.withLock { $0.requests } }
    public var pages: Int { (species + 9) / 10 }

    public static func url(page: Int) -> String {
        page == 1 ? "https://swapi.dev/api/species/" : "https://swapi.dev/api/species/?page=\(page)"
    }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        state.withLock {
            $0.inFlight += 1
            $0.mostInFlight = max($0.mostInFlight, $0.inFlight)
            $0.requests.append(request.url.absoluteString)
        }
        defer { state.withLock { $0.inFlight -= 1 } }
        try await Task.sleep(nanoseconds: UInt64(delay * 1e9))
        let query = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        let page = query.first { $0.name == "page" }.flatMap { Int($0.value ?? "") } ?? 1
        guard (1...pages).contains(page) else {
            return HTTPResponse(status: 404, body: Data(#"{"detail":"Not found"}"#.utf8))
        }
        guard !failing.contains(page) else { return HTTPResponse(status: 500, body: Data()) }
        let first = (page - 1) * 10 + 1
        let results = (first...min(species, first + 9)).map {
            #"{"name":"Species \#($0)","url":"https://swapi.dev/api/species/\#($0)/"}"#
        }
        let next = nextLinks[page] ?? (page < pages ? "https://swapi.dev/api/species/?page=\(page + 1)" : nil)
        let previous = previousLinks[page] ?? (page > 1 ? "https://swapi.dev/api/species/?page=\(page - 1)" : nil)
        func json(_ link: String?) -> String { link.map { "\"\($0)\"" } ?? "null" }
        let body =
            #"{"count":\#(count),"next":\#(json(next)),"previous":\#(json(previous)),"results":[\#(results.joined(separator: ","))]}"#
        return HTTPResponse(status: 200, body: Data(body.utf8))
    }
}
