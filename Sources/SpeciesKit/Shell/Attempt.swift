import Foundation
import Synchronization

/// What every attempt of a client is handed: how it reaches the network
/// and the cache, and where it reports.
struct Fetching: Sendable {
    let transport: any HTTPTransport
    let cache: ResponseCache?
    let policy: CachePolicy
    /// The client's size limit, whatever the transport.
    let maxResponseSize: Int
    let time: ClientTime
    let diagnostics: any Diagnostics
    /// Uniform in 0..<1: the jitter of the retries' back-off.
    let jitter: @Sendable () -> Double
}

/// One source's attempt at an answer (docs/cli.md, "One answer, one
/// source"): it reads the cache (an attempt at the cache alone, `limits`
/// nil, at any age), asks the service as `Retrying` says, and holds all
/// that the answer would leave behind until the client keeps it (`keep`),
/// or drops it (`drop`).
final class Attempt: Sendable {
    private struct Held {
        var entries: [String: ResponseCache.Entry] = [:]
        /// The keys of the entries the answer was made of.
        var used: Set<String> = []
        var warnings: [String] = []
        /// The listing pages handed over, with how many species each held.
        var pages: [(url: URL, species: Int)] = []
        /// The count of the listing the pages handed over were whole with.
        var count: Int?
        /// A species read on its own, as `show` reads one.
        var species: URL?
        /// When the oldest of what the cache answered was fetched.
        var oldestFromCache: Date?
        var dialect: Dialect
        /// Every entry is asked again with its validators (`CachePolicy.Mode.refresh`).
        var revalidate: Bool
        /// The cache is not read at all.
        var bypass = false
        /// Anything came from the source: a body, an HTTP status, a failure
        /// that is not silence.
        var heard = false
        /// The service itself answered a request: a response came from the
        /// network.
        var reached = false
        /// Of the bodies handed over.
        var bytes = 0
    }

    let root: APIRoot
    /// Nil: the cache alone, whatever the age of its entries.
    let limits: RequestLimits?
    private let fetching: Fetching
    private let held: Mutex<Held>

    /// Whether a request may be sent: false, only fresh entries answer.
    let network: Bool
    /// When it began, on the client's clock.
    private let began: Duration

    /// - Parameters:
    ///   - dialect: the service's, as far as the client knows it.
    ///   - mode: how the answer uses the cache (`.refresh` revalidates).
    ///   - network: false for the fresh cache alone.
    ///   - readsCache: false to ask the service for everything.
    init(
        _ root: APIRoot, limits: RequestLimits?, dialect: Dialect, mode: CachePolicy.Mode, fetching: Fetching,
        network: Bool = true, readsCache: Bool = true
    ) {
        self.root = root
        self.limits = limits
        self.network = network
        self.fetching = fetching
        began = fetching.time.elapsed()
        held = Mutex(Held(dialect: dialect, revalidate: mode == .refresh, bypass: !readsCache))
    }

    /// Whether the service itself answered a request.
    var reached: Bool { held.withLock { $0.reached } }

    /// Seconds since it began: how long a source that showed no sign of
    /// life was silent.
    var quiet: Double { ClientTime.seconds(fetching.time.elapsed() - began) }

    /// The dialect of the service, as this attempt knows it.
    var dialect: Dialect { held.withLock { $0.dialect } }

    /// The service answered in `dialect`.
    func learn(_ dialect: Dialect) { held.withLock { $0.dialect = dialect } }

    /// Whether anything came from the source: a sign of life.
    var heard: Bool { held.withLock { $0.heard } }

    /// Bytes of the bodies handed over.
    var bytes: Int { held.withLock { $0.bytes } }

