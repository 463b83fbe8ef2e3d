import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// `HTTPTransport` over URLSession: one data task a request, whose
/// callbacks reach one session-level delegate (on Linux only a session
/// delegate sees a task's redirects and bytes). A body is stopped at
/// `maxResponseSize` as it arrives. Redirects are followed here, not by
/// URLSession: within the origin of the request (`Origin.admits`), at most
/// `maxRedirects`, each Location read against the URL that sent it; one
/// anywhere else is refused without being requested, and one without a
/// Location comes back as it is. A request's `minimumPace` is watched from
/// its start to its end. It sets no time limit of its own (URLSession's is
/// a day): the client's deadline is the one (`DeadlineTransport`).
/// Cancelling the calling task ends the request at once.
public final class URLSessionTransport: HTTPTransport {
    /// 100 MiB: the default of `maxResponseSize`.
    public static let defaultMaxResponseSize = 100 * 1024 * 1024
    static let maxRedirects = 10
    private static let redirects: Set<Int> = [301, 302, 303, 307, 308]

    private let userAgent: String
    private let delegate: SessionDelegate
    /// Made at the first request: an answer from the cache needs none, and
    /// configuring one costs a millisecond or two.
    private let lazySession = Mutex<URLSession?>(nil)

    /// A transport of its own URLSession, made at its first request.
    ///
    /// - Parameters:
    ///   - maxResponseSize: a larger body is refused, and stops downloading there.
    ///   - userAgent: the `User-Agent` of every request.
    public init(maxResponseSize: Int = defaultMaxResponseSize, userAgent: String = "species/\(SpeciesRelease.version)")
    {
        self.userAgent = userAgent
        delegate = SessionDelegate(maxResponseSize: maxResponseSize)
    }

    deinit {
        // Not invalidateAndCancel: it would cancel tasks behind the
        // delegate's back (see `Exchange.answerRedirect`).
        delegate.cancelAll()
        lazySession.withLock { $0?.finishTasksAndInvalidate() }
    }

    private var session: URLSession {
        lazySession.withLock { session in
            if let session { return session }
            let configuration = URLSessionConfiguration.ephemeral
            // A session with a URL cache creates ~/.cache/org.swift.foundation.URLCache.
            configuration.urlCache = nil
            configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
            configuration.timeoutIntervalForRequest = 86_400
            configuration.httpAdditionalHeaders = ["User-Agent": userAgent, "Accept": "application/json"]
            let made = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
            session = made
            return made
        }
    }

    /// Sends `request` through URLSession, following redirects within its
    /// origin; see `HTTPTransport.send(_:)`.
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        var hop = request
        for _ in 0...Self.maxRedirects {
            let response = try await exchange(hop)
            guard Self.redirects.contains(response.status), let location = response.header("Location"),
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

    private func exchange(_ request: HTTPRequest) async throws -> HTTPResponse {
        var urlRequest = URLRequest(url: request.url)
        for (name, value) in request.headers {
            urlRequest.setValue(value, forHTTPHeaderField: name)
        }
        let exchange = Exchange(url: request.url, task: session.dataTask(with: urlRequest))
        let watch = request.minimumPace.map { pace in Task { try await exchange.watch(pace) } }
        defer { watch?.cancel() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                guard exchange.await(continuation) else { return }
                delegate.register(exchange)
                exchange.task.resume()
            }
        } onCancel: {
            exchange.stop(TransportError(.cancelled, url: request.url, detail: "cancelled"))
        }
    }
}

/// Routes the session's callbacks to the exchange of each task.
private final class SessionDelegate: NSObject, URLSessionDataDelegate, Sendable {
    /// libcurl's words when an announced Content-Length passes the limit
    /// the species executable sets on FoundationNetworking's transfers
    /// (Sources/URLSessionFixes/URLSessionFixes.c), far above any
    /// `maxResponseSize`.
    private static let curlLengthRefusal = "Maximum file size exceeded"

    private let maxResponseSize: Int
    private let exchanges = Mutex<[Int: Exchange]>([:])

    init(maxResponseSize: Int) {
        self.maxResponseSize = maxResponseSize
    }

    func register(_ exchange: Exchange) {
        exchanges.withLock { $0[exchange.task.taskIdentifier] = exchange }
    }

    func cancelAll() {
        for exchange in exchanges.withLock({ Array($0.values) }) {
            exchange.stop(TransportError(.cancelled, url: exchange.url, detail: "cancelled"))
        }
    }

