import Foundation

/// Whether a request is sent again (docs/cli.md, "When the API cannot
/// answer"): a pure value, fed each response or transport failure, that
/// says the next step. HTTP 429, 500, 502, 503 and 504, and a dropped
/// connection, are retried while retries and the time left allow, after
/// the server's `Retry-After`, else the back-off; a `Retry-After` past the
/// time left fails at once.
struct Retrying {
    let retries: Int
    /// Retries asked so far.
    private(set) var attempt = 0

    enum Step: Equatable {
        /// The response is the answer, whatever its status.
        case take(HTTPResponse)
        /// Send it again after `wait` seconds; `asked` when the server set them.
        case retry(after: Double, asked: Bool, because: String)
        case fail(Fault)
    }

    static let statuses: Set<Int> = [429, 500, 502, 503, 504]

    mutating func next(after response: HTTPResponse, url: URL, secondsLeft: Double, now: Date, unit: Double) -> Step {
        guard Self.statuses.contains(response.status) else { return .take(response) }
        let asked = response.header("Retry-After").flatMap { RetryAfter.seconds($0, now: now) }
        if let asked, asked > secondsLeft {
            return .fail(
                .rateLimited(url: url, status: response.status, retryAfter: asked, secondsLeft: secondsLeft, at: now))
        }
        let wait = asked ?? Self.backoff(attempt: attempt, unit: unit)
        guard attempt < retries, wait < secondsLeft else { return .take(response) }
        attempt += 1
        let reason = "it answered HTTP \(response.status) \(HTTPStatusText.reason(response.status))"
        return .retry(after: wait, asked: asked != nil, because: reason)
    }

    mutating func next(after error: TransportError, secondsLeft: Double, unit: Double) -> Step {
        let wait = Self.backoff(attempt: attempt, unit: unit)
        guard error.kind == .connectionLost, attempt < retries, wait < secondsLeft else { return .fail(Fault(error)) }
        attempt += 1
        return .retry(after: wait, asked: false, because: error.detail)
    }

    /// What a response taken that is no answer says (docs/cli.md, "When
    /// the API cannot answer"): 401 and 403 that it is not SWAPI, which
    /// asks no one for credentials; any other its status, with the wait its
    /// `Retry-After` asks, whatever the retries left.
    static func fault(of response: HTTPResponse, url: URL, now: Date) -> Fault {
        switch response.status {
        case 401, 403: .notSWAPI(url: url, status: response.status)
        default:
            .httpStatus(
                response.status, url: url,
                retryAfter: response.header("Retry-After").flatMap { RetryAfter.seconds($0, now: now) })
        }
    }

    /// The wait before retry `attempt` (from 0): `TimeLimits.backoff`,
    /// scaled by a factor from 0.5 to 1 (`unit` is uniform in 0..<1) so
    /// that clients do not retry in step.
    static func backoff(attempt: Int, unit: Double) -> Double {
        let (first, longest) = TimeLimits.backoff
        return min(longest, first * pow(2, Double(min(attempt, 30)))) * (0.5 + unit / 2)
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
