import Foundation
import Synchronization

/// One source's attempt at an answer (docs/cli.md, "One answer, one
/// source"): it reads the cache, asks the service, and holds all that the
/// answer would leave behind until the client keeps the answer whole
/// (`keep`): the responses to cache, the warnings about its species, the
/// dialect the service spoke and, when the client says so, that it
/// answered. A source that fails is dropped (`drop`), and nothing of it
/// stays. Notes, progress and traces pass through at once.
///
/// A fresh cache entry answers with no request; a stale one is revalidated
/// (`If-None-Match`, `If-Modified-Since`). An attempt at the cache alone
/// (`limits` nil) answers from an entry of any age, or not at all, and
/// keeps nothing. A request takes what `limits` says: the transport keeps
/// its deadline and pace, and it is retried here, after HTTP 429, 500,
/// 502, 503 or 504 or a dropped connection, after a back-off or the
/// server's `Retry-After`, as long as the deadline leaves time. A body is
/// decoded only when it holds no more JSON values than the size limit
/// allows (`JSONValueCount`), and is cached only once it has been read.
final class Attempt: Diagnostics {
    private struct Held {
        var entries: [ResponseCache.Entry] = []
        var warnings: [String] = []
        /// The listing pages handed over, with how many species each held.
        var pages: [(url: URL, species: Int)] = []
        /// A species read on its own, as `show` reads one.
        var species: URL?
        /// When the oldest of what the cache answered was fetched.
        var oldestFromCache: Date?
        var dialect: Dialect?
    }

    let root: APIRoot
    /// Nil: the cache alone, whatever the age of its entries.
    let limits: RequestLimits?
    private let client: SpeciesClient
    private let held = Mutex(Held())

    init(_ root: APIRoot, of client: SpeciesClient, limits: RequestLimits?) {
        self.root = root
        self.client = client
        self.limits = limits
    }

    var cache: ResponseCache? { client.cache }

    /// The dialect of the service: as this attempt or an earlier answer
    /// showed it, else the one its host is known for, else drf's.
    var dialect: Dialect {
        held.withLock { $0.dialect } ?? client.memory.dialect(of: root) ?? Dialect.guess(for: root)
    }

    /// The service answered in `dialect`; the first time in this process,
    /// or when it changed, the trace hears of it.
    func learn(_ dialect: Dialect) {
        guard held.withLock({ $0.dialect }) != dialect else { return }
        held.withLock { $0.dialect = dialect }
        if client.memory.dialect(of: root, heardOnly: true) != dialect {
            trace("\(root.origin.authority) answers in \(dialect.service) form (\(dialect.rawValue))")
        }
    }

