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

/// Holds requests until `width` of them are waiting, then lets them all go
/// on to `base`, round after round: a client that asks for `width` pages in
/// one round trip is never held, and one that waits for an answer first is
/// held until `patience` runs out, which `stalled` then tells.
public final class RoundTripGate: HTTPTransport {
    private let base: any HTTPTransport
    private let width: Int
    private let patience: Double
    private let state = Mutex((held: [CheckedContinuation<Void, Never>](), round: 0, stalled: false))

    public init(_ base: any HTTPTransport, width: Int, patience: Double = 10) {
        self.base = base
        self.width = width
        self.patience = patience
    }

    public var stalled: Bool { state.withLock { $0.stalled } }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        await withCheckedContinuation { continuation in
            let (released, round) = state.withLock { state -> ([CheckedContinuation<Void, Never>], Int?) in
                state.held.append(continuation)
                guard state.held.count < width else {
                    defer { state.held = [] }
                    state.round += 1
                    return (state.held, nil)
                }
                return ([], state.held.count == 1 ? state.round : nil)
            }
            released.forEach { $0.resume() }
            if let round {
                Task { [self] in
                    try? await Task.sleep(nanoseconds: UInt64(patience * 1e9))
                    releaseStalled(round: round)
                }
            }
        }
        return try await base.send(request)
    }

    private func releaseStalled(round: Int) {
        let released = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            guard state.round == round, !state.held.isEmpty else { return [] }
            defer { state.held = [] }
            state.round += 1
            state.stalled = true
            return state.held
        }
        released.forEach { $0.resume() }
    }
}

/// Holds requests until `width` of them wait together, then lets them and
/// every later one go on to `base`, and counts how many were ever in flight
/// at once. A client that asks for `width` at once passes; one that never
/// does waits until its test's time limit. Requests that `passes` lets
/// through never wait (page 1, which a walk awaits before it asks for more).
public final class FirstRoundBarrier: HTTPTransport {
    private let base: any HTTPTransport
    private let width: Int
    private let passes: @Sendable (URL) -> Bool
    private let state = Mutex((held: [CheckedContinuation<Void, Never>](), open: false, inFlight: 0, mostInFlight: 0))

    public init(_ base: any HTTPTransport, width: Int, passes: @escaping @Sendable (URL) -> Bool = { _ in false }) {
        self.base = base
        self.width = width
        self.passes = passes
    }

    public var mostInFlight: Int { state.withLock { $0.mostInFlight } }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        await withCheckedContinuation { continuation in
            let released = state.withLock { state -> [CheckedContinuation<Void, Never>] in
                state.inFlight += 1
                state.mostInFlight = max(state.mostInFlight, state.inFlight)
                guard !state.open, !passes(request.url) else { return [continuation] }
                state.held.append(continuation)
                guard state.held.count == width else { return [] }
                state.open = true
                defer { state.held = [] }
                return state.held
            }
            released.forEach { $0.resume() }
        }
        defer { state.withLock { $0.inFlight -= 1 } }
        return try await base.send(request)
    }
}
