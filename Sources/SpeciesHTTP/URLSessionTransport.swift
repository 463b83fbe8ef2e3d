import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SpeciesKit
import Synchronization

/// `HTTPTransport` over URLSession. Each request runs as a data task whose
/// callbacks reach one session-level delegate (on Linux only a session
/// delegate sees a task's bytes and redirects), which caps the body's size
/// as it arrives and follows redirects only within the same host.
public final class URLSessionTransport: HTTPTransport {
    /// What a fetch reports, in this order: its head, each piece of its
    /// body as it arrives, then its end; or a failure, at any point.
    public enum Event: Sendable {
        case head(status: Int, headers: [String: String])
        case data(Data)
        case end
        case failure(TransportError)
    }

    private let session: URLSession
    private let delegate: SessionDelegate

    /// - Parameters:
    ///   - maxResponseSize: a larger body is refused, and stops downloading there.
    ///   - idleTimeout: URLSession's own timeout, a backstop only: it counts
    ///     idle time, in whole seconds, so the total deadline of each request
    ///     is `DeadlineTransport`'s job.
    public init(
        maxResponseSize: Int = ConnectionSettings.defaultMaxResponseSize, idleTimeout: Double = 15,
        userAgent: String = "species/\(SpeciesRelease.version)"
    ) {
        let configuration = URLSessionConfiguration.ephemeral
        // A session with a URL cache creates ~/.cache/org.swift.foundation.URLCache.
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        // Truncated to whole seconds by URLSession (0.5 would fire at once):
        // kept above the total deadline so that the deadline always speaks first.
        configuration.timeoutIntervalForRequest = max(1, idleTimeout.rounded(.up) + 1)
        configuration.httpAdditionalHeaders = ["User-Agent": userAgent, "Accept": "application/json"]
        delegate = SessionDelegate(maxResponseSize: maxResponseSize)
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    }

    deinit {
        session.invalidateAndCancel()
    }

    /// Fetches `request`, reporting to `events` as the response arrives, in
    /// order, on URLSession's delegate queue; nothing follows `.end` or
    /// `.failure`. Returns what cancels the fetch.
    @discardableResult
    public func stream(_ request: HTTPRequest, _ events: @escaping @Sendable (Event) -> Void) -> @Sendable () -> Void {
        var urlRequest = URLRequest(url: request.url)
        for (name, value) in request.headers {
            urlRequest.setValue(value, forHTTPHeaderField: name)
        }
        let task = session.dataTask(with: urlRequest)
        let exchange = Exchange(url: request.url, events: events)
        delegate.register(exchange, for: task)
        task.resume()
        return {
            exchange.finish(.failure(TransportError(.cancelled, url: request.url, detail: "cancelled")))
            task.cancel()
        }
    }

    /// The whole response, collected from `stream`.
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let collector = ResponseCollector()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                collector.await(continuation)
                collector.cancelWith(stream(request, collector.receive))
            }
        } onCancel: {
            collector.cancel()
        }
    }
}

/// Gathers a stream's events into one response for `send`.
private final class ResponseCollector: Sendable {
    private struct State {
        var continuation: CheckedContinuation<HTTPResponse, any Error>?
        var cancelFetch: (@Sendable () -> Void)?
        var cancelled = false
        var status = 0
        var headers: [String: String] = [:]
        var body = Data()
    }

    private let state = Mutex(State())

    func await(_ continuation: CheckedContinuation<HTTPResponse, any Error>) {
        state.withLock { $0.continuation = continuation }
    }

    /// Keeps what cancels the fetch, or uses it at once if cancelled already.
    func cancelWith(_ cancelFetch: @escaping @Sendable () -> Void) {
        let cancelledAlready = state.withLock { state in
            state.cancelFetch = cancelFetch
            return state.cancelled
        }
        if cancelledAlready { cancelFetch() }
    }

    func cancel() {
        let cancelFetch = state.withLock { state in
            state.cancelled = true
            return state.cancelFetch
        }
        cancelFetch?()
    }

    @Sendable func receive(_ event: URLSessionTransport.Event) {
        switch event {
        case .head(let status, let headers):
            state.withLock {
                $0.status = status
                $0.headers = headers
            }
        case .data(let data):
            state.withLock { $0.body.append(data) }
        case .end:
            let (continuation, response) = state.withLock { state in
                defer { state.continuation = nil }
                return (state.continuation, HTTPResponse(status: state.status, headers: state.headers, body: state.body))
            }
            continuation?.resume(returning: response)
        case .failure(let error):
            let continuation = state.withLock { state in
                defer { state.continuation = nil }
                return state.continuation
            }
            continuation?.resume(throwing: error)
        }
    }
}

/// Routes the session's callbacks to the exchange of each task.
private final class SessionDelegate: NSObject, URLSessionDataDelegate, Sendable {
    private static let maxRedirects = 10

    private let maxResponseSize: Int
    private let exchanges = Mutex<[Int: Exchange]>([:])

    init(maxResponseSize: Int) {
        self.maxResponseSize = maxResponseSize
    }

    func register(_ exchange: Exchange, for task: URLSessionTask) {
        exchanges.withLock { $0[task.taskIdentifier] = exchange }
    }

