import Foundation

/// A GET request: all this client ever sends.
public struct HTTPRequest: Sendable {
    /// The URL asked for.
    public var url: URL
    /// Headers to send, such as `If-None-Match`.
    public var headers: [String: String]
    /// What the request may take: its deadline, its pace and its retries.
    public var limits: RequestLimits
    /// Told the first bytes of a success's body as they come, where the
    /// transport can (`URLSessionTransport`): a listing stops the pages it
    /// will not need (`ListingReader.comesAlone`).
    var firstBytes: (@Sendable (Data) -> Void)?

    /// A GET of `url`, within `limits`.
    public init(url: URL, headers: [String: String] = [:], limits: RequestLimits) {
        self.url = url
        self.headers = headers
        self.limits = limits
    }
}

/// What a request may take: the client decides it for each service it
/// asks, and a transport keeps to it. Time has two limits: the deadline,
/// which every request has, and a minimum pace, which only a service that
/// others follow has.
public struct RequestLimits: Sendable {
    /// When the request, its retries and their waits must have ended.
    public var deadline: Deadline
    /// How fast the response must come, the second limit; nil for none. A
    /// service of a list that others follow gives way when it is slower.
    public var minimumPace: MinimumPace?
    /// Retries of HTTP 429, 500, 502, 503, 504 and dropped connections.
    public var retries: Int

    /// Limits of a request.
    public init(deadline: Deadline, minimumPace: MinimumPace? = nil, retries: Int = 0) {
        self.deadline = deadline
        self.minimumPace = minimumPace
        self.retries = retries
    }
}

/// The pace below which a response gives way: it must begin (its status
/// line and headers) within `firstByte` seconds, and then never bring fewer
/// than `bytesPerSecond` over `window` seconds, as curl's `--speed-limit`
/// and `--speed-time` ask.
public struct MinimumPace: Sendable, Equatable {
    /// What a service of a list that others follow must keep up at the
    /// default timeout; the client gives each a fifth of its
    /// ``SpeciesClient/Configuration/timeout`` when that is longer.
    public static let followed = TimeLimits(timeout: SpeciesClient.Configuration.defaultTimeout).pace

    /// Seconds within which the response must begin.
    public var firstByte: Double
    /// Bytes a second, over `window`, below which the response gives way.
    public var bytesPerSecond: Int
    /// Seconds over which the pace is measured.
    public var window: Double

    /// A pace to keep, or give way.
    public init(firstByte: Double, bytesPerSecond: Int, window: Double) {
        self.firstByte = firstByte
        self.bytesPerSecond = bytesPerSecond
        self.window = window
    }

    /// Looks at a response as it comes, and says when it falls below the
    /// pace, looked at every `TimeLimits.paceLook`. Times are seconds on
    /// the request's clock.
    struct Meter {
        let pace: MinimumPace
        let start: Double
        /// The body's length at each look since the response began, over the last window.
        private var samples: [(time: Double, bytes: Int)] = []

        init(_ pace: MinimumPace, start: Double) {
            self.pace = pace
            self.start = start
        }

        /// Why the response is too slow at `time`, having `begun` (its
        /// headers are in) and brought `bytes` of its body; nil while it
        /// keeps the pace.
        mutating func shortfall(at time: Double, begun: Bool, bytes: Int) -> String? {
            guard begun else {
                return time - start < pace.firstByte
                    ? nil : "no answer began within \(TimeSpan.exactly(pace.firstByte))"
            }
            samples.append((time, bytes))
            guard let first = samples.first, time - first.time >= pace.window else { return nil }
            samples.removeFirst()
            guard Double(bytes - first.bytes) < Double(pace.bytesPerSecond) * pace.window else { return nil }
            return
                "its answer came at less than \(ByteCount.describe(pace.bytesPerSecond))/s for \(TimeSpan.exactly(pace.window))"
        }
    }
}

/// An HTTP response, whatever its status.
public struct HTTPResponse: Sendable, Equatable {
    /// The HTTP status: `200`, `404`.
    public var status: Int
    /// Header names are lowercased.
    public var headers: [String: String]
    /// The body, decompressed.
    public var body: Data

    /// A response; header names are lowercased.
    public init(status: Int, headers: [String: String] = [:], body: Data) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { $1 })
        self.body = body
    }

    /// The header `name`, in any case.
    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// The seam between the client and the network, in the manner of
