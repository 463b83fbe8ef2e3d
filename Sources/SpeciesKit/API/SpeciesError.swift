import Foundation

/// Why the client could not give the answer asked for: every failure of
/// its methods, cancellation included, and a question refused before any
/// request. What a caller can do about it is its ``kind``; what it can act
/// on is a property: the ``url`` and ``setting`` concerned, the
/// ``candidates`` of an ambiguous name, the ``suggestions`` for one that
/// matched nothing, the ``httpStatus`` and ``retryAfter`` of a service's
/// answer. Its ``description`` is a sentence for people, in which a URL
/// never shows a password, and a long one is cut in its middle;
/// ``failureReason`` and ``recoverySuggestion`` say why, and what to do.
///
/// It can grow: new reasons come with the kinds they are of, and ``Kind``
/// and ``Setting`` gain members, so a `switch` over them needs a `default`.
/// See <doc:HandlingErrors>.
public struct SpeciesError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
    /// What a caller can do about an error. `catch` matches one as it
    /// matches a `URLError` code: `catch SpeciesError.ambiguousName { ... }`.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        /// Nothing matched: no such name, id or page.
        public static let nothingMatched = Kind(description: "nothing matched")
        /// A name matches several species partially: ``SpeciesError/candidates``.
        public static let ambiguousName = Kind(description: "ambiguous name")
        /// The question cannot be asked, or the client's configuration is
        /// not one it can work with: refused before any request.
        public static let badQuestion = Kind(description: "bad question")
        /// The answer is not SWAPI's, or breaks a rule of the client.
        public static let badAnswer = Kind(description: "bad answer")
        /// No service could answer, and nothing stood in.
        public static let unavailable = Kind(description: "unavailable")
        /// The task that asked was cancelled before an answer came.
        public static let cancelled = Kind(description: "cancelled")

        /// `nothing matched`.
        public let description: String
    }

    /// What changes the outcome: a property of the client's configuration,
    /// or the certificates the system trusts.
    public struct Setting: Hashable, Sendable, CustomStringConvertible {
        /// ``SpeciesClient/Configuration/timeout``.
        public static let timeout = Setting(description: "timeout")
        /// ``SpeciesClient/Configuration/retries``.
        public static let retries = Setting(description: "retries")
        /// ``SpeciesClient/Configuration/maxResponseSize``.
        public static let maxResponseSize = Setting(description: "maxResponseSize")
        /// ``SpeciesClient/Configuration/attemptDelay``.
        public static let attemptDelay = Setting(description: "attemptDelay")
        /// ``CachePolicy/maxAge``.
        public static let maxAge = Setting(description: "cache.maxAge")
        /// ``CachePolicy/memoryLifetime``.
        public static let memoryLifetime = Setting(description: "cache.memoryLifetime")
        /// ``CachePolicy/mode``: offline, the cache alone answers.
        public static let cacheMode = Setting(description: "cache.mode")
        /// The certificate authorities trusted for HTTPS.
        public static let certificates = Setting(description: "certificates")
        /// ``SpeciesClient/Configuration/roots``.
        public static let roots = Setting(description: "roots")
        /// ``CachePolicy/directory``.
        public static let cacheDirectory = Setting(description: "cache.directory")

        /// The property's path in ``SpeciesClient/Configuration``: `timeout`.
        public let description: String
    }

    let fault: Fault

    init(_ fault: Fault) { self.fault = fault }

    /// An error of your own making, as a test double of a client throws
    /// one: every property as given.
    public init(
        _ kind: Kind, _ description: String, url: URL? = nil, setting: Setting? = nil, httpStatus: Int? = nil,
        retryAfter: Double? = nil, urlErrorCode: URLError.Code? = nil, candidates: [String] = [],
        suggestions: [String] = []
    ) {
        fault = .made(
            Fault.Facts(
                sentence: description, kind: kind, setting: setting, url: url, httpStatus: httpStatus,
                retryAfter: retryAfter, urlErrorCode: urlErrorCode, candidates: candidates, suggestions: suggestions))
    }

    /// What a caller can do about it.
    public var kind: Kind { fault.facts.kind }
    /// The URL concerned, when one is: the request that failed, or the page
    /// that broke a rule.
    public var url: URL? { fault.facts.url }
    /// The setting that changes the outcome, when one does.
    public var setting: Setting? { fault.facts.setting }
    /// The sentence: `species 99 does not exist (https://swapi.dev/api/species/99/ answered 404 Not Found)`.
    public var description: String { fault.facts.sentence }
    /// The names a name matches (kind ``Kind/ambiguousName``), in API order;
    /// empty otherwise.
    public var candidates: [String] { fault.facts.candidates }
    /// The names closest to a name that matched none (kind
    /// ``Kind/nothingMatched``), closest first, at most three; empty
    /// otherwise, or when none is close.
    public var suggestions: [String] { fault.facts.suggestions }
    /// The HTTP status of the service's answer that failed, when one did
    /// (of several services, the last one's that answered with one).
    public var httpStatus: Int? { fault.facts.httpStatus }
    /// Seconds the service asked to wait (`Retry-After`), when it asked:
    /// a wait longer than the timeout left, or one asked after the last
    /// retry (with `retries: 0`, after the first answer).
    public var retryAfter: Double? { fault.facts.retryAfter }
    /// The transport's `URLError` code where the network failed
    /// (``TransportError/urlErrorCode``): `.notConnectedToInternet` is the
    /// device offline, `.cannotConnectToHost` or `.cannotFindHost` the
    /// service down or gone, `.timedOut` too slow; of several services, the
    /// last one's that failed so. Nil when the network did not fail.
    public var urlErrorCode: URLError.Code? { fault.facts.urlErrorCode }
    /// The sentence of ``description``.
    public var errorDescription: String? { description }
    /// Why it failed, by its kind.
    public var failureReason: String? { Self.reasons[kind] }
    /// What to do about it, by its kind and what it carries.
    public var recoverySuggestion: String? { fault.recovery }

    /// Equal errors have one description.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        hasher.combine(description)
    }

    private static let reasons: [Kind: String] = [
        .nothingMatched: "Nothing matches the question: no species has that name, id or URL, or there is no such page.",
        .ambiguousName: "The name matches several species partially.",
        .badQuestion: "The question, or the client's configuration, cannot be asked; no request was sent.",
        .badAnswer:
            "A service's answer is not SWAPI JSON, or breaks a rule of the client (a link off its origin, a size limit, a listing that is not whole).",
        .unavailable:
            "No service could answer (unreachable, too slow, an HTTP error, not SWAPI), and nothing could stand in.",
        .cancelled: "The task that asked was cancelled before an answer came.",
    ]
}

