import Foundation

/// How the client uses its cache of responses.
public struct CachePolicy: Sendable, Equatable {
    /// When an entry is the answer.
    public enum Mode: Sendable, Equatable {
        /// A fresh entry is the answer; a stale one is revalidated.
        case normal
        /// Every entry used is revalidated with the server.
        case refresh
        /// The cache only, whatever the age of its entries; never the
        /// network, and, with the client's fallback, the built-in data
        /// where the cache has no answer.
        case offline
    }

    /// A day, in seconds: how long an entry answers by default.
    public static let defaultMaxAge = 86_400.0

    /// Where the entries are kept, an absolute file URL (a relative one is
    /// refused, as a bad question); nil for no cache at all.
    public var directory: URL?
    /// Seconds during which an entry is the answer without asking the server.
    public var maxAge: Double
    /// When an entry is the answer, and when the server is asked.
    public var mode: Mode
    /// Seconds a client keeps an answer in memory, from when the oldest
    /// response it was made of was fetched; nil: `maxAge`. 0 keeps none.
    /// ``SpeciesClient/invalidate()`` drops them sooner.
    public var memoryLifetime: Double?

    /// How long answers are kept in memory.
    var keptFor: Double { memoryLifetime ?? maxAge }

    /// Whether what was fetched, or confirmed, at `date` may answer at
    /// `now`: at most `maxAge` seconds before it, and not after (a clock
    /// set back).
    static func isFresh(_ date: Date, now: Date, maxAge: Double) -> Bool {
        let age = now.timeIntervalSince(date)
        return age >= 0 && age < maxAge
    }

    /// A cache in `directory` (none when nil).
    public init(directory: URL?, maxAge: Double = defaultMaxAge, mode: Mode = .normal, memoryLifetime: Double? = nil) {
        self.directory = directory
        self.maxAge = maxAge
        self.mode = mode
        self.memoryLifetime = memoryLifetime
    }
}