    /// The value `read` makes of the body of GET `url`. `read` throws
    /// `SpeciesError.invalidResponse` for a body that is not what it expects.
    func get<Value: Sendable>(_ url: URL, _ read: (Data, URL) throws(SpeciesError) -> Value) async throws -> Value {
        let key = ResponseCache.key(url)
        var entry = held.withLock { $0.entries.last { $0.url == key } } ?? cache?.read(url)
        let cached = entry.flatMap { try? decode($0.body, url, read) }
        // An entry that does not read is no entry: it is replaced.
        if cached == nil { entry = nil }
        let now = client.time.now
        if let entry, let cached,
            limits == nil
                || (client.configuration.cache.mode == .normal
                    && CachePolicy.isFresh(entry.fetched, now: now, maxAge: client.configuration.cache.maxAge))
        {
            held.withLock { $0.oldestFromCache = min($0.oldestFromCache ?? entry.fetched, entry.fetched) }
            trace(
                "GET \(url.redacted): from the cache, no request (fetched \(TimeSpan.describe(now.timeIntervalSince(entry.fetched))) ago)"
            )
            return cached
        }
        guard let limits else { throw SpeciesError.notCached(url: url) }
        var request = HTTPRequest(url: url, limits: limits)
        request.headers["If-None-Match"] = entry?.etag
        request.headers["If-Modified-Since"] = entry?.lastModified
        let response = try await send(request)
        switch response.status {
        case 304 where entry != nil:
            guard var entry, let cached else { break }
            entry.fetched = client.time.now
            hold(entry)
            return cached
        case 200..<300:
            let value = try decode(response.body, url, read)
            hold(
                .init(
                    url: key, fetched: client.time.now, etag: response.header("ETag"),
                    lastModified: response.header("Last-Modified"), body: response.body))
            return value
        case 401, 403:
            // SWAPI asks no one for credentials.
            throw SpeciesError.notSWAPI(url: url, status: response.status)
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
        if let excess = JSONValueCount(maxSize: client.configuration.maxResponseSize).excess(in: body) {
            throw .tooLarge(url: url, excess)
        }
        return try read(body, url)
    }

    /// `request` through the transport, retried as its limits allow, each
    /// exchange told to the trace.
    private func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let (url, deadline, retries) = (request.url, request.limits.deadline, request.limits.retries)
        var attempt = 0
        while true {
            let start = client.time.elapsed()
            func elapsed() -> String {
                "\(Int(ClientTime.seconds(client.time.elapsed() - start) * 1000)) ms"
            }
            let response: HTTPResponse
            do {
                response = try await client.transport.send(request)
            } catch let error as TransportError {
                trace("GET \(url.redacted): failed after \(elapsed()): \(error.detail)")
                let wait = Self.backoff(attempt: attempt, unit: client.jitter())
                guard error.kind == .connectionLost, attempt < retries, wait < deadline.secondsLeft else {
                    throw SpeciesError(error)
                }
                try await retry(&attempt, of: retries, after: wait, asked: false, url, because: error.detail)
                continue
            }
            let revalidated = response.status == 304 && request.headers.keys.contains { $0.hasPrefix("If-") }
            trace(
                "GET \(url.redacted): \(response.status) \(HTTPStatusText.reason(response.status)), \(response.body.count) bytes, "
                    + "\(elapsed()), \(revalidated ? "revalidated: the cached copy is current" : "from the network")")
            guard [429, 500, 502, 503, 504].contains(response.status) else { return response }
            let asked = response.header("Retry-After").flatMap { RetryAfter.seconds($0, now: client.time.now) }
            if let asked, asked > deadline.secondsLeft {
                throw SpeciesError.rateLimited(
                    url: url, status: response.status, retryAfter: asked, secondsLeft: deadline.secondsLeft,
                    at: client.time.now)
            }
            let wait = asked ?? Self.backoff(attempt: attempt, unit: client.jitter())
            guard attempt < retries, wait < deadline.secondsLeft else { return response }
            let reason = "it answered HTTP \(response.status) \(HTTPStatusText.reason(response.status))"
            try await retry(&attempt, of: retries, after: wait, asked: asked != nil, url, because: reason)
        }
    }

    /// Says the retry, and waits for it.
    private func retry(
        _ attempt: inout Int, of retries: Int, after wait: Double, asked: Bool, _ url: URL, because reason: String
    ) async throws {
        let waiting = TimeSpan.tenths(wait) + (asked ? ", as the server asked" : "")
        note("retry \(attempt + 1) of \(retries) in \(waiting): \(url.redacted): \(reason)")
        try await limits?.deadline.sleep(wait)
        attempt += 1
    }

    /// The wait before retry `attempt` (from 0): half a second doubled each
    /// time, at most 8 s, then scaled by a factor from 0.5 to 1 (`unit` is
    /// uniform in 0..<1) so that clients do not retry in step.
    static func backoff(attempt: Int, unit: Double) -> Double {
        min(8, 0.5 * pow(2, Double(min(attempt, 30)))) * (0.5 + unit / 2)
    }

    // MARK: What the answer would leave behind

    private func hold(_ entry: ResponseCache.Entry) {
        guard cache != nil, limits != nil else { return }
        held.withLock { held in
            held.entries.removeAll { $0.url == entry.url }
            held.entries.append(entry)
        }
    }

