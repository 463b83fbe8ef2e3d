import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// `HTTPTransport` over URLSession. Each request runs as a data task whose
/// callbacks reach one session-level delegate: on Linux only a session
/// delegate sees a task's bytes and redirects.
public final class URLSessionTransport: HTTPTransport {
    private let session: URLSession
    private let delegate: SessionDelegate

    public init(userAgent: String = "species/\(SpeciesKit.version)") {
        let configuration = URLSessionConfiguration.ephemeral
        // A session with a URL cache creates ~/.cache/org.swift.foundation.URLCache.
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpAdditionalHeaders = ["User-Agent": userAgent, "Accept": "application/json"]
        delegate = SessionDelegate()
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    }

    deinit {
        session.invalidateAndCancel()
    }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        var urlRequest = URLRequest(url: request.url)
        for (name, value) in request.headers {
            urlRequest.setValue(value, forHTTPHeaderField: name)
        }
        let task = session.dataTask(with: urlRequest)
        let exchange = Exchange(url: request.url)
        delegate.register(exchange, for: task)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                exchange.await(continuation)
                task.resume()
            }
        } onCancel: {
            exchange.finish(.failure(TransportError(.cancelled, url: request.url, detail: "cancelled")))
            task.cancel()
        }
    }
}

/// Routes the session's callbacks to the exchange of each task.
private final class SessionDelegate: NSObject, URLSessionDataDelegate, Sendable {
    private let exchanges = Mutex<[Int: Exchange]>([:])

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
        exchange(for: dataTask)?.receive(response)
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        exchange(for: dataTask)?.append(data)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let exchange = exchanges.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        if let error {
            exchange.finish(.failure(TransportError(error, url: exchange.url)))
        } else {
            exchange.complete()
        }
    }
}

/// One request's state: the response as it arrives, and the continuation
/// that is resumed exactly once, by completion or by cancellation.
private final class Exchange: Sendable {
    private struct State {
        var continuation: CheckedContinuation<HTTPResponse, any Error>?
        var outcome: Result<HTTPResponse, any Error>?
        var status = 0
        var headers: [String: String] = [:]
        var body = Data()
    }

    let url: URL
    private let state = Mutex(State())

    init(url: URL) {
        self.url = url
    }

    func await(_ continuation: CheckedContinuation<HTTPResponse, any Error>) {
        let finished = state.withLock { state -> Result<HTTPResponse, any Error>? in
            if state.outcome == nil { state.continuation = continuation }
            return state.outcome
        }
        if let finished { continuation.resume(with: finished) }
    }

    func receive(_ response: URLResponse) {
        guard let http = response as? HTTPURLResponse else { return }
        var headers: [String: String] = [:]
        for case let (name as String, value as String) in http.allHeaderFields {
            headers[name] = value
        }
        state.withLock {
            $0.status = http.statusCode
            $0.headers = headers
        }
    }

    func append(_ data: Data) {
        state.withLock { $0.body.append(data) }
    }

    func complete() {
        let response = state.withLock { HTTPResponse(status: $0.status, headers: $0.headers, body: $0.body) }
        guard response.status != 0 else {
            finish(.failure(TransportError(.other, url: url, detail: "the answer was not HTTP")))
            return
        }
        finish(.success(response))
    }

    func finish(_ outcome: Result<HTTPResponse, any Error>) {
        let continuation = state.withLock { state -> CheckedContinuation<HTTPResponse, any Error>? in
            guard state.outcome == nil else { return nil }
            state.outcome = outcome
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume(with: outcome)
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
            self.init(.timedOut, url: url, detail: "timed out")
        case .networkConnectionLost, .notConnectedToInternet:
            self.init(.connectionLost, url: url, detail: "the connection was lost")
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
