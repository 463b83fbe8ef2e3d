/// Requests numbered 1, 2, 3, … made as children of a task group, at most
/// `limit` at once and no further than the number wanted: the pages of a
/// walk, the links of `--related`.
struct CappedRequests<Value: Sendable> {
    /// A request's answer, as its child task hands it back.
    struct Arrival: Sendable {
        let number: Int
        let result: Result<Value, any Error>
    }

    private let limit: Int
    private let request: @Sendable (Int) async throws -> Value
    /// Requests up to this number are made.
    private(set) var wanted: Int
    private var started = 0
    private var inFlight = 0

    init(wanted: Int, limit: Int, request: @escaping @Sendable (Int) async throws -> Value) {
        self.wanted = wanted
        self.limit = max(1, limit)
        self.request = request
    }

    /// Makes requests up to `count` at least.
    mutating func want(_ count: Int) {
        wanted = max(wanted, count)
    }

    /// Makes no request up to `number`: its answer is at hand.
    mutating func skip(through number: Int) {
        started = max(started, number)
    }

    /// The next answer to come in, once the requests wanted and allowed
    /// are made; nil when none is in flight.
    mutating func next(in group: inout ThrowingTaskGroup<Arrival, any Error>) async throws -> Arrival? {
        while started < wanted, inFlight < limit {
            started += 1
            inFlight += 1
            let (number, request) = (started, request)
            group.addTask { Arrival(number: number, result: await .capturing { try await request(number) }) }
        }
        guard let arrival = try await group.next() else { return nil }
        inFlight -= 1
        return arrival
    }
}

extension Result where Failure == any Error {
    /// What `body` returns, or the error it throws.
    static func capturing(_ body: () async throws -> Success) async -> Result {
        do {
            return .success(try await body())
        } catch {
            return .failure(error)
        }
    }
}