    /// The body of GET `url`, from the cache or the network.
    /// - Throws: `Fault.httpStatus` for a status that is not a
    ///   success, `.notSWAPI` for 401 and 403, `.notCached` for the cache
    ///   alone without an entry, `.tooLarge`, or the transport's failure.
    func get(_ url: URL, firstBytes: (@Sendable (Data) -> Void)? = nil) async throws(Fault) -> Data {
        let key = ResponseCache.key(url)
        let (heldEntry, revalidate, bypass) = held.withLock { ($0.entries[key], $0.revalidate, $0.bypass) }
        let entry = heldEntry ?? (bypass ? nil : fetching.cache?.read(url))
        let now = fetching.time.now
        let use = CacheUse.of(
            entry: entry?.fetched, anyAge: limits == nil, network: network, revalidate: revalidate, now: now,
            maxAge: fetching.policy.maxAge)
        if use == .cached, let entry {
            held.withLock { $0.oldestFromCache = min($0.oldestFromCache ?? entry.fetched, entry.fetched) }
            fetching.diagnostics.trace {
                "GET \(url.redacted): from the cache, no request (fetched \(TimeSpan.describe(now.timeIntervalSince(entry.fetched))) ago)"
            }
            return try handOver(entry.body, url)
        }
        guard use == .ask, let limits else { throw .notCached(url: url) }
        var request = HTTPRequest(url: url, limits: limits)
        request.firstBytes = firstBytes
        request.headers["If-None-Match"] = entry?.etag
        request.headers["If-Modified-Since"] = entry?.lastModified
        let response = try await send(request)
        switch response.status {
        case 304 where entry != nil:
            guard var entry else { break }
            entry.fetched = fetching.time.now
            hold(entry)
            return try handOver(entry.body, url)
        case 200..<300:
            let body = try handOver(response.body, url)
            hold(
                .init(
                    url: key, fetched: fetching.time.now, etag: response.header("ETag"),
                    lastModified: response.header("Last-Modified"), body: body))
            return body
        default: break
        }
        throw Retrying.fault(of: response, url: url, now: fetching.time.now)
    }

    /// `body`, when it is within the client's limits, counted.
    private func handOver(_ body: Data, _ url: URL) throws(Fault) -> Data {
        held.withLock { $0.heard = true }
        if body.count > fetching.maxResponseSize { throw .tooLarge(url: url, .bytes(fetching.maxResponseSize)) }
        if let excess = JSONValueCount(maxSize: fetching.maxResponseSize).excess(in: body) {
            throw .tooLarge(url: url, excess)
        }
        held.withLock { $0.bytes += body.count }
        return body
    }

    /// `request` through the transport, retried as its limits allow
    /// (`Retrying`), each exchange told to the trace.
    private func send(_ request: HTTPRequest) async throws(Fault) -> HTTPResponse {
        let (url, deadline) = (request.url, request.limits.deadline)
        let time = fetching.time
        var retrying = Retrying(retries: request.limits.retries)
        while true {
            let start = time.elapsed()
            func elapsed() -> String { "\(Int(ClientTime.seconds(time.elapsed() - start) * 1000)) ms" }
            let step: Retrying.Step
            do {
                let response = try await fetching.transport.send(request)
                held.withLock { ($0.heard, $0.reached) = (true, true) }
                let revalidated = response.status == 304 && request.headers.keys.contains { $0.hasPrefix("If-") }
                fetching.diagnostics.trace {
                    "GET \(url.redacted): \(response.status) \(HTTPStatusText.reason(response.status)), \(response.body.count) bytes, "
                        + "\(elapsed()), \(revalidated ? "revalidated: the cached copy is current" : "from the network")"
                }
                step = retrying.next(
                    after: response, url: url, secondsLeft: deadline.secondsLeft, now: time.now, unit: fetching.jitter()
                )
            } catch {
                // A request this client stopped says nothing of the server.
                if error.kind != .cancelled, !Fault(error).isSilence { held.withLock { $0.heard = true } }
                fetching.diagnostics.trace { "GET \(url.redacted): failed after \(elapsed()): \(error.detail)" }
                step = retrying.next(after: error, secondsLeft: deadline.secondsLeft, unit: fetching.jitter())
            }
            switch step {
            case .take(let response): return response
            case .fail(let error): throw error
            case .retry(let wait, let asked, let reason):
                let waiting = TimeSpan.tenths(wait) + (asked ? ", as the server asked" : "")
                fetching.diagnostics.note(
                    "retry \(retrying.attempt) of \(retrying.retries) in \(waiting): \(url.redacted): \(reason)")
                do { try await deadline.sleep(wait) } catch { throw .cancelled }
            }
        }
    }