extension SpeciesError: CustomNSError {
    /// `SpeciesKit.SpeciesError`.
    public static var errorDomain: String { "SpeciesKit.SpeciesError" }

    /// One code for each kind, as an `NSError` shows it: 1 nothing
    /// matched, 2 ambiguous name, 3 bad question, 4 bad answer, 5
    /// unavailable, 6 cancelled; a kind added later gets the next.
    public var errorCode: Int { Self.codes[kind] ?? 0 }

    /// The sentence, as `NSLocalizedDescriptionKey`, and the transport's
    /// `URLError` as `NSUnderlyingErrorKey`, when the network failed.
    public var errorUserInfo: [String: Any] {
        var info: [String: Any] = [NSLocalizedDescriptionKey: description]
        if let code = urlErrorCode { info[NSUnderlyingErrorKey] = URLError(code) }
        return info
    }

    private static let codes: [Kind: Int] = [
        .nothingMatched: 1, .ambiguousName: 2, .badQuestion: 3, .badAnswer: 4, .unavailable: 5, .cancelled: 6,
    ]
}

extension SpeciesError.Kind {
    /// Whether `error` is a ``SpeciesError`` of this kind: what lets
    /// `catch SpeciesError.nothingMatched` and `case SpeciesError.badAnswer`
    /// match.
    public static func ~= (kind: Self, error: any Error) -> Bool { (error as? SpeciesError)?.kind == kind }
}

