import Foundation
import TestSupport

/// species as an end-to-end test runs it, the one way tests run it: a
/// build, a session of the fixture server as its one service (in
/// `SWAPI_BASE_URL`), the options that stand before every command line, and
/// the environment. Each suite makes one, as swift-argument-parser's
/// `AssertExecuteCommand` is one helper for all of its tests.
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
    ///   - environment: over `SWAPI_TIMEOUT=120`: a test that is not about
    ///     time has time to spare on a busy machine, whose test server may
    ///     take seconds to answer; a test about time says its `--timeout`.
    public init(
        _ session: ServerSession? = nil, options: [String] = [], fallback: Bool = true, cacheHome: URL? = nil,
        build: SpeciesBuild = .debug, environment: [String: String] = [:]
    ) {
        self.session = session
        self.options = options
        var environment = ["SWAPI_TIMEOUT": "120"].merging(environment) { $1 }
        if !fallback { environment["SWAPI_NO_FALLBACK"] = "1" }
        if let cacheHome { environment["XDG_CACHE_HOME"] = cacheHome.path }
        self.environment = environment
        self.build = build
    }

    /// Runs species with `arguments`, against the session's service as it
    /// is.
    public func callAsFunction(
        _ arguments: [String], dialect: String? = nil, build: SpeciesBuild? = nil,
        environment: [String: String] = [:], stdin: String? = nil, stdout: String? = nil,
        through wrapper: (@Sendable (_ species: String) -> [String])? = nil
    ) async throws -> ProcessResult {
        try await self(
            nil, arguments, dialect: dialect, build: build, environment: environment, stdin: stdin, stdout: stdout,
            through: wrapper)
    }

    /// Runs species with `arguments`, against the session's service with
    /// `fault` (docs of Tests/Tools/swapi_server.py), speaking `dialect`;
    /// `through` a program that starts it (a shell, `unshare`, `script`),
    /// the command line that runs the executable at the path it is given.
    public func callAsFunction(
        _ fault: String?, _ arguments: [String], dialect: String? = nil, build: SpeciesBuild? = nil,
        environment extra: [String: String] = [:], stdin: String? = nil, stdout: String? = nil,
        through wrapper: (@Sendable (_ species: String) -> [String])? = nil
    ) async throws -> ProcessResult {
        try await start(
            fault, arguments, dialect: dialect, build: build, environment: extra, stdin: stdin, stdout: stdout,
            through: wrapper
        ).result()
    }

    /// Starts species, as `callAsFunction` runs it, for a test that signals
    /// it or awaits its stop.
    public func start(
        _ fault: String? = nil, _ arguments: [String], dialect: String? = nil, build: SpeciesBuild? = nil,
        environment extra: [String: String] = [:], stdin: String? = nil, stdout: String? = nil,
        through wrapper: (@Sendable (_ species: String) -> [String])? = nil
    ) async throws -> RunningProcess {
        var environment = self.environment.merging(extra) { $1 }
        if let session, environment["SWAPI_BASE_URL"] == nil {
            environment["SWAPI_BASE_URL"] = try await session.root(fault: fault, dialect: dialect)
        }
        let species = try (build ?? self.build).url.path
        let line = (wrapper?(species) ?? [species]) + options + arguments
        return try ChildProcess.start(
            URL(fileURLWithPath: "/usr/bin/env"), line, environment: ChildProcess.environment(environment),
            stdin: stdin, stdout: stdout)
    }
}

/// A build of species that end-to-end tests run: the debug build beside
/// the tests, the installed one (the stripped release build with the Swift
/// runtime linked in, which takes other paths in the libcurl workarounds of
/// Sources/URLSessionFixes and at exit; `make test` installs it before
/// `swift test` runs), or the one a package put somewhere.
public struct SpeciesBuild: Sendable, CustomStringConvertible {
    /// The folder of the debug build, beside the test bundle: first on the
    /// PATH of a test that runs `species` by name.
    public static let debugFolder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    /// Where `make test` installs species.
    public static let installPrefix = Fixtures.packageRoot.appendingPathComponent(".build/test-install")
    /// The release build's folder, which `make test` keeps between runs.
    public static let scratch = Fixtures.packageRoot.appendingPathComponent(".build/test-release")

    public static let debug = SpeciesBuild(
        description: "debug", executable: debugFolder.appendingPathComponent("species"))
    public static let installed = SpeciesBuild(
        description: "installed", executable: installPrefix.appendingPathComponent("bin/species"))
    /// The builds whose paths differ.
    public static let allCases = [debug, installed]

    public struct Missing: Error, CustomStringConvertible {
        public let description: String
    }

    public let description: String
    private let executable: URL

    /// The species a package put at `executable`.
    public static func at(_ executable: URL) -> SpeciesBuild {
        SpeciesBuild(description: executable.path, executable: executable)
    }

    public var url: URL {
        get throws {
            guard FileManager.default.isExecutableFile(atPath: executable.path) else {
                throw Missing(
                    description: "\(executable.path) is missing; `make test` installs species before `swift test` runs")
            }
            return executable
        }
    }
}

extension ProcessResult {
    /// How long species took by its own clock, from its start to its end, in
    /// seconds: what `--verbose` says last ("done after N ms"), and so not
    /// what a busy machine adds to starting and ending a process. Nil
    /// without `--verbose`.
    public var ownSeconds: Double? {
        let last = stderr.split(separator: "\n").last { $0.hasPrefix("verbose: done after ") }
        return last.flatMap { Double($0.dropFirst("verbose: done after ".count).dropLast(" ms".count)) }.map {
            $0 / 1000
        }
    }

    /// stderr without the lines of `--verbose`.
    public var messages: String {
        stderr.split(separator: "\n").filter { !$0.hasPrefix("verbose: ") }.map { $0 + "\n" }.joined()
    }
}
