/// The moment by which a whole answer must have ended: every service, page,
/// retry, wait and redirect of it. It is read on the client's clock: the
/// continuous clock by default, or one a test drives, so that a rule about
/// time is tested without waiting for it.
public struct Deadline: Sendable {
    /// The length it was set with, in seconds.
    public let seconds: Double
    private let clock: Timekeeper
    private let end: Duration

    /// `seconds` from now on `clock`.
    public init(seconds: Double, clock: some Clock<Duration> = ContinuousClock()) {
        self.seconds = seconds
        self.clock = Timekeeper(clock)
        end = Self.duration(seconds)
    }

    /// Seconds left before it passes; 0 once it has.
    public var secondsLeft: Double {
        max(0, Self.seconds(end - clock.now()))
    }

    /// Whether it has passed.
    public var hasPassed: Bool {
        clock.now() >= end
    }

    /// Seconds since it was set.
    var elapsed: Double {
        Self.seconds(clock.now())
    }

    /// Waits `seconds`, or until the deadline when that comes first. Any
    /// number is safe: a wait may be a server's.
    public func sleep(_ seconds: Double) async throws {
        try await clock.sleep(min(clock.now() + Self.duration(seconds), end))
    }

    /// Held within 0 and about 30 years, as no wait is longer.
    private static func duration(_ seconds: Double) -> Duration {
        .seconds(seconds.isNaN ? 0 : min(max(seconds, 0), 1e9))
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}

/// A clock, reduced to what a deadline asks of it: the time since the
/// deadline was set, and a wait until a time since then.
private struct Timekeeper: Sendable {
    let now: @Sendable () -> Duration
    let sleep: @Sendable (Duration) async throws -> Void

    init<C: Clock<Duration>>(_ clock: C) {
        let origin = clock.now
        now = { origin.duration(to: clock.now) }
        sleep = { try await clock.sleep(until: origin.advanced(by: $0), tolerance: nil) }
    }
}
