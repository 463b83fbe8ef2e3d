import Foundation

/// species as `make install` puts it: the stripped release build with the
/// Swift runtime linked in, which takes other paths than the debug build in
/// the libcurl workarounds (Sources/URLSessionFixes) and at exit. Built once
/// a test run, in a folder of its own under .build.
public enum InstalledSpecies {
    /// The installed executable.
    public static let url = Task { try await install(prefix: prefix) }

    public static let prefix = Fixtures.packageRoot.appendingPathComponent(".build/test-install/\(UUID().uuidString)")
    /// The release build's folder, kept between runs: `swift test` holds .build's own.
    public static let scratch = Fixtures.packageRoot.appendingPathComponent(".build/test-release")

    public struct InstallError: Error, CustomStringConvertible {
        public let description: String
    }

    /// Runs `make install` into `prefix`; the executable's URL.
    public static func install(prefix: URL) async throws -> URL {
        let result = try await ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            [
                "make", "-s", "-C", Fixtures.packageRoot.path, "install", "PREFIX=\(prefix.path)",
                "SCRATCH=\(scratch.path)",
            ],
            environment: SpeciesBinary.environment(), timeout: 600)
        guard result.status == 0 else { throw InstallError(description: "make install failed: \(result)") }
        return prefix.appendingPathComponent("bin/species")
    }

    public static func run(_ arguments: [String], environment extra: [String: String] = [:]) async throws
        -> ProcessResult
    {
        try await ChildProcess.run(try await url.value, arguments, environment: SpeciesBinary.environment(extra))
    }
}

/// The two builds of species that end-to-end tests run where their paths
/// differ: the debug build beside the tests, and the installed one.
public enum SpeciesBuild: String, CaseIterable, Sendable, CustomStringConvertible {
    case debug, installed

    public var description: String { rawValue }

    public var url: URL {
        get async throws {
            switch self {
            case .debug: SpeciesBinary.url
            case .installed: try await InstalledSpecies.url.value
            }
        }
    }

    public func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> ProcessResult {
        try await ChildProcess.run(try await url, arguments, environment: SpeciesBinary.environment(environment))
    }
}
