import Synchronization

/// One service's turn in a walk down a list of services (`ServiceList`,
/// docs/swapi-dialects.md "Which service answers"). The walk has one
/// budget, the client's timeout: until the service first answers, its
/// requests end by the budget's end, so that the services after it get what
/// is left. While others follow it, every request of its must keep up
/// `MinimumPace.followed`, the first and the last alike: one that does not
/// gives way to them.
final class ServiceTurn: Sendable {
    /// The budget's length: the client's timeout.
    let budgetSeconds: Double
    private let end: ContinuousClock.Instant
    /// Whether other services follow this one in the list.
    let followed: Bool
    private let answered = Mutex(false)

    init(budgetSeconds: Double, end: ContinuousClock.Instant, followed: Bool) {
        self.budgetSeconds = budgetSeconds
        self.end = end
        self.followed = followed
    }

    var hasAnswered: Bool { answered.withLock { $0 } }

    func heard() {
        answered.withLock { $0 = true }
    }

    /// Seconds left before the budget's end.
    var secondsLeft: Double {
        let left = ContinuousClock.now.duration(to: end).components
        return max(0, Double(left.seconds) + Double(left.attoseconds) / 1e18)
    }

    /// The pace each request must keep.
    var pace: MinimumPace? {
        followed ? .followed : nil
    }
}
