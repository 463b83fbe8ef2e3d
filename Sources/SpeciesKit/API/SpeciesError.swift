import Foundation

/// A failure of a command, with the exit status `cli.md` gives it.
public enum SpeciesError: Error, Sendable, Equatable {
    /// No species has this name; `suggestions` are the closest names.
    case noSuchName(String, suggestions: [String])
    /// Several species match this name partially.
    case ambiguousName(String, matches: [String])
    /// The server answered 404 for the thing the user asked for.
    case notFound(what: String, url: URL)
    /// A search matched no species.
    case noResults(search: String)
    /// No HTTP answer: refused, unknown host, timed out, dropped.
    case unreachable(TransportError)
    /// An HTTP error status.
    case httpStatus(Int, url: URL)
    /// The server asks to wait longer than the client will.
    case rateLimited(url: URL, status: Int, retryAfter: Double, until: Date)
    /// The answer is not SWAPI JSON.
    case invalidResponse(url: URL, problem: String)
    /// The answer breaks a rule of the client: a `next` link off the base
    /// host, a loop, a size or page cap, a redirect off the host.
    case refused(url: URL, problem: String)

    public var exitCode: Int32 {
        switch self {
        case .noSuchName, .ambiguousName, .notFound, .noResults: 1
        case .invalidResponse, .refused: 65
        case .unreachable, .httpStatus, .rateLimited: 69
        }
    }

    public var message: String {
        switch self {
        case .noSuchName(let name, let suggestions):
            let base = "no species is named '\(name)'"
            guard !suggestions.isEmpty else { return base }
            return base + "; did you mean " + Self.alternatives(suggestions) + "?"
        case .ambiguousName(let name, let matches):
            return "'\(name)' matches \(matches.count) species: \(matches.joined(separator: ", ")); give one full name"
        case .notFound(let what, let url):
            return "\(what) does not exist (\(url.absoluteString) answered 404 Not Found)"
        case .noResults(let search):
            return "no species matches '\(search)'"
        case .unreachable(let error):
            if case .timedOut = error.kind {
                return "\(error.url.absoluteString) timed out: \(error.detail)"
            }
            return "could not reach \(error.url.absoluteString): \(error.detail)"
        case .httpStatus(let status, let url):
            return "\(url.absoluteString) answered HTTP \(status) \(HTTPStatusText.reason(status))"
        case .rateLimited(let url, let status, let retryAfter, let until):
            let time = Timestamp.format(until).prefix(16).replacingOccurrences(of: "T", with: " ")
            return "\(url.absoluteString) answered HTTP \(status) \(HTTPStatusText.reason(status)) and asks to wait "
                + "\(RetryAfter.describe(retryAfter)); try again after \(time) UTC"
        case .invalidResponse(let url, let problem):
            return "\(url.absoluteString) did not answer with SWAPI JSON: \(problem)"
        case .refused(let url, let problem):
            return "\(url.absoluteString): \(problem)"
        }
    }

    /// `'A'`, `'A' or 'B'`, `'A', 'B' or 'C'`.
    private static func alternatives(_ names: [String]) -> String {
        let quoted = names.map { "'\($0)'" }
        guard let last = quoted.last, quoted.count > 1 else { return quoted.joined() }
        return quoted.dropLast().joined(separator: ", ") + " or " + last
    }
}

enum HTTPStatusText {
    static func reason(_ status: Int) -> String {
        switch status {
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 408: "Request Timeout"
        case 410: "Gone"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        case 300..<400: "(a redirect)"
        case 400..<500: "(a client error)"
        case 500..<600: "(a server error)"
        default: "(not an HTTP status)"
        }
    }
}
