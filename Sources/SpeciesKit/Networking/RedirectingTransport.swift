import Foundation

/// Follows redirects within the origin of the request (`Origin.admits`):
/// at most `maxRedirects`, each Location read against the URL that sent
/// it. A redirect anywhere else is refused without being requested. A
/// redirect without a Location comes back as it is.
struct RedirectingTransport: HTTPTransport {
    static let maxRedirects = 10
    private static let statuses: Set<Int> = [301, 302, 303, 307, 308]

    private let base: any HTTPTransport

    init(_ base: any HTTPTransport) {
        self.base = base
    }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        var hop = request
        for _ in 0...Self.maxRedirects {
            let response = try await base.send(hop)
            guard Self.statuses.contains(response.status), let location = response.header("Location"),
                let target = URL(string: location, relativeTo: hop.url)?.absoluteURL
            else { return response }
            guard let from = Origin(request.url), let to = Origin(target), from.admits(to) else {
                throw TransportError(
                    .redirectRefused(location: target.redacted), url: request.url,
                    detail: "it redirects to another origin (\(target.redacted)); not followed")
            }
            hop.url = target
        }
        throw TransportError(
            .redirectRefused(location: hop.url.redacted), url: request.url,
            detail: "it redirects more than \(Self.maxRedirects) times")
    }
}
