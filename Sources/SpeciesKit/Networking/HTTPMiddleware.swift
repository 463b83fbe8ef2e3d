import Foundation

/// A step on the way from the client to its transport, as swift-openapi-
/// runtime's `ClientMiddleware` is: it sees each request and its response,
/// and asks `next` for the rest of the way, once or more.
protocol HTTPMiddleware: Sendable {
    func intercept(_ request: HTTPRequest, next: (HTTPRequest) async throws -> HTTPResponse) async throws
        -> HTTPResponse
}

/// The one path of every request of a client: its middlewares, the first
/// outermost, then its transport.
struct HTTPPipeline: HTTPTransport {
    let transport: any HTTPTransport
    let middlewares: [any HTTPMiddleware]

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        try await send(request, through: middlewares[...])
    }

    private func send(_ request: HTTPRequest, through rest: ArraySlice<any HTTPMiddleware>) async throws
        -> HTTPResponse
    {
        guard let first = rest.first else { return try await transport.send(request) }
        return try await first.intercept(request) { try await send($0, through: rest.dropFirst()) }
    }
}

/// Tells the trace each attempt of a request: its URL, its status, size and
/// time, and whether it revalidated the cached copy; or why it failed.
struct Tracing: HTTPMiddleware {
    let diagnostics: any Diagnostics

    func intercept(_ request: HTTPRequest, next: (HTTPRequest) async throws -> HTTPResponse) async throws
        -> HTTPResponse
    {
        let start = ContinuousClock.now
        func elapsed() -> String {
            let elapsed = (ContinuousClock.now - start).components
            return "\(elapsed.seconds * 1000 + elapsed.attoseconds / 1_000_000_000_000_000) ms"
        }
        let line = "GET \(request.url.redacted)"
        do {
            let response = try await next(request)
            let revalidated = response.status == 304 && request.headers.keys.contains { $0.hasPrefix("If-") }
            diagnostics.trace(
                "\(line): \(response.status) \(HTTPStatusText.reason(response.status)), \(response.body.count) bytes, "
                    + "\(elapsed()), \(revalidated ? "revalidated: the cached copy is current" : "from the network")")
            return response
        } catch let error as TransportError {
            diagnostics.trace("\(line): failed after \(elapsed()): \(error.detail)")
            throw error
        }
    }
}
