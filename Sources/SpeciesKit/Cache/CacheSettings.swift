import Foundation

/// How responses are kept and reused (see `CachingTransport`).
public struct CacheSettings: Sendable, Equatable {
    public static let defaultMaxAge = 86_400.0

    /// Nil: no cache at all (`--no-cache`, or neither XDG_CACHE_HOME nor HOME).
    public var directory: URL?
    /// Seconds during which an entry is answered without asking the server.
    public var maxAge: Double
    public var mode: CachingTransport.Mode

    public init(directory: URL?, maxAge: Double = defaultMaxAge, mode: CachingTransport.Mode = .normal) {
        self.directory = directory
        self.maxAge = maxAge
        self.mode = mode
    }
}