extension SpeciesError {
    /// ``Kind/nothingMatched``, for `catch SpeciesError.nothingMatched`.
    public static let nothingMatched = Kind.nothingMatched
    /// ``Kind/ambiguousName``, for `catch SpeciesError.ambiguousName`.
    public static let ambiguousName = Kind.ambiguousName
    /// ``Kind/badQuestion``, for `catch SpeciesError.badQuestion`.
    public static let badQuestion = Kind.badQuestion
    /// ``Kind/badAnswer``, for `catch SpeciesError.badAnswer`.
    public static let badAnswer = Kind.badAnswer
    /// ``Kind/unavailable``, for `catch SpeciesError.unavailable`.
    public static let unavailable = Kind.unavailable
    /// ``Kind/cancelled``, for `catch SpeciesError.cancelled`.
    public static let cancelled = Kind.cancelled
}

/// Why the client could not give the answer asked for, in detail: what a
/// ``SpeciesError`` holds. Internal, so that it can grow.
enum Fault: Error, Sendable, Equatable {
    /// No species has this name; `suggestions` are the closest names.
    case noSuchName(String, suggestions: [String])
    /// Several species match this name partially.
    case ambiguousName(String, matches: [String])
    /// The API answered 404 for the thing asked for.
    case notFound(what: String, url: URL)
    /// The SWAPI data built in holds no such thing.
    case notInBundledData(what: String)
    /// A listing has fewer pages than the one asked for.
    case noSuchPage(Int, pages: Int, search: String?)
    /// The question, or the setting, cannot be asked, as the sentence says.
    case badQuestion(String, setting: SpeciesError.Setting?)
    /// No HTTP answer: refused, unknown host, timed out, dropped.
    case unreachable(TransportError)
    /// Offline, and the cache holds no answer.
    case notCached(url: URL)
    /// Offline, and no cache of these services holds an answer, or, when
    /// `cacheOff`, there is no cache to ask.
    case nothingCached(String, asked: String, cacheOff: Bool)
    /// An HTTP error status that is not an answer: an error of the
    /// service, or a 404 from a service whose species list is not SWAPI's.
    case httpStatus(Int, url: URL, retryAfter: Double? = nil)
    /// The service answers, but not as SWAPI does: its species list
    /// answered `status` (404), or it asked for credentials (401, 403); nil,
    /// its species list is empty.
    case notSWAPI(url: URL, status: Int?)
    /// The server asks to wait `retryAfter` seconds, longer than the
    /// `secondsLeft` of the timeout, at the date `at`.
    case rateLimited(url: URL, status: Int, retryAfter: Double, secondsLeft: Double, at: Date)
    /// The answer is not SWAPI JSON, as the problem says.
    case invalidResponse(url: URL, ResponseProblem)
    /// A listing that is not whole: the page at `url` breaks a rule of the
    /// reader, as the fault says.
    case incomplete(url: URL, ListingFault)
    /// The page at `url` links on with a `next` link that is not followed.
    case badLink(url: URL, link: String, LinkFault)
    /// The answer passes a limit of the client, as the excess says.
    case tooLarge(url: URL, Excess)
    /// The API sends the client elsewhere: to `location`, off its origin,
    /// as a captive portal does; nil, round and round, more than ten times.
    case redirected(url: URL, location: String?)
    /// A URL that is not a species of the client's services; `expected`
    /// shows the form of one.
    case notASpeciesURL(String, of: APIRoot)
    /// None of the services of a list answered, and nothing stood in for
    /// them (or the client was told not to let anything stand in).
    case noServiceAnswered([ServiceFailure])
    /// The API could not answer, and nothing stood in for it: the cache
    /// had no answer, and the built-in data is SWAPI's, not this host's.
    indirect case unanswered(Fault, host: String)
    /// The timeout of `seconds` ran out before these services were asked:
    /// while the answer `waited` that long for another run that asked them
    /// the same, or, nil, at once.
    case outOfTime(String, asked: String, seconds: Double, waited: Double?)
    /// The task that asked was cancelled before an answer came.
    case cancelled
    /// One made by a caller.
    case made(Facts)

