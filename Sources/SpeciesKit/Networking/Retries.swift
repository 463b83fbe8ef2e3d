import Foundation

/// Retries what may succeed a moment later, HTTP 429, 500, 502, 503 and 504
/// and dropped connections, as many times as the request's `retries` say.
/// Waits grow exponentially with jitter, or follow the server's
/// `Retry-After`, and none reaches past the request's deadline: a
/// `Retry-After` longer than the time left fails at once, saying so, and a
/// back-off that would leave no time for another try ends the retries with
/// the last answer. Each retry is announced. Timeouts and other 4xx are not
/// retried.
struct Retries: HTTPMiddleware {
    static let retriedStatuses: Set<Int> = [429, 500, 502, 503, 504]

    let diagnostics: any Diagnostics
    /// Uniform in 0..<1, for the jitter.
    var random: @Sendable () -> Double = { Double.random(in: 0..<1) }
    /// The time an HTTP-date `Retry-After` is read against.
    var now: @Sendable () -> Date = Date.init

    /// The wait before retry `attempt` (from 0): half a second doubled each
    /// time, at most 8 s, then scaled by a factor from 0.5 to 1 (`unit` is
    /// uniform in 0..<1) so that clients do not retry in step.
    static func backoff(attempt: Int, unit: Double) -> Double {
        min(8, 0.5 * pow(2, Double(min(attempt, 30)))) * (0.5 + unit / 2)
    }

    func intercept(_ request: HTTPRequest, next: (HTTPRequest) async throws -> HTTPResponse) async throws
        -> HTTPResponse
    {
        let retries = request.limits.retries
        let deadline = request.limits.deadline ?? Deadline(seconds: TimeSpan.longest)
        var attempt = 0
        while true {
            let response: HTTPResponse
            do {
                response = try await next(request)
            } catch let error as TransportError where error.kind == .connectionLost && attempt < retries {
                let wait = Self.backoff(attempt: attempt, unit: random())
                guard wait < deadline.secondsLeft else { throw error }
                announce(attempt, of: retries, wait: wait, asked: false, request.url, reason: error.detail)
                try await deadline.sleep(wait)
                attempt += 1
                continue
            }
            guard Self.retriedStatuses.contains(response.status) else { return response }
            let asked = response.header("Retry-After").flatMap { RetryAfter.seconds($0, now: now()) }
            if let asked, asked > deadline.secondsLeft {
                let left = deadline.secondsLeft
                throw TransportError(
                    .throttled(status: response.status, retryAfter: asked, secondsLeft: left), url: request.url,
                    detail:
                        "it asks to wait \(TimeSpan.describe(asked)); \(TimeSpan.tenths(left)) of the \(TimeSpan.exactly(deadline.seconds)) timeout are left"
                )
            }
            let wait = asked ?? Self.backoff(attempt: attempt, unit: random())
            guard attempt < retries, wait < deadline.secondsLeft else { return response }
            let reason = "it answered HTTP \(response.status) \(HTTPStatusText.reason(response.status))"
            announce(attempt, of: retries, wait: wait, asked: asked != nil, request.url, reason: reason)
            try await deadline.sleep(wait)
            attempt += 1
        }
    }

    private func announce(_ attempt: Int, of retries: Int, wait: Double, asked: Bool, _ url: URL, reason: String) {
        let wait = TimeSpan.tenths(wait) + (asked ? ", as the server asked" : "")
        diagnostics.note("retry \(attempt + 1) of \(retries) in \(wait): \(url.redacted): \(reason)")
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
