/// Bounds each request from its start to its last byte. URLSession's own
/// timeout only counts idle time in whole seconds, so a server that drips a
/// byte a second would never time out without this.
struct DeadlineTransport: HTTPTransport {
    private let base: any HTTPTransport
    private let seconds: Double

    init(_ base: any HTTPTransport, seconds: Double) {
        self.base = base
        self.seconds = seconds
    }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let seconds = self.seconds
        return try await withThrowingTaskGroup(of: HTTPResponse?.self) { group in
            group.addTask { try await base.send(request) }
            group.addTask {
                try await Pause.seconds(seconds)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let response = first else {
                throw TransportError(
                    .timedOut(seconds: seconds), url: request.url,
                    detail: "no complete answer within \(Self.describe(seconds)) (--timeout)")
            }
            return response
        }
    }

    /// `15 s`, `0.5 s`.
    static func describe(_ seconds: Double) -> String {
        seconds == seconds.rounded() && seconds < 1e15 ? "\(Int(seconds)) s" : "\(seconds) s"
    }
}