    /// What a caller can do about it.
    var kind: SpeciesError.Kind { facts.kind }

    /// An answer to the question, that there is nothing (no such name,
    /// page or id, or several): no other source is asked.
    /// A question the service itself refuses (`DetailReader`) is its answer.
    var isAnswer: Bool { kind == .nothingMatched || kind == .ambiguousName || kind == .badQuestion }

    /// What to do about it.
    var recovery: String {
        let facts = self.facts
        switch kind {
        case .nothingMatched where !facts.suggestions.isEmpty:
            return "Did you mean \(Phrase.alternatives(facts.suggestions.map { "'\($0)'" }))?"
        case .nothingMatched: return "Check the spelling, the id or the page; allSpecies() lists every species."
        case .ambiguousName: return "Give one full name: \(Phrase.alternatives(facts.candidates.map { "'\($0)'" }))."
        case .badQuestion:
            return
                "Change the argument, or the configuration's \(facts.setting?.description ?? "setting"), as the description says."
        case .badAnswer:
            return
                "Ask another service (Configuration.roots); with Configuration.fallback, the cache or the SWAPI data built in stands in."
        case .cancelled: return "Ask again, from a task that is not cancelled."
        default: break
        }
        if let retryAfter = facts.retryAfter {
            return "Ask again after \(TimeSpan.describe(retryAfter)), as the service asks."
        }
        switch facts.setting {
        case .timeout?: return "Allow more time (Configuration.timeout), or ask again later."
        case .certificates?: return "Trust the service's certificate authority (SSL_CERT_FILE, or SSL_CERT_DIR)."
        case .cacheMode?: return "Go online (CachePolicy.mode), or ask once online to fill the cache."
        default:
            return
                "Check the network, or ask again later; with Configuration.fallback, the cache or the SWAPI data built in stands in."
        }
    }

