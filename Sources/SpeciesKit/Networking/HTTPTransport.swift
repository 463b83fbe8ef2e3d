import Foundation

/// A GET request: all this client ever sends.
public struct HTTPRequest: Sendable, Equatable, Codable {
    public var url: URL
    public var headers: [String: String]

    public init(url: URL, headers: [String: String] = [:]) {
        self.url = url
        self.headers = headers
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

/// The seam between the client and the network: URLSession in the tool,
/// stubs in tests. An HTTP error status is a response, not a thrown error;
/// a transport throws only a `TransportError`.
public protocol HTTPTransport: Sendable {
    func send(_ request: HTTPRequest) async throws -> HTTPResponse
}

/// Why no usable HTTP response arrived.
public struct TransportError: Error, Sendable, Equatable, Codable {
    public enum Kind: Sendable, Equatable, Codable {
        case connectionRefused
        case unknownHost
        /// No complete answer before the deadline.
        case timedOut(seconds: Double)
        /// The connection broke before a complete answer.
        case connectionLost
        case insecureConnection
        case cancelled
        /// The body grew past the limit; the transfer was stopped there.
        case tooLarge(limit: Int)
        /// A redirect to another host, or from https to http.
        case redirectRefused(location: String)
        /// The server asks to wait longer than the client is willing to.
        case throttled(status: Int, retryAfter: Double)
        /// Not in the cache or the snapshot, and the network is off limits.
        case offline
        case other
    }

    public var kind: Kind
    public var url: URL
    public var detail: String

    public init(_ kind: Kind, url: URL, detail: String) {
        self.kind = kind
        self.url = url
        self.detail = detail
    }
}
