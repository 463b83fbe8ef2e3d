import Synchronization

/// A clock that tests drive: its time moves only when code sleeps on it, at
/// once to the end of the sleep, or when a test advances it. A rule about
/// time (a deadline, a pace, a `Retry-After`) is so tested in microseconds,
/// and `elapsed` says how long the code would have taken.
public final class TestClock: Clock, Sendable {
    public struct Instant: InstantProtocol {
        public let offset: Duration

        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private let time = Mutex(Duration.zero)

    public init() {}

    public var now: Instant { Instant(offset: time.withLock { $0 }) }
    public var minimumResolution: Duration { .nanoseconds(1) }

    /// Seconds since the clock was made.
    public var elapsed: Double {
        let components = time.withLock { $0 }.components
        return Double(components.seconds) + Double(components.attoseconds) / 1e18
    }

    public func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        try Task.checkCancellation()
        time.withLock { $0 = max($0, deadline.offset) }
        await Task.yield()
    }

    /// Moves the clock on: work that takes `seconds`.
    public func advance(by seconds: Double) {
        time.withLock { $0 += .seconds(seconds) }
    }
}
