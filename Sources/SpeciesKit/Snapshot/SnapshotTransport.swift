import Foundation
import Synchronization

/// SWAPI as recorded, built into the binary (`BundledSnapshot`): the answers
/// of last resort offline. It answers under the API root as SWAPI would:
/// recorded pages and resources as they are, searches computed as SWAPI
/// computes them (a case-insensitive part of the name, 10 a page, in id
/// order), 404 for species it does not hold (it holds them all) and for
/// what SWAPI answered 404; links point to the root. Anything else it does
/// not hold (most people) is not available offline. It says
/// once on stderr that the data comes from the snapshot, and of which date.
public final class SnapshotTransport: HTTPTransport {
    private static let recordedRoot = "https://swapi.dev/api/"
    private static let pageSize = 10

    private let root: APIRoot
    private let diagnostics: any Diagnostics
    private let announced = Mutex(false)

    public init(root: APIRoot, diagnostics: any Diagnostics) {
        self.root = root
        self.diagnostics = diagnostics
    }

    public static var date: String { BundledSnapshot.date }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let rootText = root.url.absoluteString
        let url = request.url.absoluteString
        guard url.hasPrefix(rootText) else {
            throw TransportError(
                .offline, url: request.url,
                detail: "it is not in the cache nor under \(rootText), which the bundled snapshot answers for")
        }
        let firstAnswer = announced.withLock { announced in
            defer { announced = true }
            return !announced
        }
        if firstAnswer {
            diagnostics.note("offline: answering from the SWAPI snapshot bundled with species (\(Self.date))")
        }
        let relative = String(url.dropFirst(rootText.count))
        let path = String(relative.prefix { $0 != "?" })
        let items = URLComponents(string: relative)?.queryItems ?? []
        var query = items.filter { !($0.name == "page" && $0.value == "1") }
        let body: String?
        if let recorded = BundledSnapshot.responses[Self.key(path, query)] {
            body = recorded
        } else if path == "species/", let search = items.first(where: { $0.name == "search" })?.value {
            query.removeAll { $0.name == "search" }
            let page = items.first { $0.name == "page" }.flatMap { Int($0.value ?? "") } ?? 1
            body = query.allSatisfy({ $0.name == "page" }) ? searchPage(search, page: page) : nil
        } else {
            body = nil
        }
        guard let body else {
            guard path.hasPrefix("species/") || BundledSnapshot.notFound.contains(Self.key(path, query)) else {
                throw TransportError(.offline, url: request.url, detail: "it is neither in the cache nor in the bundled snapshot")
            }
            return HTTPResponse(status: 404, headers: ["Content-Type": "application/json"], body: Data(#"{"detail":"Not found"}"#.utf8))
        }
        return HTTPResponse(
            status: 200, headers: ["Content-Type": "application/json"],
            body: Data(body.replacingOccurrences(of: Self.recordedRoot, with: rootText).utf8))
    }

    private static func key(_ path: String, _ query: [URLQueryItem]) -> String {
        let pairs = query.map { "\($0.name)=\(QueryEncoding.encode($0.value ?? ""))" }
        return pairs.isEmpty ? path : path + "?" + pairs.joined(separator: "&")
    }

    /// Page `page` of the species whose names contain `search`.
    private func searchPage(_ search: String, page: Int) -> String? {
        let matches = Self.species.filter { $0.name.lowercased().contains(search.lowercased()) }
        let pages = max(1, matches.count.dividedRoundingUp(by: Self.pageSize))
        guard (1...pages).contains(page) else { return nil }
        func link(_ number: Int) -> String {
            "\"\(Self.recordedRoot)species/?search=\(QueryEncoding.encode(search))&page=\(number)\""
        }
        let results = matches.dropFirst((page - 1) * Self.pageSize).prefix(Self.pageSize).map(\.json)
        return #"{"count":\#(matches.count),"next":\#(page < pages ? link(page + 1) : "null"),"#
            + #""previous":\#(page > 1 ? link(page - 1) : "null"),"results":[\#(results.joined(separator: ","))]}"#
    }

    /// Every recorded species, in id order: its name, and its JSON as recorded.
    private static let species: [(id: Int, name: String, json: String)] = BundledSnapshot.responses.compactMap {
        path, json in
        guard path.hasPrefix("species/"), let id = ResourceID.from(url: path),
            let decoded = try? SpeciesDocument.species(Data(json.utf8)), let name = decoded.name
        else { return nil }
        return (id, name, json)
    }.sorted { $0.id < $1.id }
}
