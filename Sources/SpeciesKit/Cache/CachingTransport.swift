import Foundation

/// Answers from the disk cache when it can, and keeps it up to date.
///
/// - A fresh entry (younger than `maxAge`) is the answer; the network is not
///   touched (nor is the HTTP helper started).
/// - A stale one is revalidated with `If-None-Match` / `If-Modified-Since`;
///   a 304 refreshes it. `--refresh` revalidates even fresh entries.
/// - Offline, an entry of any age is the answer, else the bundled snapshot;
///   the network never is.
public struct CachingTransport: HTTPTransport {
    public enum Mode: Sendable, Equatable {
        case normal, refresh, offline
    }

    private let network: any HTTPTransport
    private let cache: ResponseCache?
    private let snapshot: (any HTTPTransport)?
    private let maxAge: Double
    private let mode: Mode
    private let diagnostics: any Diagnostics
    private let now: @Sendable () -> Date

    /// - Parameters:
    ///   - cache: nil for `--no-cache`: nothing read, nothing written.
    ///   - snapshot: the answers of last resort when offline.
    public init(
        network: any HTTPTransport, cache: ResponseCache?, snapshot: (any HTTPTransport)?, maxAge: Double, mode: Mode,
        diagnostics: any Diagnostics, now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.network = network
        self.cache = cache
        self.snapshot = snapshot
        self.maxAge = maxAge
        self.mode = mode
        self.diagnostics = diagnostics
        self.now = now
    }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let entry = cache?.read(request.url)
        switch mode {
        case .offline:
            if let entry { return entry.response }
            if let snapshot { return try await snapshot.send(request) }
            throw TransportError(.offline, url: request.url, detail: "it is not in the cache, and --offline keeps off the network")
        case .normal:
            if let entry, now().timeIntervalSince(entry.fetched) < maxAge { return entry.response }
        case .refresh:
            break
        }
        var conditional = request
        conditional.headers["If-None-Match"] = entry?.etag
        conditional.headers["If-Modified-Since"] = entry?.lastModified
        let response = try await network.send(conditional)
        if response.status == 304, var entry {
            entry.fetched = now()
            store(entry)
            return entry.response
        }
        if response.status == 200 {
            store(.init(
                url: request.url.absoluteString, fetched: now(), etag: response.header("ETag"),
                lastModified: response.header("Last-Modified"), body: response.body))
        }
        return response
    }

    private func store(_ entry: ResponseCache.Entry) {
        guard let cache else { return }
        do {
            try cache.write(entry)
        } catch {
            diagnostics.warning("cannot write the cache in \(cache.directory.path): \(error.localizedDescription)")
        }
    }
}
