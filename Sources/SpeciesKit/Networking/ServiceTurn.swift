import Synchronization

/// One service's turn in a walk down a list of services (`ServiceList`,
/// docs/swapi-dialects.md "Which service answers"). Until the service first
/// answers, its requests end by the walk's end, so that the whole walk takes
/// at most the client's timeout; and while other services follow it, a
/// response that has not begun within `firstByteTimeout` gives way to them.
/// Once it has answered, its requests are bounded as any others.
final class ServiceTurn: Sendable {
    static let firstByteTimeout = 3.0

    /// The walk's length: the client's timeout.
    let walkSeconds: Double
    private let end: ContinuousClock.Instant
    /// Whether other services follow this one in the list.
    let followed: Bool
    private let answered = Mutex(false)

    init(walkSeconds: Double, end: ContinuousClock.Instant, followed: Bool) {
        self.walkSeconds = walkSeconds
        self.end = end
        self.followed = followed
    }

    var hasAnswered: Bool { answered.withLock { $0 } }

    func heard() {
        answered.withLock { $0 = true }
    }

    /// Seconds left before the walk's end.
    var secondsLeft: Double {
        let left = ContinuousClock.now.duration(to: end).components
        return max(0, Double(left.seconds) + Double(left.attoseconds) / 1e18)
    }

    /// The bound on how long a response may take to begin.
    var firstByteTimeout: Double? {
        followed ? Self.firstByteTimeout : nil
    }
}
