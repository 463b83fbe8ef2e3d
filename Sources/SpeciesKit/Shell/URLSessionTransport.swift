import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// ``HTTPTransport`` over URLSession. A body is stopped at
/// `maxResponseSize` as it arrives. Redirects are followed within the origin
/// of the request (from `http` to `https` of the same host too, never
/// back), at most ten, each Location read against the URL that sent it;
/// one anywhere else is refused without being requested, and one without a
/// Location comes back as it is. A request's `limits` are watched from its
/// start to its end: its deadline and its minimum pace. URLSession's own
/// idle limit is set past the deadline (`TimeLimits.sessionIdle`).
/// When a limit is passed, or the calling task is cancelled, the request
/// ends at once, whatever URLSession is doing.
public final class URLSessionTransport: HTTPTransport {
    static let maxRedirects = 10
    private static let redirects: Set<Int> = [301, 302, 303, 307, 308]

    private let userAgent: String
    private let delegate: SessionDelegate
    /// Made at the first request: an answer from the cache needs none, and
    /// configuring one costs a millisecond or two.
    private let lazySession = Mutex<URLSession?>(nil)

    /// Ends the transfer of a URL inside libcurl, without cancelling its
    /// task, which then completes by itself; whether it did. The species
    /// executable sets it, where Sources/URLSessionFixes is linked in and
    /// says why; nil elsewhere, and every stop cancels its task.
    package static let transferEnd = Mutex<(@Sendable (URL) -> Bool)?>(nil)

