import Foundation
import SpeciesKit
import Synchronization

/// The one fake network of the tests: it answers each request as `answer`
/// says, keeps the request (with its limits), and counts how many were in
/// flight at once. With `firstRound`, the first requests are held until
/// that many wait together, as a client that asks for them in one round
/// trip makes them: all are started before any is awaited, so each has
/// come once the others have had their turns. A client that waits for an
/// answer first is let through at once, and `stalled` tells so. Requests
/// `passes` lets through are never held.
public final class StubTransport: HTTPTransport {
    public typealias Answer = @Sendable (HTTPRequest) async throws -> HTTPResponse

    /// A canned answer.
    public enum Reply: Sendable {
        case response(HTTPResponse)
        case failure(TransportError.Kind)
        /// No answer: the request ends at its deadline, as a transport ends
        /// one that hangs.
        case hang
        /// The reply, after `seconds` on the request's clock; or, when its
        /// deadline ends it first, no answer.
        indirect case after(Double, Reply)

        public static func json(_ body: Data, status: Int = 200) -> Reply {
            .response(HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: body))
        }

        public static func status(_ status: Int, headers: [String: String] = [:]) -> Reply {
            .response(HTTPResponse(status: status, headers: headers, body: Data("{}".utf8)))
        }

        /// The reply to `request`, as a transport would give it.
        public func answer(_ request: HTTPRequest) async throws -> HTTPResponse {
            switch self {
            case .response(let response):
                return response
            case .failure(let kind):
                throw TransportError(kind, url: request.url, detail: "stubbed \(kind)")
            case .hang:
                return try await Reply.after(.infinity, self).answer(request)
            case .after(let seconds, let reply):
                let left = request.limits.deadline.secondsLeft
                try await request.limits.deadline.sleep(seconds)
                guard seconds <= left else {
                    throw TransportError(.timedOut, url: request.url, detail: "stubbed timeout", seconds: left)
                }
                return try await reply.answer(request)
            }
        }
    }

    private struct State {
        var requests: [HTTPRequest] = []
        var inFlight = 0
        var mostInFlight = 0
        var held = 0
        var open: Bool
        var stalled = false
    }

    private let answer: Answer
    private let firstRound: Int
    private let passes: @Sendable (URL) -> Bool
    private let state: Mutex<State>

    public init(
        firstRound: Int? = nil, passes: @escaping @Sendable (URL) -> Bool = { _ in false },
        _ answer: @escaping Answer
    ) {
        self.answer = answer
        self.firstRound = firstRound ?? 0
        self.passes = passes
        state = Mutex(State(open: firstRound == nil))
    }

    /// Answers from a table of URLs; any other answers SWAPI's 404.
    public convenience init(_ replies: [String: Reply]) {
        self.init { request in
            try await (replies[request.url.absoluteString] ?? .json(Data(#"{"detail":"Not found"}"#.utf8), status: 404))
                .answer(request)
        }
    }

    /// Answers each request with the next reply, whatever its URL.
    public static func script(_ replies: [Reply]) -> StubTransport {
        let left = Mutex(replies)
        return StubTransport { request in
            guard let reply = left.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else {
                throw TransportError(.other, url: request.url, detail: "the script has no more replies")
            }
            return try await reply.answer(request)
        }
    }

    /// Every request so far, in order.
    public var requests: [HTTPRequest] { state.withLock { $0.requests } }
    /// The URLs of every request so far, in order.
    public var urls: [String] { requests.map(\.url.absoluteString) }
    public var mostInFlight: Int { state.withLock { $0.mostInFlight } }
    public var stalled: Bool { state.withLock { $0.stalled } }

    public func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        let held = state.withLock { state in
            state.requests.append(request)
            state.inFlight += 1
            state.mostInFlight = max(state.mostInFlight, state.inFlight)
            guard !state.open, !passes(request.url) else { return false }
            state.held += 1
            return true
        }
        if held { await waitForTheRound() }
        defer { state.withLock { $0.inFlight -= 1 } }
        do {
            return try await answer(request)
        } catch let error as TransportError {
            throw error
        } catch {
            throw TransportError(error is CancellationError ? .cancelled : .other, url: request.url, detail: "\(error)")
        }
    }

    /// Waits while the round's other requests, started already, take their
    /// turns to come; when they have not come by then, they never will.
    private func waitForTheRound() async {
        for _ in 0..<10_000 {
            if state.withLock({ $0.open || $0.held >= firstRound }) { break }
            await Task.yield()
        }
        state.withLock { state in
            if !state.open, state.held < firstRound { state.stalled = true }
            state.open = true
        }
    }
}

extension StubTransport {
    /// Every recorded SWAPI response at its recorded `https://swapi.dev/api/`
    /// URL, plus the bare species endpoint as page 1, merged with
    /// `overrides`; served under any host as that host's own, with its own
    /// links, unless `failing` says how that host fails.
    public static func recordedSWAPI(
        overrides: [String: Reply] = [:], failing: [String: Reply] = [:], firstRound: Int? = nil
    ) throws -> StubTransport {
        var replies = try Fixtures.recordedResponses().mapValues { Reply.json($0.body, status: $0.status) }
        replies["https://swapi.dev/api/species/"] = replies["https://swapi.dev/api/species/?page=1"]
        replies.merge(overrides) { $1 }
        let recorded = StubTransport(replies)
        return StubTransport(firstRound: firstRound) { request in
            let host = request.url.host ?? ""
            if let failure = failing[host] { return try await failure.answer(request) }
            let own = "https://\(host)/", swapi = "https://swapi.dev/"
            var asked = request
            asked.url =
                URL(string: request.url.absoluteString.replacingOccurrences(of: own, with: swapi)) ?? request.url
            var response = try await recorded.send(asked)
            response.body = Data(
                String(decoding: response.body, as: UTF8.self).replacingOccurrences(of: swapi, with: own).utf8)
            return response
        }
    }

    /// A SWAPI-like API of `species` species, 10 a page, at
    /// https://swapi.dev/api/species/?page=N, whose pages can be made to
    /// lie: `count` says another number, a page links elsewhere
    /// (`nextLinks`, `previousLinks`), a page answers 500 (`failing`).
    public static func synthetic(
        species: Int, count: Int? = nil, nextLinks: [Int: String] = [:], previousLinks: [Int: String] = [:],
        failing: Set<Int> = [], firstRound: Int? = nil, passes: @escaping @Sendable (URL) -> Bool = { _ in false }
    ) -> StubTransport {
        let pages = (species + 9) / 10
        return StubTransport(firstRound: firstRound, passes: passes) { request in
            await Task.yield()
            let query = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems ?? []
            let page = query.first { $0.name == "page" }.flatMap { Int($0.value ?? "") } ?? 1
            guard (1...pages).contains(page) else {
                return HTTPResponse(status: 404, body: Data(#"{"detail":"Not found"}"#.utf8))
            }
            guard !failing.contains(page) else { return HTTPResponse(status: 500, body: Data()) }
            let first = (page - 1) * 10 + 1
            let results = (first...min(species, first + 9)).map {
                #"{"name":"Species \#($0)","url":"https://swapi.dev/api/species/\#($0)/"}"#
            }
            let next = nextLinks[page] ?? (page < pages ? syntheticURL(page: page + 1) : nil)
            let previous = previousLinks[page] ?? (page > 1 ? syntheticURL(page: page - 1) : nil)
            func json(_ link: String?) -> String { link.map { "\"\($0)\"" } ?? "null" }
            let body =
                #"{"count":\#(count ?? species),"next":\#(json(next)),"previous":\#(json(previous)),"results":[\#(results.joined(separator: ","))]}"#
            return HTTPResponse(status: 200, body: Data(body.utf8))
        }
    }

    /// The URL of page `page` of `synthetic`'s listing.
    public static func syntheticURL(page: Int) -> String {
        page == 1 ? "https://swapi.dev/api/species/" : "https://swapi.dev/api/species/?page=\(page)"
    }
}
