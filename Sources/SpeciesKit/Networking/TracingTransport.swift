import Foundation

/// Tells the diagnostics' `trace` of each request: its method and URL, and
/// its status, size and time, and whether it revalidated a cached copy; or
/// why it failed.
struct TracingTransport: HTTPTransport {
    private let base: any HTTPTransport
    private let diagnostics: any Diagnostics

    init(_ base: any HTTPTransport, diagnostics: any Diagnostics) {
        self.base = base
        self.diagnostics = diagnostics
    }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let start = ContinuousClock.now
        let line = "GET \(request.url.redacted)"
        do {
            let response = try await base.send(request)
            let revalidating = request.headers["If-None-Match"] != nil || request.headers["If-Modified-Since"] != nil
            let source =
                response.status == 304 && revalidating ? "revalidated: the cached copy is current" : "from the network"
            diagnostics.trace(
                "\(line): \(response.status) \(HTTPStatusText.reason(response.status)), \(response.body.count) bytes, "
                    + "\(Self.milliseconds(since: start)), \(source)")
            return response
        } catch let error as TransportError {
            diagnostics.trace("\(line): failed after \(Self.milliseconds(since: start)): \(error.detail)")
            throw error
        }
    }

    private static func milliseconds(since start: ContinuousClock.Instant) -> String {
        let elapsed = (ContinuousClock.now - start).components
        return "\(elapsed.seconds * 1000 + elapsed.attoseconds / 1_000_000_000_000_000) ms"
    }
}
