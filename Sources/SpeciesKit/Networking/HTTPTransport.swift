import Foundation

/// A GET request: all this client ever sends.
public struct HTTPRequest: Sendable, Equatable {
    public var url: URL
    public var headers: [String: String]
    /// How fast the response must come; nil for no such bound. A service of
    /// a list that others follow gives way when it is slower.
    public var minimumPace: MinimumPace?

    public init(url: URL, headers: [String: String] = [:], minimumPace: MinimumPace? = nil) {
        self.url = url
        self.headers = headers
        self.minimumPace = minimumPace
    }
}

/// The pace below which a response gives way: it must begin (its status
/// line and headers) within `firstByte` seconds, and then never bring fewer
/// than `bytesPerSecond` over `window` seconds, as curl's `--speed-limit`
/// and `--speed-time` ask.
public struct MinimumPace: Sendable, Equatable {
    /// What a service of a list that others follow must keep up.
    public static let followed = MinimumPace(firstByte: 3, bytesPerSecond: 1024, window: 3)

    public var firstByte: Double
    public var bytesPerSecond: Int
    public var window: Double

    public init(firstByte: Double, bytesPerSecond: Int, window: Double) {
        self.firstByte = firstByte
        self.bytesPerSecond = bytesPerSecond
        self.window = window
    }
}

public struct HTTPResponse: Sendable, Equatable {
    public var status: Int
    /// Header names are lowercased.
    public var headers: [String: String]
    public var body: Data

    public init(status: Int, headers: [String: String] = [:], body: Data) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { $1 })
        self.body = body
    }

    public func header(_ name: String) -> String? {
        headers[name.lowercased()]
    }
}

/// The seam between the client and the network, in the manner of
/// swift-openapi-runtime's `ClientTransport`: URLSession in the tool
/// (`URLSessionTransport`), stubs in tests. An HTTP error status is a
/// response, not a thrown error; a transport throws only `TransportError`.
public protocol HTTPTransport: Sendable {
    func send(_ request: HTTPRequest) async throws -> HTTPResponse
}

/// Why no usable HTTP response arrived.
public struct TransportError: Error, Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// Refused, or no route to the host.
        case connectionRefused
        case unknownHost
        /// No complete answer before the deadline.
        case timedOut(seconds: Double)
        /// The connection broke before a complete answer.
        case connectionLost
        /// The TLS handshake failed or the certificate is not trusted.
        case insecureConnection
        case cancelled
        /// The body grew past the limit; the transfer was stopped there.
        case tooLarge(limit: Int)
        /// The header block passed its limits; the transfer was stopped there.
        case tooManyHeaders
        /// A redirect to another origin, or with no usable Location.
        case redirectRefused(location: String)
        /// The server asks to wait longer than the client is willing to.
        case throttled(status: Int, retryAfter: Double)
        case other
    }

    public var kind: Kind
    public var url: URL
    /// What happened, in words for the user.
    public var detail: String

    public init(_ kind: Kind, url: URL, detail: String) {
        self.kind = kind
        self.url = url
        self.detail = detail
    }

    /// The SWAPI server could not give an answer: something between here
    /// and there failed, not a rule of this client.
    var meansUnreachable: Bool {
        switch kind {
        case .connectionRefused, .unknownHost, .timedOut, .connectionLost, .insecureConnection, .throttled, .other: true
        case .cancelled, .tooLarge, .tooManyHeaders, .redirectRefused: false
        }
    }
}