    /// Each case's sentence, what a caller can do, why the API did not
    /// answer (for the notice that says what stood in), the setting behind
    /// it, and what an app acts on (the URL, the HTTP status, the URLError
    /// code, the names): every way of describing an error, in one place.
    var facts: Facts {
        switch self {
        case .noSuchName(let name, let suggestions):
            return Facts(
                sentence: "no species is named '\(Excerpt.of(name))'" + EditDistance.didYouMean(suggestions),
                suggestions: suggestions)
        case .ambiguousName(let name, let matches):
            return Facts(
                sentence:
                    "'\(Excerpt.of(name))' matches \(matches.count) species: \(matches.joined(separator: ", ")); give one full name",
                kind: .ambiguousName, candidates: matches)
        case .notFound(let what, let url):
            return Facts(sentence: "\(what) does not exist (\(url.redacted) answered 404 Not Found)", url: url)
        case .notInBundledData(let what): return Facts(sentence: "\(what) does not exist in the SWAPI data built in")
        case .noSuchPage(let number, let pages, let search):
            return Facts(
                sentence:
                    "page \(number)\(search == nil ? "" : " of the species" + Phrase.matching(search)) does not exist; "
                    + "there \(pages == 1 ? "is 1 page" : "are \(pages) pages")")
        case .badQuestion(let sentence, let setting):
            return Facts(sentence: sentence, kind: .badQuestion, setting: setting)
        case .unreachable(let error):
            let timedOut = error.kind == .timedOut
            // OpenSSL's words for an issuer that no trusted CA vouches for.
            let issuer = error.kind == .insecureConnection && error.detail.contains("local issuer certificate")
            return Facts(
                sentence: timedOut
                    ? "\(error.url.redacted) timed out: \(error.detail)"
                    : "could not reach \(error.url.redacted): \(error.detail)", kind: .unavailable, cause: error.detail,
                setting: timedOut ? .timeout : issuer ? .certificates : nil, url: error.url,
                urlErrorCode: error.urlErrorCode)
        case .notCached(let url):
            return Facts(
                sentence: "\(url.redacted) is not in the cache, and the client is offline", kind: .unavailable,
                setting: .cacheMode, url: url)
        case .nothingCached(let services, let asked, let cacheOff):
            return Facts(
                sentence: cacheOff
                    ? "the client is offline with no cache, so nothing can answer for \(services)"
                    : "nothing is cached from \(services) for \(asked), and the client is offline", kind: .unavailable,
                setting: .cacheMode)
        case .httpStatus(let status, let url, let retryAfter):
            let sentence =
                switch status {
                case 304: "\(url.redacted) answered 304 Not Modified to a request that asked for no revalidation"
                case 300..<400:
                    "\(url.redacted) answered HTTP \(status) \(HTTPStatusText.reason(status)) without a Location to follow"
                default: "\(url.redacted) answered HTTP \(status) \(HTTPStatusText.reason(status))"
                }
            return Facts(
                sentence: sentence, kind: .unavailable, cause: "HTTP \(status) \(HTTPStatusText.reason(status))",
                url: url, httpStatus: status, retryAfter: retryAfter)
        case .notSWAPI(let url, let status):
            let problem =
                switch status {
                case nil: "its species list is empty"
                case 404?: "its species list answered HTTP 404 Not Found"
                case let status?: "it answered HTTP \(status) \(HTTPStatusText.reason(status))"
                }
            return Facts(
                sentence: "\(url.redacted) does not answer as SWAPI does: \(problem)", kind: .unavailable,
                cause: problem, url: url, httpStatus: status)
        case .rateLimited(let url, let status, let retryAfter, let secondsLeft, let now):
            var text =
                "\(url.redacted) answered HTTP \(status) \(HTTPStatusText.reason(status)) and asks to wait \(TimeSpan.describe(retryAfter)); "
                + "\(TimeSpan.tenths(secondsLeft)) of the timeout are left"
            // A date past year 9999 would not read as one.
            if retryAfter < 200 * 365 * 86400 {
                text += "; try again after \(Timestamp(now.addingTimeInterval(retryAfter)).forPeople)"
            }
            return Facts(
                sentence: text, kind: .unavailable, cause: "HTTP \(status) \(HTTPStatusText.reason(status))",
                setting: .timeout, url: url, httpStatus: status, retryAfter: retryAfter)
        case .invalidResponse(let url, let problem):
            return Facts(
                sentence: "\(url.redacted) did not answer with SWAPI JSON: \(problem.sentence)", kind: .badAnswer,
                cause: "its answer is not SWAPI JSON", url: url)
        case .incomplete(let url, let fault):
            return Facts(sentence: "\(url.redacted) \(fault.sentence)", kind: .badAnswer, url: url)
        case .badLink(let url, let link, let fault):
            return Facts(
                sentence: "\(url.redacted): its 'next' link '\(Excerpt.of(link))' \(fault.sentence)", kind: .badAnswer,
                url: url)
        case .tooLarge(let url, let excess):
            return Facts(
                sentence: "\(url.redacted): \(excess.sentence)", kind: .badAnswer, setting: excess.setting, url: url)
        case .redirected(let url, let location):
            let problem =
                location.map { "it redirects to another origin (\($0)); not followed" }
                ?? "it redirects more than 10 times"
            return Facts(sentence: "\(url.redacted): \(problem)", kind: .badAnswer, cause: problem, url: url)
        case .notASpeciesURL(let text, let root):
            let expected = root.url.withoutCredentials.absoluteString + "species/<id>/"
            return Facts(
                sentence: "'\(Excerpt.of(text))' is not a species URL of this API (expected \(expected))",
                kind: .badQuestion)
        case .noServiceAnswered(let failures):
            let facts = failures.map(\.error.facts)
            return Facts(
                sentence: Self.describe(failures), kind: .unavailable,
                httpStatus: facts.last { $0.httpStatus != nil }?.httpStatus,
                retryAfter: facts.last { $0.retryAfter != nil }?.retryAfter,
                urlErrorCode: facts.last { $0.urlErrorCode != nil }?.urlErrorCode)
        case .unanswered(let fault, let host):
            var facts = fault.facts
            let cause = "the cache holds no answer from \(host)"
            (facts.sentence, facts.cause) = (facts.sentence + "; " + cause, cause)
            return facts
        case .outOfTime(let services, let asked, let seconds, let waited):
            return Facts(
                sentence: waited == nil
                    ? "the \(TimeSpan.exactly(seconds)) timeout left no time to ask \(services) for \(asked)"
                    : "the \(TimeSpan.exactly(seconds)) timeout ran out while another run asked \(services) the same",
                kind: .unavailable, setting: .timeout)
        case .cancelled: return Facts(sentence: "cancelled before an answer came", kind: .cancelled)
        case .made(let facts): return facts
        }
    }

