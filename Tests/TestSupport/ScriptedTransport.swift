import Foundation
import SpeciesKit
import Synchronization

/// An `HTTPTransport` that answers each request with the next reply of a
/// script, whatever the URL, and records the requests.
public final class ScriptedTransport: HTTPTransport {
    private let state: Mutex<(replies: [StubTransport.Reply], requests: [URL])>

    public init(_ replies: [StubTransport.Reply]) {
        state = Mutex((replies, []))
    }

    public var requests: [URL] { state.withLock { $0.requests } }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let reply = state.withLock { state -> StubTransport.Reply? in
            state.requests.append(request.url)
            return state.replies.isEmpty ? nil : state.replies.removeFirst()
        }
        switch reply {
        case .response(let response)?:
            return response
        case .failure(let kind)?:
            throw TransportError(kind, url: request.url, detail: "scripted \(kind)")
        case nil:
            throw TransportError(.other, url: request.url, detail: "the script has no more replies")
        }
    }
}

/// An `HTTPTransport` whose answers a function computes.
public struct FunctionTransport: HTTPTransport {
    private let answer: @Sendable (HTTPRequest) async throws -> HTTPResponse

    public init(_ answer: @escaping @Sendable (HTTPRequest) async throws -> HTTPResponse) {
        self.answer = answer
    }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        try await answer(request)
    }
}