/// swift-openapi-runtime's `ClientTransport`: ``URLSessionTransport`` by
/// default, a stub of your own in tests. An HTTP error status is a
/// response, not a thrown error; a transport throws only `TransportError`.
/// It ends a request by its `limits.deadline`, and, with a
/// `limits.minimumPace`, as soon as the response falls below that pace,
/// with ``TransportError/Kind/timedOut``.
public protocol HTTPTransport: Sendable {
    /// The response to `request`, whatever its status; a `TransportError`
    /// when none came by the request's deadline or pace.
    func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse
}

/// Why no usable HTTP response arrived. It can grow: ``Kind`` gains
/// members, and what a kind carries is a property of its own, nil for the
/// others (``seconds``, ``limit``, ``location``).
///
/// A transport of your own throws one, for a failure such as a timeout:
///
/// ```swift
/// throw TransportError(.timedOut, url: request.url, detail: "no answer in 15 s", seconds: 15)
/// ```
public struct TransportError: Error, Sendable, Hashable {
    /// What went wrong, as far as a caller acts on it; compare it with
    /// `==`, or match it in a `switch` (with a `default`).
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        /// Refused, or no route to the host.
        public static let connectionRefused = Kind(description: "connection refused")
        /// The host name has no address.
        public static let unknownHost = Kind(description: "unknown host")
        /// No complete answer before the deadline, or below the pace:
        /// ``TransportError/seconds`` says how long the limit was.
        public static let timedOut = Kind(description: "timed out")
        /// The connection broke before a complete answer.
        public static let connectionLost = Kind(description: "connection lost")
        /// The TLS handshake failed or the certificate is not trusted.
        public static let insecureConnection = Kind(description: "insecure connection")
        /// The task that sent it was cancelled.
        public static let cancelled = Kind(description: "cancelled")
        /// The body grew past ``TransportError/limit``; the transfer was
        /// stopped there.
        public static let tooLarge = Kind(description: "too large")
        /// The header block passed its limits; the transfer was stopped there.
        public static let tooManyHeaders = Kind(description: "too many headers")
        /// A redirect to another origin, at ``TransportError/location``;
        /// nil there: more than ten redirects in a row.
        public static let redirectRefused = Kind(description: "redirect refused")
        /// Anything else, as ``TransportError/detail`` says.
        public static let other = Kind(description: "other")

        /// `timed out`.
        public let description: String

        /// The `URLError` code that stands for the kind: nil for a failure
        /// no `URLError` names (a body too large, too many headers, other).
        var urlErrorCode: URLError.Code? {
            switch self {
            case .connectionRefused: .cannotConnectToHost
            case .unknownHost: .cannotFindHost
            case .timedOut: .timedOut
            case .connectionLost: .networkConnectionLost
            case .insecureConnection: .secureConnectionFailed
            case .cancelled: .cancelled
            case .redirectRefused: .httpTooManyRedirects
            default: nil
            }
        }
    }

    /// What went wrong.
    public var kind: Kind
    /// The URL of the request.
    public var url: URL
    /// What happened, in words for the user.
    public var detail: String
    /// Whether the response had begun (its status line and headers had
    /// come) when the request failed: a failure before it, such as no
    /// first byte in time, is no sign of life from the server.
    public var responseBegan: Bool
    /// With ``Kind/timedOut``: the seconds of the limit that ran out.
    public var seconds: Double?
    /// With ``Kind/tooLarge``: the limit the body passed, in bytes.
    public var limit: Int?
    /// With ``Kind/redirectRefused``: where the redirect led.
    public var location: String?
    /// The code of the `URLError` the request failed with: the system's
    /// own, so that an app tells "offline" (`.notConnectedToInternet`) from
    /// "down" (`.cannotConnectToHost`); when the transport gave none, the
    /// code of its kind (`.timedOut` for ``Kind/timedOut``).
    public var urlErrorCode: URLError.Code? {
        get { code ?? kind.urlErrorCode }
        set { code = newValue }
    }
    private var code: URLError.Code?

    /// A failure of the request for `url`, its response begun or not, with
    /// what its kind carries.
    public init(
        _ kind: Kind, url: URL, detail: String, responseBegan: Bool = false, seconds: Double? = nil, limit: Int? = nil,
        location: String? = nil, urlErrorCode: URLError.Code? = nil
    ) {
        (self.kind, self.url, self.detail, self.responseBegan) = (kind, url, detail, responseBegan)
        (self.seconds, self.limit, self.location, code) = (seconds, limit, location, urlErrorCode)
    }
}
