import Foundation

/// species as an end-to-end test runs it, in one place: a build, a session
/// of the fixture server as its one service (in `SWAPI_BASE_URL`, which the
/// commands that ask a service read and the others leave alone), the
/// options that stand before every command line, and the environment.
/// Each suite makes one, as swift-argument-parser's `AssertExecuteCommand`
/// is one helper for all of its tests.
public struct SpeciesRunner: Sendable {
    private let session: ServerSession?
    private let options: [String]
    private let environment: [String: String]
    private let build: SpeciesBuild

    /// - Parameters:
    ///   - session: the service; nil leaves the services to the line.
    ///   - options: before the arguments of each run.
    ///   - fallback: false sets `SWAPI_NO_FALLBACK=1`.
    ///   - cacheHome: `XDG_CACHE_HOME`.
    public init(
        _ session: ServerSession? = nil, options: [String] = [], fallback: Bool = true, cacheHome: URL? = nil,
        build: SpeciesBuild = .debug, environment: [String: String] = [:]
    ) {
        self.session = session
        self.options = options
        var environment = environment
        if !fallback { environment["SWAPI_NO_FALLBACK"] = "1" }
        if let cacheHome { environment["XDG_CACHE_HOME"] = cacheHome.path }
        self.environment = environment
        self.build = build
    }

    /// Runs species with `arguments`, against the session's service as it
    /// is.
    public func callAsFunction(
        _ arguments: [String], dialect: String? = nil, build: SpeciesBuild? = nil,
        environment: [String: String] = [:]
    ) async throws -> ProcessResult {
        try await self(nil, arguments, dialect: dialect, build: build, environment: environment)
    }

    /// Runs species with `arguments`, against the session's service with
    /// `fault` (docs of Tests/Tools/swapi_server.py), and speaking `dialect`.
    public func callAsFunction(
        _ fault: String?, _ arguments: [String], dialect: String? = nil, build: SpeciesBuild? = nil,
        environment extra: [String: String] = [:]
    ) async throws -> ProcessResult {
        var environment = self.environment.merging(extra) { $1 }
        if let session, environment["SWAPI_BASE_URL"] == nil {
            environment["SWAPI_BASE_URL"] = try await session.root(fault: fault, dialect: dialect)
        }
        return try await (build ?? self.build).run(options + arguments, environment: environment)
    }
}