    private func exchange(for task: URLSessionTask) -> Exchange? {
        exchanges.withLock { $0[task.taskIdentifier] }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        completionHandler(.allow)
        guard let exchange = exchange(for: dataTask) else { return }
        // Compared as Int64: an announced length is the server's number.
        if response.expectedContentLength > Int64(maxResponseSize) {
            exchange.stop(exchange.tooLarge(limit: maxResponseSize))
        } else {
            exchange.receive(response)
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard let exchange = exchange(for: dataTask) else { return }
        if !exchange.append(data, limit: maxResponseSize) {
            exchange.stop(exchange.tooLarge(limit: maxResponseSize))
        }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
        // A task not registered yet cannot be: registration precedes resume().
        exchange(for: task)?.answerRedirect(completionHandler)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let exchange = exchanges.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        if let urlError = error as? URLError, urlError.code == .unknown,
            urlError.localizedDescription == Self.curlLengthRefusal
        {
            exchange.finish(.failure(exchange.tooLarge(limit: maxResponseSize)))
        } else if let error {
            exchange.finish(.failure(TransportError(error, url: exchange.url)))
        } else {
            exchange.complete(task.response)
        }
    }
}

/// One request: its task, its continuation, and its response as it
/// arrives. It is resumed exactly once: with the response, or the first
/// failure.
private final class Exchange: Sendable {
    private struct State {
        var continuation: CheckedContinuation<HTTPResponse, any Error>?
        var finished = false
        var status: Int?
        var headers: [String: String] = [:]
        var body = Data()
    }

    let url: URL
    let task: URLSessionDataTask
    private let state = Mutex(State())

    init(url: URL, task: URLSessionDataTask) {
        self.url = url
        self.task = task
    }

    /// Keeps the continuation; false (and the continuation resumed) when
    /// the request was stopped before it started.
    func await(_ continuation: CheckedContinuation<HTTPResponse, any Error>) -> Bool {
        let stopped = state.withLock { state in
            state.continuation = continuation
            return state.finished
        }
        if stopped {
            continuation.resume(throwing: TransportError(.cancelled, url: url, detail: "cancelled"))
        }
        return !stopped
    }

    func receive(_ response: URLResponse) {
        guard let http = response as? HTTPURLResponse else { return }
        var headers: [String: String] = [:]
        for case let (name as String, value as String) in http.allHeaderFields {
            headers[name.lowercased()] = value
        }
        state.withLock { state in
            guard !state.finished else { return }
            state.status = http.statusCode
            state.headers = headers
            // The announced length (within the limit, checked before): one
            // allocation, not a doubling buffer that may hold twice the
            // body. At most what a default limit allows, as a server may
            // announce more than it sends.
            if http.expectedContentLength > 0 {
                state.body.reserveCapacity(
                    Int(min(http.expectedContentLength, Int64(URLSessionTransport.defaultMaxResponseSize))))
            }
        }
    }

    /// Adds `data` to the body, unless the body would then pass `limit`.
    func append(_ data: Data, limit: Int) -> Bool {
        state.withLock { state in
            guard !state.finished else { return true }
            guard state.body.count <= limit - data.count else { return false }
            state.body.append(data)
            return true
        }
    }

    /// Answers FoundationNetworking's question whether to follow a
    /// redirect: never (`URLSessionTransport.send` decides), and not at all
    /// once the exchange is stopped. FoundationNetworking traps when an
    /// answer comes after its task was cancelled ("Received callback for
    /// HTTP redirection, but we're not waiting for it"; its
    /// HTTPURLProtocol.didCompleteRedirectCallback). The answer is given
    /// under the exchange's lock, and `stop` cancels the task only after
    /// taking that lock: either the answer is queued before the
    /// cancellation, or it is never given.
    func answerRedirect(_ answer: (URLRequest?) -> Void) {
        state.withLock { state in
            if !state.finished { answer(nil) }
        }
    }

    func tooLarge(limit: Int) -> TransportError {
        TransportError(
            .tooLarge(limit: limit), url: url, detail: "the response is larger than \(ByteCount.describe(limit))")
    }

    /// Ends the exchange with what arrived. FoundationNetworking does not
    /// hand a redirect's response to the delegate, so a redirect that is
    /// not followed (it has no Location) is read from the task's `final`.
    func complete(_ final: URLResponse?) {
        if let final, state.withLock({ $0.status == nil }) {
            receive(final)
        }
        let response = state.withLock { state in
            state.status.map { HTTPResponse(status: $0, headers: state.headers, body: state.body) }
        }
        finish(
            response.map { .success($0) }
                ?? .failure(TransportError(.other, url: url, detail: "the answer was not HTTP")))
    }

