import Synchronization

/// Bounds each request from its start to its last byte: the one deadline
/// of a request (URLSession's own timeout counts only idle time, in whole
/// seconds, and is set out of the way). The deadline holds
/// whatever the transport below is doing: when it passes, the request is
/// cancelled and the caller goes on at once, without waiting for the
/// transport to notice. In a service's turn (`ServiceTurn`), the request
/// keeps the turn's pace, and until the service answers, the budget's end
/// bounds it too.
struct DeadlineTransport: HTTPTransport {
    private let base: any HTTPTransport
    private let seconds: Double
    private let turn: ServiceTurn?

    init(_ base: any HTTPTransport, seconds: Double, turn: ServiceTurn? = nil) {
        self.base = base
        self.seconds = seconds
        self.turn = turn
    }

    func send(_ asked: HTTPRequest) async throws -> HTTPResponse {
        var bounded = asked
        var seconds = self.seconds
        var detail = "no complete answer within \(TimeSpan.exactly(seconds))"
        if let turn {
            bounded.minimumPace = turn.pace
            if !turn.hasAnswered, turn.secondsLeft < seconds {
                seconds = turn.secondsLeft
                detail =
                    "no complete answer before the \(TimeSpan.exactly(turn.budgetSeconds)) for the list of services ran out"
            }
        }
        let race = Race<HTTPResponse>()
        let base = self.base, limit = seconds, timedOut = detail, request = bounded
        let response = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                race.start(continuation)
                race.run { try await base.send(request) }
                race.run {
                    try await Pause.seconds(limit)
                    throw TransportError(.timedOut(seconds: limit), url: request.url, detail: timedOut)
                }
            }
        } onCancel: {
            race.cancel()
        }
        turn?.heard()
        return response
    }
}

/// Tasks that race to resume one continuation: the first to end wins, and
/// the others are cancelled and not waited for.
private final class Race<Value: Sendable>: Sendable {
    private let state = Mutex(
        (continuation: CheckedContinuation<Value, any Error>?.none, tasks: [Task<Void, Never>](), over: false))

    func start(_ continuation: CheckedContinuation<Value, any Error>) {
        let cancelled = state.withLock { state in
            state.continuation = continuation
            return state.over
        }
        if cancelled { continuation.resume(throwing: CancellationError()) }
    }

    func run(_ body: @escaping @Sendable () async throws -> Value) {
        let task = Task { [self] in finish(await .capturing(body)) }
        let late = state.withLock { state in
            state.tasks.append(task)
            return state.over
        }
        if late { task.cancel() }
    }

    func cancel() {
        finish(.failure(CancellationError()))
    }

    private func finish(_ result: Result<Value, any Error>) {
        let (continuation, tasks) = state.withLock {
            state -> (CheckedContinuation<Value, any Error>?, [Task<Void, Never>]) in
            guard !state.over else { return (nil, []) }
            state.over = true
            defer { state.continuation = nil }
            return (state.continuation, state.tasks)
        }
        tasks.forEach { $0.cancel() }
        continuation?.resume(with: result)
    }
}
