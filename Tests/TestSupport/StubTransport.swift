import Foundation
import SpeciesKit
import Synchronization

/// An `HTTPTransport` that answers from a table and records what it was asked.
public final class StubTransport: HTTPTransport {
    public enum Reply: Sendable {
        case response(HTTPResponse)
        case failure(TransportError.Kind)

        public static func json(_ body: Data, status: Int = 200) -> Reply {
            .response(HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: body))
        }
    }

    private let replies: [String: Reply]
    private let log = Mutex<[URL]>([])

    /// Unknown URLs answer SWAPI's 404.
    public init(_ replies: [String: Reply]) {
        self.replies = replies
    }

    /// Every recorded SWAPI response at its recorded `https://swapi.dev/api/`
    /// URL, plus the bare species endpoint as page 1, merged with `overrides`.
    public static func recordedSWAPI(overrides: [String: Reply] = [:]) throws -> StubTransport {
        var replies = try Fixtures.recordedResponses().mapValues { Reply.json($0.body, status: $0.status) }
        replies["https://swapi.dev/api/species/"] = replies["https://swapi.dev/api/species/?page=1"]
        replies.merge(overrides) { $1 }
        return StubTransport(replies)
    }

    /// The URLs requested so far, in order.
    public var requests: [URL] {
        log.withLock { $0 }
    }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        log.withLock { $0.append(request.url) }
        switch replies[request.url.absoluteString] {
        case .response(let response)?:
            return response
        case .failure(let kind)?:
            throw TransportError(kind, url: request.url, detail: "stubbed \(kind)")
        case nil:
            return HTTPResponse(status: 404, body: Data(#"{"detail":"Not found"}"#.utf8))
        }
    }
}