    /// Stops the exchange when it falls below `pace`: when its response
    /// has not begun within `pace.firstByte`, or then brings fewer than
    /// `pace.bytesPerSecond` over a window of `pace.window` seconds. Looks
    /// four times a second; ends with the exchange, or when cancelled.
    func watch(_ pace: MinimumPace) async throws {
        let start = ContinuousClock.now
        // The body's length at each look since the response began, over the last window.
        var samples: [(time: ContinuousClock.Instant, bytes: Int)] = []
        while true {
            try await Pause.seconds(0.25)
            let now = ContinuousClock.now
            guard let (begun, bytes) = state.withLock({ $0.finished ? nil : ($0.status != nil, $0.body.count) }) else {
                return
            }
            guard begun else {
                guard start.duration(to: now) >= .seconds(pace.firstByte) else { continue }
                let detail = "no answer began within \(TimeSpan.exactly(pace.firstByte))"
                return stop(TransportError(.timedOut(seconds: pace.firstByte), url: url, detail: detail))
            }
            samples.append((now, bytes))
            guard let first = samples.first, first.time.duration(to: now) >= .seconds(pace.window) else { continue }
            if Double(bytes - first.bytes) < Double(pace.bytesPerSecond) * pace.window {
                let detail =
                    "its answer came at less than \(ByteCount.describe(pace.bytesPerSecond))/s for \(TimeSpan.exactly(pace.window))"
                return stop(TransportError(.timedOut(seconds: pace.window), url: url, detail: detail))
            }
            samples.removeFirst()
        }
    }

    /// Ends the exchange with `error` before its task is done, and cancels
    /// the task. The caller does not wait for the cancellation:
    /// `URLSessionTask.cancel()` waits for the task's queue, which may be
    /// busy for seconds (FoundationNetworking reads a long header block in
    /// quadratic time, and inflates a body on that queue). Nor does Swift's
    /// concurrency: on Linux its tasks run on the global queue's few
    /// threads, which cancellations waiting there would hold, so they wait
    /// on threads of their own.
    func stop(_ error: TransportError) {
        guard finish(.failure(error)) else { return }
        let task = self.task
        Self.cancellations.async { task.cancel() }
    }

    // A serial queue: it has a thread of its own; a concurrent one would
    // borrow the global queue's.
    private static let cancellations = DispatchQueue(label: "species.cancellations")

    /// Resumes the continuation, unless the exchange has finished already;
    /// whether it did.
    @discardableResult
    func finish(_ result: Result<HTTPResponse, TransportError>) -> Bool {
        let continuation = state.withLock { state -> CheckedContinuation<HTTPResponse, any Error>?? in
            guard !state.finished else { return nil }
            state.finished = true
            state.body = Data()
            defer { state.continuation = nil }
            return .some(state.continuation)
        }
        guard let continuation else { return false }
        continuation?.resume(with: result.mapError { $0 as any Error })
        return true
    }
}

extension TransportError {
    /// What URLSession's error means for a user. FoundationNetworking reports
    /// most of libcurl's failures, TLS ones included, as `.unknown` with
    /// curl's own message, so that message tells a certificate apart.
    init(_ error: any Error, url: URL) {
        guard let urlError = error as? URLError else {
            self.init(.other, url: url, detail: "\(error)")
            return
        }
        let message = urlError.localizedDescription
        switch urlError.code {
        case .cannotConnectToHost:
            self.init(.connectionRefused, url: url, detail: "connection refused")
        case .notConnectedToInternet:
            self.init(.connectionRefused, url: url, detail: "no route to the network")
        case .cannotFindHost, .dnsLookupFailed:
            self.init(.unknownHost, url: url, detail: "unknown host")
        case .timedOut:
            self.init(.timedOut(seconds: 0), url: url, detail: "timed out")
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
            .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected:
            self.init(.insecureConnection, url: url, detail: message)
        // The words of URLSessionFixes.c when it stops a long header block.
        case .unknown where message.hasPrefix("the response has more than "):
            self.init(.tooManyHeaders, url: url, detail: message)
        // curl's own words name the cause: "SSL certificate problem:
        // certificate has expired", "... unable to get local issuer
        // certificate", "SSL: no alternative certificate subject name
        // matches target host name 'x'".
        case .unknown where message.contains("SSL") || message.contains("certificate"):
            self.init(.insecureConnection, url: url, detail: message)
        // A reset, an empty reply, an answer that ends inside its headers,
        // or a body cut short (curl's "transfer closed with N bytes
        // remaining", which arrives as .unknown).
        case .networkConnectionLost, .badServerResponse, .unknown:
            self.init(.connectionLost, url: url, detail: "the connection dropped before a complete answer (\(message))")
        case .badURL where url.host?.contains(":") == true:
            self.init(.other, url: url, detail: "FoundationNetworking cannot request an IPv6 address; use a host name")
        case .cancelled:
            self.init(.cancelled, url: url, detail: "cancelled")
        default:
            self.init(.other, url: url, detail: message)
        }
    }
}