    /// What ``SpeciesError`` shows of a fault, and what a notice says of it.
    struct Facts: Sendable, Equatable {
        var sentence: String
        var kind = SpeciesError.Kind.nothingMatched
        /// Nil: the sentence says it.
        var cause: String?
        var setting: SpeciesError.Setting?
        var url: URL?
        var httpStatus: Int?
        var retryAfter: Double?
        var urlErrorCode: URLError.Code?
        var candidates: [String] = []
        var suggestions: [String] = []
    }

    /// `swapi.dev did not answer (SSL certificate problem: certificate has
    /// expired); swapi.py4e.com and swapi.info did not answer (unknown
    /// host)`: the services in the order asked, grouped by what they did.
    /// One that failed part way `did not answer in full (HTTP 500 Internal
    /// Server Error, after 1 page, which is dropped)`.
    static func describe(_ failures: [ServiceFailure]) -> String {
        var groups: [(what: String, services: [String])] = []
        for failure in failures {
            let what =
                failure.dropped.isEmpty
                ? "did not answer (\(failure.error.cause))"
                : "did not answer in full (\(failure.error.cause), after \(failure.dropped))"
            if let index = groups.firstIndex(where: { $0.what == what }) {
                groups[index].services.append(failure.service)
            } else {
                groups.append((what, [failure.service]))
            }
        }
        return groups.map { Phrase.alternatives($0.services, conjunction: "and") + " " + $0.what }.joined(
            separator: "; ")
    }

    /// Why the API did not answer, in a few words, for the notice that
    /// says what stood in for it.
    var cause: String { facts.cause ?? facts.sentence }

}

/// Words the messages of the library and the command line share.
package enum Phrase {
    /// ` matching 'an'`, for messages about a search; nothing without one.
    package static func matching(_ search: String?) -> String { search.map { " matching '\(Excerpt.of($0))'" } ?? "" }

    /// `'A'`, `'A' or 'B'`, `'A', 'B' or 'C'` (or `and`).
    package static func alternatives(_ words: [String], conjunction: String = "or") -> String {
        guard let last = words.last, words.count > 1 else { return words.joined() }
        return words.dropLast().joined(separator: ", ") + " \(conjunction) " + last
    }
}

/// What in a body is not SWAPI JSON: what makes `Fault.invalidResponse`.
enum ResponseProblem: Sendable, Equatable {
    /// The body is not JSON; it begins with this text (empty: no body).
    case notJSON(begins: String)
    /// The JSON breaks off or breaks its syntax: it may be cut short.
    case malformed
    /// The value at `path` (`results`, `count`; empty for the whole body)
    /// is missing.
    case missing(path: String)
    /// The value at `path` (empty for the whole body) is not `expected`
    /// (`an array`, `a whole number from 0 up`).
    case wrongType(path: String, expected: String)
    /// swapi.tech's species came as names only, though asked in full.
    case namesOnly
    /// The answer is in one service's dialect where an answer before was in
    /// another's (`swapi.tech's`, `swapi.dev's`).
    case dialectChanged(to: String, from: String)
    /// The object has no name, or its URL names no species of the service.
    case notASpecies
    /// The object is not of the kind its link names (`person`).
    case notOfKind(String)