    private func exchange(for task: URLSessionTask) -> Exchange? {
        exchanges.withLock { $0[task.taskIdentifier] }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        guard let exchange = exchange(for: dataTask) else { return completionHandler(.cancel) }
        if response.expectedContentLength > maxResponseSize {
            exchange.finish(.failure(exchange.tooLarge(limit: maxResponseSize)))
            return completionHandler(.cancel)
        }
        exchange.receive(response)
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard let exchange = exchange(for: dataTask) else { return }
        if !exchange.forward(data, limit: maxResponseSize) {
            exchange.finish(.failure(exchange.tooLarge(limit: maxResponseSize)))
            dataTask.cancel()
        }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
        guard let exchange = exchange(for: task) else { return completionHandler(nil) }
        // URLSession on Linux resolves a relative Location without its
        // trailing slash ("/api/species/3/" becomes ".../species/3"), which
        // loops against Django's slash-appending 301: resolve it here.
        var request = request
        if let location = response.value(forHTTPHeaderField: "Location"), let origin = response.url,
            let target = URL(string: location, relativeTo: origin)?.absoluteURL
        {
            request.url = target
        }
        let location = request.url?.absoluteString ?? ""
        let refusal: String? =
            if let objection = request.url.flatMap({ RedirectPolicy.objection(from: exchange.url, to: $0) }) {
                "it redirects \(objection) (\(location)); not followed"
            } else if exchange.countRedirect() > Self.maxRedirects {
                "it redirects more than \(Self.maxRedirects) times"
            } else {
                nil
            }
        guard let refusal else { return completionHandler(request) }
        exchange.finish(.failure(TransportError(.redirectRefused(location: location), url: exchange.url, detail: refusal)))
        completionHandler(nil)
        task.cancel()
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let exchange = exchanges.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        if let error {
            exchange.finish(.failure(TransportError(error, url: exchange.url)))
        } else if task.response is HTTPURLResponse {
            exchange.complete()
        } else {
            exchange.finish(.failure(TransportError(.other, url: exchange.url, detail: "the answer was not HTTP")))
        }
    }
}

/// One request's state: how much of its body has passed, and where its
/// events go; it reports the end or a failure exactly once, and nothing
/// after that.
private final class Exchange: Sendable {
    private struct State {
        var finished = false
        var received = 0
        var redirects = 0
    }

    let url: URL
    private let events: @Sendable (URLSessionTransport.Event) -> Void
    private let state = Mutex(State())

    init(url: URL, events: @escaping @Sendable (URLSessionTransport.Event) -> Void) {
        self.url = url
        self.events = events
    }

    func receive(_ response: URLResponse) {
        guard let http = response as? HTTPURLResponse else { return }
        var headers: [String: String] = [:]
        for case let (name as String, value as String) in http.allHeaderFields {
            headers[name.lowercased()] = value
        }
        guard !state.withLock({ $0.finished }) else { return }
        events(.head(status: http.statusCode, headers: headers))
    }

    /// Passes `data` on, unless the body would then pass `limit`.
    func forward(_ data: Data, limit: Int) -> Bool {
        let verdict = state.withLock { state -> Bool? in
            guard !state.finished else { return nil }
            guard state.received + data.count <= limit else { return false }
            state.received += data.count
            return true
        }
        if verdict == true { events(.data(data)) }
        return verdict != false
    }

    /// Counts a redirect and returns how many there have been.
    func countRedirect() -> Int {
        state.withLock { state in
            state.redirects += 1
            return state.redirects
        }
    }

    func tooLarge(limit: Int) -> TransportError {
        TransportError(.tooLarge(limit: limit), url: url, detail: "the response is larger than \(ByteCount.describe(limit))")
    }

    func complete() {
        finish(.end)
    }

    /// Reports `.end` or `.failure`, the first time only.
    func finish(_ event: URLSessionTransport.Event) {
        let first = state.withLock { state in
            defer { state.finished = true }
            return !state.finished
        }
        if first { events(event) }
    }
}

extension TransportError {
    init(_ error: any Error, url: URL) {
        guard let urlError = error as? URLError else {
            self.init(.other, url: url, detail: "\(error)")
            return
        }
        switch urlError.code {
        case .cannotConnectToHost:
            self.init(.connectionRefused, url: url, detail: "connection refused")
        case .cannotFindHost, .dnsLookupFailed:
            self.init(.unknownHost, url: url, detail: "unknown host")
        case .timedOut:
            self.init(.timedOut(seconds: 0), url: url, detail: "timed out")
        // A reset, an empty reply, or a body cut short (curl's "transfer
        // closed with N bytes remaining", which arrives as code -1).
        case .networkConnectionLost, .badServerResponse, .unknown:
            self.init(.connectionLost, url: url, detail: "the connection dropped (\(urlError.localizedDescription))")
        case .notConnectedToInternet:
            self.init(.connectionRefused, url: url, detail: "not connected to a network")
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
            .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected:
            self.init(.insecureConnection, url: url, detail: "the TLS connection failed (\(urlError.localizedDescription))")
        case .cancelled:
            self.init(.cancelled, url: url, detail: "cancelled")
        default:
            self.init(.other, url: url, detail: urlError.localizedDescription)
        }
    }
}