    /// A transport of its own URLSession, made at its first request.
    ///
    /// - Parameters:
    ///   - maxResponseSize: a larger body is refused, and stops downloading there.
    ///   - userAgent: the `User-Agent` of every request.
    public init(
        maxResponseSize: Int = SpeciesClient.Configuration.defaultMaxResponseSize,
        userAgent: String = "SpeciesKit/\(SpeciesRelease.version)"
    ) {
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
            configuration.httpAdditionalHeaders = ["User-Agent": userAgent, "Accept": "application/json"]
            let made = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
            session = made
            return made
        }
    }

    /// Sends `request` through URLSession, following redirects within its
    /// origin; see `HTTPTransport.send(_:)`.
    public func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        var hop = request
        for _ in 0...Self.maxRedirects {
            let response = try await exchange(hop)
            guard Self.redirects.contains(response.status), let location = response.header("Location"),
                let target = URL(string: location, relativeTo: hop.url)?.absoluteURL
            else { return response }
            guard let followed = Origin(request.url)?.follow(target) else {
                throw TransportError(
                    .redirectRefused, url: request.url,
                    detail: "it redirects to another origin (\(target.redacted)); not followed",
                    location: target.redacted)
            }
            hop.url = followed
        }
        throw TransportError(
            .redirectRefused, url: request.url, detail: "it redirects more than \(Self.maxRedirects) times")
    }

    private func exchange(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        var urlRequest = URLRequest(
            url: request.url, timeoutInterval: TimeLimits.sessionIdle(secondsLeft: request.limits.deadline.secondsLeft))
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        let exchange = Exchange(
            url: request.url, firstBytes: request.firstBytes, endTransfer: Self.transferEnd.withLock { $0 })
        let watch = Task { try await exchange.watch(request.limits) }
        defer { watch.cancel() }
        return try await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                guard exchange.await(continuation) else { return }
                Exchange.calls.async { [self, urlRequest] in
                    exchange.start(session.dataTask(with: urlRequest), registering: delegate)
                }
            }
        } onCancel: {
            exchange.stop(TransportError(.cancelled, url: request.url, detail: "cancelled"))
        }.get()
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

    init(maxResponseSize: Int) { self.maxResponseSize = maxResponseSize }

    func register(_ exchange: Exchange, for task: URLSessionTask) {
        exchanges.withLock { $0[task.taskIdentifier] = exchange }
    }

    func cancelAll() {
        for exchange in exchanges.withLock({ Array($0.values) }) {
            exchange.stop(TransportError(.cancelled, url: exchange.url, detail: "cancelled"))
        }
    }

    private func exchange(for task: URLSessionTask) -> Exchange? { exchanges.withLock { $0[task.taskIdentifier] } }

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
        if !exchange.append(data, limit: maxResponseSize) { exchange.stop(exchange.tooLarge(limit: maxResponseSize)) }
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
///
/// Every call into URLSession (making, resuming and cancelling the task) is
/// made on `calls`, a thread of its own, never on the caller's: such a call
/// may wait seconds for the session's queue, which FoundationNetworking
/// keeps busy reading a long header block in quadratic time or inflating a
/// body, and a caller held there would miss its deadline. Nor may it hold
/// one of the few threads Swift's concurrency runs on.
private final class Exchange: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Result<HTTPResponse, TransportError>, Never>?
        /// How it ended, when that came before the continuation.
        var ending: Result<HTTPResponse, TransportError>?
        var finished = false
        var task: URLSessionDataTask?
        var status: Int?
        var headers: [String: String] = [:]
        var body = Data()
    }

    /// A serial queue: it has a thread of its own, where a concurrent one
    /// would borrow the global queue's.
    static let calls = DispatchQueue(label: "species.urlsession-calls")

    let url: URL
    private let firstBytes: (@Sendable (Data) -> Void)?
    private let endTransfer: (@Sendable (URL) -> Bool)?
    private let state = Mutex(State())

    init(url: URL, firstBytes: (@Sendable (Data) -> Void)?, endTransfer: (@Sendable (URL) -> Bool)?) {
        (self.url, self.firstBytes, self.endTransfer) = (url, firstBytes, endTransfer)
    }

    /// On `calls`: resumes `task` for this exchange, unless it was stopped
    /// before it began.
    func start(_ task: URLSessionDataTask, registering delegate: SessionDelegate) {
        let stopped = state.withLock { state in
            state.task = task
            return state.finished
        }
        guard !stopped else { return task.cancel() }
        delegate.register(self, for: task)
        task.resume()
    }

    /// Keeps the continuation; false (and the continuation resumed) when
    /// the request was stopped before it started.
    func await(_ continuation: CheckedContinuation<Result<HTTPResponse, TransportError>, Never>) -> Bool {
        let ending = state.withLock { state in
            state.continuation = continuation
            return state.finished ? state.ending : nil
        }
        if let ending { continuation.resume(returning: ending) }
        return ending == nil
    }

    func receive(_ response: URLResponse) {
        guard let http = response as? HTTPURLResponse else { return }
        var headers: [String: String] = [:]
        for case let (name as String, value as String) in http.allHeaderFields { headers[name.lowercased()] = value }
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
                    Int(min(http.expectedContentLength, Int64(SpeciesClient.Configuration.defaultMaxResponseSize))))
            }
        }
    }

    /// Adds `data` to the body, unless the body would then pass `limit`;
    /// tells the first bytes of a success's body to `firstBytes`.
    func append(_ data: Data, limit: Int) -> Bool {
        let (fits, first) = state.withLock { state -> (Bool, Bool) in
            guard !state.finished else { return (true, false) }
            guard state.body.count <= limit - data.count else { return (false, false) }
            let first = state.body.isEmpty && (200..<300).contains(state.status ?? 0)
            state.body.append(data)
            return (true, first)
        }
        if first { firstBytes?(data) }
        return fits
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
        state.withLock { state in if !state.finished { answer(nil) } }
    }

    func tooLarge(limit: Int) -> TransportError {
        TransportError(
            .tooLarge, url: url, detail: "the response is larger than \(ByteCount.describe(limit))", limit: limit)
    }

    /// Ends the exchange with what arrived. FoundationNetworking does not
    /// hand a redirect's response to the delegate, so a redirect that is
    /// not followed (it has no Location) is read from the task's `final`.
    func complete(_ final: URLResponse?) {
        if let final, state.withLock({ $0.status == nil }) { receive(final) }
        let response = state.withLock { state in
            state.status.map { HTTPResponse(status: $0, headers: state.headers, body: state.body) }
        }
        finish(
            response.map { .success($0) }
                ?? .failure(TransportError(.other, url: url, detail: "the answer was not HTTP")))
    }

    /// Stops the exchange at its deadline, or when it falls below its
    /// minimum pace, looked at `MinimumPace.Meter.interval` apart; ends
    /// with the exchange, or when cancelled.
    func watch(_ limits: RequestLimits) async throws {
        let deadline = limits.deadline
        var meter = limits.minimumPace.map { MinimumPace.Meter($0, start: deadline.elapsed) }
        while true {
            guard !deadline.hasPassed else {
                let detail = "no complete answer before the \(TimeSpan.exactly(deadline.seconds)) timeout ran out"
                let begun = state.withLock { $0.status != nil }
                return stop(
                    TransportError(.timedOut, url: url, detail: detail, responseBegan: begun, seconds: deadline.seconds)
                )
            }
            try await deadline.sleep(meter == nil ? deadline.secondsLeft : TimeLimits.paceLook)
            guard let (begun, bytes) = state.withLock({ $0.finished ? nil : ($0.status != nil, $0.body.count) }) else {
                return
            }
            if let pace = meter?.pace, let why = meter?.shortfall(at: deadline.elapsed, begun: begun, bytes: bytes) {
                return stop(
                    TransportError(
                        .timedOut, url: url, detail: why, responseBegan: begun,
                        seconds: begun ? pace.window : pace.firstByte))
            }
        }
    }

    /// Ends the exchange with `error` before its task is done, and its
    /// transfer: inside libcurl where `endTransfer` can (a task begun), else
    /// by cancelling the task on `calls`. The caller goes on at once.
    func stop(_ error: TransportError) {
        guard finish(.failure(error)) else { return }
        let started = state.withLock { $0.task != nil }
        if started, endTransfer?(url) == true { return }
        Self.calls.async { [self] in state.withLock { $0.task }?.cancel() }
    }

    /// Resumes the continuation, unless the exchange has finished already;
    /// whether it did.
    @discardableResult func finish(_ result: Result<HTTPResponse, TransportError>) -> Bool {
        let continuation = state.withLock {
            state -> CheckedContinuation<Result<HTTPResponse, TransportError>, Never>?? in
            guard !state.finished else { return nil }
            state.finished = true
            state.ending = state.continuation == nil ? result : nil
            state.body = Data()
            defer { state.continuation = nil }
            return .some(state.continuation)
        }
        guard let continuation else { return false }
        continuation?.resume(returning: result)
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
        case .cannotConnectToHost: self.init(.connectionRefused, url: url, detail: "connection refused")
        case .notConnectedToInternet: self.init(.connectionRefused, url: url, detail: "no route to the network")
        case .cannotFindHost, .dnsLookupFailed: self.init(.unknownHost, url: url, detail: "unknown host")
        case .timedOut: self.init(.timedOut, url: url, detail: "timed out")
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
        case .cancelled: self.init(.cancelled, url: url, detail: "cancelled")
        default: self.init(.other, url: url, detail: message)
        }
        // FoundationNetworking's `.unknown` says less than the kind read
        // from curl's words.
        if urlError.code != .unknown { urlErrorCode = urlError.code }
    }
}