    var sentence: String {
        switch self {
        case .notJSON(let begins) where begins.isEmpty: "the body is empty"
        case .notJSON(let begins): "the body is not JSON (it begins \(begins))"
        case .malformed: "the body is not valid JSON (it may be cut short)"
        case .missing(let path): "'\(path)' is missing"
        case .wrongType(let path, let expected) where path.isEmpty: "the body is not \(expected)"
        case .wrongType(let path, let expected): "'\(path)' is not \(expected)"
        case .namesOnly: "its results are names only, though asked with expanded=true"
        case .dialectChanged(let to, let from): "it answers in \(to) dialect, where an answer before was in \(from)"
        case .notASpecies: "it is not a species of this service (an object with a name and its species URL)"
        case .notOfKind(let kind): "it is not a \(kind) (it bears the keys of another kind)"
        }
    }
}

/// A limit of the client that an answer passes: what makes `Fault.tooLarge`.
enum Excess: Sendable, Equatable {
    /// The body is larger than this many bytes.
    case bytes(Int)
    /// The body holds more JSON values than this (one for every 48 bytes
    /// of the size limit).
    case values(Int)
    /// The body holds more strings longer than 15 bytes than this (one for
    /// every 96 bytes of the size limit).
    case longStrings(Int)
    /// The headers run past 500 lines or 100 KiB.
    case headers
    /// The count makes more pages than this.
    case pages(Int)

    var sentence: String {
        switch self {
        case .bytes(let limit): "the response is larger than \(ByteCount.describe(limit))"
        case .values(let limit): "it holds more than \(limit) JSON values"
        case .longStrings(let limit): "it holds more than \(limit) strings longer than 15 bytes"
        case .headers: "the response has more than 500 header lines or 100 KiB of headers"
        case .pages(let limit): "it counts more species than \(limit) pages hold"
        }
    }

    var setting: SpeciesError.Setting? {
        switch self {
        case .bytes, .values, .longStrings: .maxResponseSize
        case .headers, .pages: nil
        }
    }
}

/// How a page of a listing does not add up with the others: what makes
/// `Fault.incomplete`. Every page carries page 1's count;
/// every page but the last holds as many species as page 1 and links to the
/// next; each species comes once, and matches the search.
enum ListingFault: Sendable, Equatable {
    /// The page counts this many species, where page 1 counted `from`.
    case countChanged(Int, from: Int)
    /// The page holds this many species, where its place in the listing
    /// makes `expected`.
    case pageLength(Int, expected: Int)
    /// The page has a `next` link (true) after the last of the `pages` its
    /// count makes, or none (false) before it.
    case nextLink(Bool, pages: Int)
    /// This species came on an earlier page too.
    case repeated(String)
    /// Another species of the listing bears this name too.
    case named(String)
    /// This species, in the answer to `search`, does not match it.
    case unmatched(String, search: String)
    /// This element (`results[3]`, or a species so named) is no species of
    /// the service: an object with a name and a URL that names one of its
    /// species.
    case notASpecies(String)
    /// The page exists past the last of the `pages` its count makes.
    case pastTheCount(pages: Int)
    /// The page answers 404, where the listing's count makes `pages`.
    case missing(pages: Int)
    /// The search answered without this name, which its listing holds.
    case missed(String)

    var sentence: String {
        switch self {
        case .countChanged(let count, let first):
            "is not whole: it counts \(count) species, where page 1 counted \(first)"
        case .pageLength(let count, let expected):
            "is not whole: it holds \(count) species, where its place in the listing takes \(expected)"
        case .nextLink(let present, let pages):
            "is not whole: it has \(present ? "a 'next' link after the last" : "no 'next' link before the last") of the \(pages) pages its count makes"
        case .repeated(let name): "is not whole: it holds \(name) again: the pages changed while they were read"
        case .named(let name): "is not whole: a second species is named \(name), where a listing names each once"
        case .unmatched(let name, let search):
            "does not answer the search '\(Excerpt.of(search))': \(name) does not match it"
        case .notASpecies(let element):
            "is not whole: \(element) is not a species of this service (an object of a species' kind, with a name and its species URL)"
        case .pastTheCount(let pages):
            "is not whole: it is a page past the last of the \(pages) its count makes, so the count is wrong"
        case .missing(let pages): "is not whole: it answers 404, where the count makes \(pages) pages"
        case .missed(let name):
            "does not answer the search '\(Excerpt.of(name))': it answered nothing, where the listing holds it"
        }
    }
}

