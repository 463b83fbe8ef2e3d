import Foundation

/// Retries what may succeed a moment later: HTTP 429, 500, 502, 503 and 504,
/// and dropped connections. Waits grow exponentially with jitter, or follow
/// the server's `Retry-After` when it asks for at most `maxRetryAfter`
/// seconds; a longer `Retry-After` fails at once. Each retry is announced,
/// and each attempt told to the trace: its URL, its status, size and time,
/// and whether it revalidated the cached copy; or why it failed. Timeouts
/// and other 4xx are not retried.
struct RetryingTransport: HTTPTransport {
    struct Policy: Sendable {
        var retries: Int
        var baseDelay: Double = 0.5
        var maxDelay: Double = 8
        var maxRetryAfter: Double = 30

        init(retries: Int) {
            self.retries = retries
        }

        /// The wait before retry `attempt` (from 0): `baseDelay` doubled each
        /// time, at most `maxDelay`, then scaled by a factor from 0.5 to 1
        /// (`unit` is uniform in 0..<1) so that clients do not retry in step.
        func backoff(attempt: Int, unit: Double) -> Double {
            min(maxDelay, baseDelay * pow(2, Double(min(attempt, 30)))) * (0.5 + unit / 2)
        }
    }

    static let retriedStatuses: Set<Int> = [429, 500, 502, 503, 504]

    private let base: any HTTPTransport
    private let policy: Policy
    private let diagnostics: any Diagnostics
    private let sleep: @Sendable (Double) async throws -> Void
    private let random: @Sendable () -> Double
    private let now: @Sendable () -> Date

    init(
        _ base: any HTTPTransport, policy: Policy, diagnostics: any Diagnostics,
        sleep: @escaping @Sendable (Double) async throws -> Void = Pause.seconds,
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
        now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.base = base
        self.policy = policy
        self.diagnostics = diagnostics
        self.sleep = sleep
        self.random = random
        self.now = now
    }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        var attempt = 0
        while true {
            let response: HTTPResponse
            do {
                response = try await traced(request)
            } catch let error as TransportError where error.kind == .connectionLost && attempt < policy.retries {
                try await announceAndWait(attempt: attempt, seconds: nil, url: request.url, reason: error.detail)
                attempt += 1
                continue
            }
            guard Self.retriedStatuses.contains(response.status) else { return response }
            let retryAfter = response.header("Retry-After").flatMap { RetryAfter.seconds($0, now: now()) }
            if let retryAfter, retryAfter > policy.maxRetryAfter {
                throw TransportError(
                    .throttled(status: response.status, retryAfter: retryAfter), url: request.url,
                    detail: "it asks to wait \(TimeSpan.describe(retryAfter))")
            }
            guard attempt < policy.retries else { return response }
            let reason = "it answered HTTP \(response.status) \(HTTPStatusText.reason(response.status))"
            try await announceAndWait(attempt: attempt, seconds: retryAfter, url: request.url, reason: reason)
            attempt += 1
        }
    }

    /// One attempt, told to the trace.
    private func traced(_ request: HTTPRequest) async throws -> HTTPResponse {
        let start = ContinuousClock.now
        func elapsed() -> String {
            let elapsed = (ContinuousClock.now - start).components
            return "\(elapsed.seconds * 1000 + elapsed.attoseconds / 1_000_000_000_000_000) ms"
        }
        let line = "GET \(request.url.redacted)"
        do {
            let response = try await base.send(request)
            let revalidated = response.status == 304 && request.headers.keys.contains { $0.hasPrefix("If-") }
            diagnostics.trace(
                "\(line): \(response.status) \(HTTPStatusText.reason(response.status)), \(response.body.count) bytes, "
                    + "\(elapsed()), \(revalidated ? "revalidated: the cached copy is current" : "from the network")")
            return response
        } catch let error as TransportError {
            diagnostics.trace("\(line): failed after \(elapsed()): \(error.detail)")
            throw error
        }
    }

    private func announceAndWait(attempt: Int, seconds asked: Double?, url: URL, reason: String) async throws {
        let seconds = asked ?? policy.backoff(attempt: attempt, unit: random())
        let wait = TimeSpan.tenths(seconds) + (asked == nil ? "" : ", as the server asked")
        diagnostics.note("retry \(attempt + 1) of \(policy.retries) in \(wait): \(url.redacted): \(reason)")
        try await sleep(seconds)
    }
}

/// The `Retry-After` header as RFC 9110 (10.2.3) has it: a whole number of
/// seconds, in digits only, or an HTTP date. Anything else (`0x10`, `1e19`,
/// `1.5`) is no answer, and the usual back-off applies. The number is the
/// server's: it is held to a bound, so that no value, however long, can
/// trap a conversion.
enum RetryAfter {
    private static let httpDate: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter
    }()

    /// How long the server asks to wait from `now`; nil when unreadable.
    static func seconds(_ value: String, now: Date) -> Double? {
        let text = value.trimmingCharacters(in: .whitespaces)
        if !text.isEmpty, text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) {
            return min(Double(text) ?? TimeSpan.longest, TimeSpan.longest)
        }
        return httpDate.date(from: text).map { min(max(0, $0.timeIntervalSince(now)), TimeSpan.longest) }
    }
}