    // MARK: What the answer would leave behind

    private func hold(_ entry: ResponseCache.Entry) {
        guard fetching.cache != nil, limits != nil else { return }
        held.withLock { $0.entries[entry.url] = entry }
    }

    /// A field of a species could not be read: said once the answer is kept.
    func warn(_ issues: [SpeciesIssue]) { held.withLock { $0.warnings += issues.map(\.description) } }

    /// The pages of a listing of `count` went into the answer, in order.
    func handedOver(pages: [(url: URL, species: Int)], of count: Int?) {
        held.withLock { held in
            held.pages += pages
            held.count = count
            held.used.formUnion(pages.map { ResponseCache.key($0.url) })
        }
    }

    /// The count of the listing whose page 1 the cache holds at `url`.
    func cachedCount(ofListingAt url: URL) -> Int? { fetching.cache?.count(ofListingAt: url) }

    /// A species read on its own, or a resource, went into the answer.
    func handedOver(_ url: URL, species: Bool = false) {
        held.withLock { held in
            if species { held.species = held.species ?? url }
            held.used.insert(ResponseCache.key(url))
        }
    }

    /// When the oldest of what the cache answered was fetched: how old an
    /// answer that stood in for the API is.
    var oldestFromCache: Date? { held.withLock { $0.oldestFromCache } }

    /// The answer is whole: the responses it was made of are cached, as
    /// far as the deadline leaves time, and its warnings said. The dialect
    /// the service spoke, to remember.
    func keep() -> Dialect {
        let held = self.held.withLock { $0 }
        do throws(ResponseCache.Failure) {
            let pages = Set(held.pages.map { ResponseCache.key($0.url) })
            let keys = held.used.sorted().filter { held.entries[$0] != nil }
            for (index, key) in keys.enumerated() {
                guard var entry = held.entries[key] else { continue }
                if limits?.deadline.hasPassed == true {
                    fetching.diagnostics.trace { "the timeout ran out: \(keys.count - index) responses are not cached" }
                    break
                }
                if pages.contains(key) { entry.count = held.count }
                try fetching.cache?.write(entry)
            }
        } catch { fetching.diagnostics.warning("cannot write the cache in \(error.path): \(error.reason)") }
        held.warnings.forEach(fetching.diagnostics.warning)
        return held.dialect
    }

    /// For a notice, what the source sent before it failed: `1 page, which
    /// is dropped`; nothing when it sent nothing.
    var sent: String {
        let held = self.held.withLock { $0 }
        switch held.pages.count {
        case 0 where held.species != nil: return "the species, which is dropped"
        case 0: return ""
        case 1: return "1 page, which is dropped"
        case let count: return "\(count) pages, which are dropped"
        }
    }

    /// The source failed: what it sent goes, and the trace says what.
    func drop(from service: String) {
        let held = self.held.withLock { $0 }
        let what: [String] =
            held.pages.map { "\($0.url.redacted) (\($0.species) species)" }
            + (held.pages.isEmpty ? held.species.map { ["\($0.redacted) (the species)"] } ?? [] : [])
        guard !what.isEmpty else { return }
        fetching.diagnostics.trace { "dropping what \(service) sent: " + what.joined(separator: ", ") }
        for warning in held.warnings { fetching.diagnostics.trace { "dropping the warning with it: \(warning)" } }
    }
}
