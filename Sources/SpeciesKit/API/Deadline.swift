import Foundation

/// The moment by which a whole answer must have ended: every service, page,
/// retry, wait and redirect of it. It is read on the client's clock: the
/// continuous clock by default, or one a test drives, so that a rule about
/// time is tested without waiting for it.
public struct Deadline: Sendable {
    /// The length it was set with, in seconds.
    public let seconds: Double
    let time: ClientTime
    private let end: Duration

    /// `seconds` from now on `clock`.
    public init(seconds: Double, clock: some Clock<Duration> = ContinuousClock()) {
        self.init(seconds: seconds, time: ClientTime(clock))
    }

    init(seconds: Double, time: ClientTime) {
        self.seconds = seconds
        self.time = time
        end = time.elapsed() + ClientTime.duration(seconds)
    }

    /// Seconds left before it passes; 0 once it has.
    public var secondsLeft: Double { max(0, ClientTime.seconds(end - time.elapsed())) }

    /// Whether it has passed.
    public var hasPassed: Bool { time.elapsed() >= end }

    /// Seconds on its clock, as a pace is measured.
    var elapsed: Double { ClientTime.seconds(time.elapsed()) }

    /// Waits `seconds`, or until the deadline when that comes first. Any
    /// number is safe: a wait may be a server's.
    public func sleep(_ seconds: Double) async throws {
        try await time.sleep(min(time.elapsed() + ClientTime.duration(seconds), end))
    }
}

/// The client's time, all of it read from one clock: how long since the
/// client was made, a wait on it, and the date that makes, from the one
/// reading of the system's date when the client was made. Cache dates,
/// `Retry-After` dates and deadlines so move together on a test's clock.
struct ClientTime: Sendable {
    /// Since the client was made.
    let elapsed: @Sendable () -> Duration
    /// Waits until `elapsed` is the given duration.
    let sleep: @Sendable (_ until: Duration) async throws -> Void
    private let start: Date

    /// `start`: the date when the client was made (tests give one).
    init<C: Clock<Duration>>(_ clock: C, start: Date = Date()) {
        let origin = clock.now
        elapsed = { origin.duration(to: clock.now) }
        sleep = { try await clock.sleep(until: origin.advanced(by: $0), tolerance: nil) }
        self.start = start
    }

    /// The date now.
    var now: Date { start.addingTimeInterval(Self.seconds(elapsed())) }

    /// Held within 0 and about 30 years, as no wait is longer.
    static func duration(_ seconds: Double) -> Duration { .seconds(seconds.isNaN ? 0 : min(max(seconds, 0), 1e9)) }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