    func warning(_ message: String) {
        held.withLock { $0.warnings.append(message) }
    }

    func note(_ message: String) { client.diagnostics.note(message) }
    func progress(_ message: String) { client.diagnostics.progress(message) }
    func trace(_ message: String) { client.diagnostics.trace(message) }

    /// A page of a listing, handed over in its order.
    func handedOver(page url: URL, species: Int) {
        held.withLock { $0.pages.append((url, species)) }
    }

    /// A species read on its own.
    func handedOver(species url: URL) {
        held.withLock { $0.species = $0.species ?? url }
    }

    /// When the oldest of what the cache answered was fetched: how old an
    /// answer that stood in for the API is.
    var oldestFromCache: Date? { held.withLock { $0.oldestFromCache } }

    /// The answer is whole: its responses are cached, its warnings said,
    /// and the dialect it showed remembered, in the cache when it is not
    /// the one guessed; with `answering`, the record that this service
    /// answers the list is written too.
    func keep(answering record: (since: Date, roots: [APIRoot])? = nil) {
        let held = self.held.withLock { held in
            defer { held = Held() }
            return held
        }
        let now = client.time.now
        do throws(ResponseCache.Failure) {
            for entry in held.entries { try cache?.write(entry) }
            // A read from the cache alone remembers nothing.
            if limits != nil, let dialect = held.dialect, client.memory.learn(dialect, of: root) {
                try cache?.remember(dialect, of: root, at: now)
            }
            if let record { try cache?.remember(root, answering: record.roots, since: record.since, at: now) }
        } catch {
            client.diagnostics.warning("cannot write the cache in \(error.path): \(error.reason)")
        }
        held.warnings.forEach(client.diagnostics.warning)
    }

    /// The source failed: what it sent goes. Says, for a notice, what that
    /// was (`1 page, which is dropped`), or nothing when it sent nothing.
    func drop(from service: String) -> String {
        let held = self.held.withLock { held in
            defer { held = Held() }
            return held
        }
        let what: [String] =
            held.pages.map { "\($0.url.redacted) (\($0.species) species)" }
            + (held.pages.isEmpty ? held.species.map { ["\($0.redacted) (the species)"] } ?? [] : [])
        guard !what.isEmpty else { return "" }
        trace("dropping what \(service) sent: " + what.joined(separator: ", "))
        held.warnings.forEach { trace("dropping the warning with it: \($0)") }
        switch held.pages.count {
        case 0: return "the species, which is dropped"
        case 1: return "1 page, which is dropped"
        case let count: return "\(count) pages, which are dropped"
        }
    }
}

/// The `Retry-After` header as RFC 9110 (10.2.3) has it: a whole number of
/// seconds, in digits only, or an HTTP date, in any of the three forms a
/// recipient must read (5.6.7): IMF's, RFC 850's and asctime's. Anything
/// else (`0x10`, `1e19`, `1.5`) is no answer, and the usual back-off
/// applies. The number is the server's: it is held to a bound, so that no
/// value, however long, can trap a conversion.
enum RetryAfter {
    private static let httpDates = [
        "EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy",
    ]

    /// How long the server asks to wait from `now`; nil when unreadable.
    static func seconds(_ value: String, now: Date) -> Double? {
        let text = value.trimmingCharacters(in: .whitespaces)
        if !text.isEmpty, text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) {
            return min(Double(text) ?? TimeSpan.longest, TimeSpan.longest)
        }
        // asctime pads a day of one digit with a space: `Nov  6`.
        let words = text.split(separator: " ").joined(separator: " ")
        let date = httpDates.lazy.compactMap { format in
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            // RFC 850's two digits name the year within 50 of now.
            formatter.twoDigitStartDate = now.addingTimeInterval(-50 * 365.25 * 86400)
            return formatter.date(from: words)
        }.first
        return date.map { min(max(0, $0.timeIntervalSince(now)), TimeSpan.longest) }
    }
}
