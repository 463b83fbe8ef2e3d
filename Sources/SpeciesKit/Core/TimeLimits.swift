/// Every time limit of a client, in one table (docs/cli.md, "Time"): each
/// derived from the one deadline, the user's `--timeout`, where it can be,
/// and each with its reason. Nothing else in SpeciesKit writes a number of
/// seconds.
struct TimeLimits: Sendable, Equatable {
    /// The deadline of each answer: the user's clock. Every service, page,
    /// retry, wait, redirect and related resource ends within it.
    let timeout: Double
    /// RFC 8305's Connection Attempt Delay: a service quiet this long has
    /// the next asked beside it (`Configuration.attemptDelay`).
    var stagger = SpeciesClient.Configuration.defaultAttemptDelay

    /// A service that something follows must begin its answer within a
    /// fifth of the timeout, and at least 3 s (3 s at the default 15): a
    /// user who gives more time gives each service more patience, and a
    /// busy or distant network its TLS handshake.
    var firstByte: Double { max(Self.shortestFirstByte, timeout / 5) }
    static let shortestFirstByte = 3.0

    /// What a followed service keeps up: its first byte in time, then 1 KiB
    /// a second over each `firstByte` seconds (curl's `--speed-limit` and
    /// `--speed-time`).
    var pace: MinimumPace { MinimumPace(firstByte: firstByte, bytesPerSecond: 1024, window: firstByte) }

    /// Silence this long, no byte and no failure, proves a service down: the
    /// time a followed service is given. A run whose own clock ran out first
    /// proved nothing (docs/cli.md, "Which service answers").
    var silence: Double { firstByte }

    /// A minute: how long a service found down is not asked while something
    /// else can answer, as a circuit breaker waits.
    static let outage = 60.0

    /// How often a run that waits for another run's lock looks again: short
    /// against any deadline, long against a system call.
    static let lockPoll = 0.02

    /// The first retry waits half a second, each later one twice the one
    /// before, at most 8 s: a server that asks for less time is not kept
    /// waiting, and no back-off outgrows the default timeout's half.
    static let backoff = (first: 0.5, longest: 8.0)

    /// How often the transport looks at a response's pace.
    static let paceLook = 0.25

    /// A temporary file of the cache older than this is a killed writer's,
    /// whatever its process id says now: a write takes milliseconds.
    static let abandoned = 600.0

    /// URLSession's own idle limit: past the deadline, so that it never is
    /// the one that ends a request (it counts whole seconds of idle time).
    static func sessionIdle(secondsLeft: Double) -> Double { secondsLeft.rounded(.up) + 1 }
}