/// Why a `next` link is not followed: what makes `Fault.badLink`.
enum LinkFault: Sendable, Equatable {
    /// It is not an http(s) URL.
    case notHTTP
    /// It leads off the origin of the service, as the text names it.
    case leavesOrigin(String)
    /// It leads to a page read already.
    case loops
    /// It leads past the next page, or to another listing.
    case skips
    /// It answers 404 Not Found.
    case notFound

    var sentence: String {
        switch self {
        case .notHTTP: "is not an http(s) URL; not followed"
        case .leavesOrigin(let origin): "leaves \(origin); not followed"
        case .loops: "leads back to a page already read; not followed"
        case .skips: "does not lead to the next page; not followed"
        case .notFound: "answered 404 Not Found"
        }
    }
}

/// A service of a list that did not answer, and why: what
/// `Fault.noServiceAnswered` lists.
struct ServiceFailure: Sendable, Equatable {
    /// Its name in messages: `swapi.dev`.
    var service: String
    /// Why it did not answer.
    var error: Fault
    /// What it had sent before it failed, and was dropped: `1 page, which
    /// is dropped`; empty when it sent nothing.
    var dropped: String
    /// Anything came from it: a response, or a failure that is not silence.
    var heard: Bool
    /// Its cache answered part of it.
    var cached: Bool
    /// Seconds from when it was asked to its failure, when nothing was heard.
    var quiet: Double

    /// A failure of `service`, having sent what `dropped` says; `heard`,
    /// when anything came from it, else `quiet` seconds of silence;
    /// `cached`, when its cache answered part.
    init(
        service: String, error: Fault, dropped: String = "", heard: Bool = true, cached: Bool = false, quiet: Double = 0
    ) {
        (self.service, self.error, self.dropped, self.heard, self.cached) = (service, error, dropped, heard, cached)
        self.quiet = heard ? 0 : quiet
    }
}

extension Fault {
    /// Whether the failure is silence: no address, no connection, or no
    /// response begun before the request's time ran out.
    var isSilence: Bool {
        guard case .unreachable(let error) = self, !error.responseBegan else { return false }
        return [.unknownHost, .connectionRefused, .timedOut].contains(error.kind)
    }

    /// What a transport's failure means for the answer.
    init(_ error: TransportError) {
        switch error.kind {
        case .tooLarge: self = .tooLarge(url: error.url, .bytes(error.limit ?? 0))
        case .tooManyHeaders: self = .tooLarge(url: error.url, .headers)
        case .redirectRefused: self = .redirected(url: error.url, location: error.location)
        default: self = .unreachable(error)
        }
    }
}

/// The reason phrases of RFC 9110 for the statuses SWAPI's services send.
enum HTTPStatusText {
    private static let phrases = [
        200: "OK", 301: "Moved Permanently", 302: "Found", 304: "Not Modified", 307: "Temporary Redirect",
        308: "Permanent Redirect", 400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found",
        408: "Request Timeout", 410: "Gone", 429: "Too Many Requests", 500: "Internal Server Error", 502: "Bad Gateway",
        503: "Service Unavailable", 504: "Gateway Timeout",
    ]
    private static let classes = [2: "(a success)", 3: "(a redirect)", 4: "(a client error)", 5: "(a server error)"]

    static func reason(_ status: Int) -> String {
        phrases[status] ?? (status >= 200 && status < 600 ? classes[status / 100] : nil) ?? "(not an HTTP status)"
    }
}

extension Fault: CustomStringConvertible {
    /// The sentence, as ``SpeciesError/description`` says it.
    var description: String { facts.sentence }
    /// The setting behind it, if one is.
    var setting: SpeciesError.Setting? { facts.setting }
}
