import Foundation

/// Gets a body that reads as the JSON expected of a URL: from the cache
/// when an entry may answer, else from the network, keeping the cache up to
/// date. A body is stored only once it has been read, so the cache never
/// holds what would be refused.
///
/// - A fresh entry (fetched less than `maxAge` ago, and not in the future)
///   is the answer; the network is not touched.
/// - A stale one is revalidated with `If-None-Match` / `If-Modified-Since`;
///   a 304 refreshes it.
/// - `cacheOnly` answers from an entry of any age, or not at all.
///
/// It reads the cache, and never writes it: what is to be written waits in
/// the draft of the answer it is part of until that answer is whole
/// (`AnswerDraft`). Each request takes what `limits` says.
struct Fetcher: Sendable {
    let network: any HTTPTransport
    let cache: ResponseCache?
    let maxAge: Double
    var mode: CachePolicy.Mode
    /// Holds the writes and warnings until the answer is whole.
    let draft: AnswerDraft
    let limits: RequestLimits
    /// What a body may hold, checked before it is decoded.
    var valueLimits = JSONValueCount(maxSize: URLSessionTransport.defaultMaxResponseSize)
    var now: @Sendable () -> Date = Date.init

    /// The same, answering from the cache alone, whatever its age.
    func cacheOnly() -> Fetcher {
        var fetcher = self
        fetcher.mode = .offline
        return fetcher
    }

    /// The value `read` makes of the body of GET `url`. `read` throws
    /// `SpeciesError.invalidResponse` for a body that is not what it expects.
    func get<Value: Sendable>(_ url: URL, _ read: (Data, URL) throws(SpeciesError) -> Value) async throws -> Value {
        var entry = draft.held(url) ?? cache?.read(url)
        var cached: Value?
        if let body = entry?.body {
            cached = try? decode(body, url, read)
            // An entry that does not read is no entry: it is replaced.
            if cached == nil { entry = nil }
        }
        if let entry, let cached, mode == .offline || (mode == .normal && isFresh(entry)) {
            draft.answered(fromCacheFetched: entry.fetched)
            draft.trace(
                "GET \(url.redacted): from the cache, no request (fetched \(TimeSpan.describe(now().timeIntervalSince(entry.fetched))) ago)"
            )
            return cached
        }
        if mode == .offline {
            throw SpeciesError.notCached(url: url)
        }
        var request = HTTPRequest(url: url, limits: limits)
        request.headers["If-None-Match"] = entry?.etag
        request.headers["If-Modified-Since"] = entry?.lastModified
        let response: HTTPResponse
        do {
            response = try await network.send(request)
        } catch let error as TransportError {
            throw Self.failure(error)
        }
        switch response.status {
        case 304 where entry != nil:
            guard var entry, let cached else { break }
            entry.fetched = now()
            draft.hold(entry)
            return cached
        case 200..<300:
            let value = try decode(response.body, url, read)
            draft.hold(
                .init(
                    url: ResponseCache.key(url), fetched: now(), etag: response.header("ETag"),
                    lastModified: response.header("Last-Modified"), body: response.body))
            return value
        case 401, 403:
            // SWAPI asks no one for credentials.
            throw SpeciesError.notSWAPI(
                url: url, problem: "it answered HTTP \(response.status) \(HTTPStatusText.reason(response.status))")
        default:
            break
        }
        throw SpeciesError.httpStatus(response.status, url: url)
    }

    /// What `read` makes of `body`, once the body is known to hold no more
    /// values than the limits (`JSONValueCount`).
    private func decode<Value>(_ body: Data, _ url: URL, _ read: (Data, URL) throws(SpeciesError) -> Value)
        throws(SpeciesError) -> Value
    {
        if let excess = valueLimits.excess(in: body) {
            throw .tooLarge(url: url, problem: "it holds \(excess)")
        }
        return try read(body, url)
    }

    /// Fetched at most `maxAge` seconds ago. An entry from the future (a
    /// clock set back) is stale.
    private func isFresh(_ entry: ResponseCache.Entry) -> Bool {
        let age = now().timeIntervalSince(entry.fetched)
        return age >= 0 && age < maxAge
    }

    private static func failure(_ error: TransportError) -> SpeciesError {
        switch error.kind {
        case .tooLarge:
            .tooLarge(url: error.url, problem: error.detail)
        case .redirectRefused:
            .redirected(url: error.url, problem: error.detail)
        case .tooManyHeaders:
            .refused(url: error.url, problem: error.detail)
        case .throttled(let status, let retryAfter, let secondsLeft):
            .rateLimited(url: error.url, status: status, retryAfter: retryAfter, secondsLeft: secondsLeft)
        default:
            .unreachable(error)
        }
    }
}
