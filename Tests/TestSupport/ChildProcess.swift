import Foundation

/// How a child process ended, and what it wrote.
public struct ProcessResult: Sendable, CustomStringConvertible {
    public let status: Int32
    public let stdout: String
    public let stderr: String

    public var description: String {
        "exit status \(status)\n--- stdout\n\(stdout)--- stderr\n\(stderr)---"
    }
}

public enum ChildProcess {
    /// Runs `executable` to its end and returns its status and output. Output
    /// goes to temporary files, so a large one cannot fill a pipe and stall
    /// the child. A child still running after `timeout` seconds is killed.
    public static func run(
        _ executable: URL, _ arguments: [String], environment: [String: String], timeout: Double = 60
    ) async throws -> ProcessResult {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("species-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let stdoutFile = folder.appendingPathComponent("stdout")
        let stderrFile = folder.appendingPathComponent("stderr")
        try Data().write(to: stdoutFile)
        try Data().write(to: stderrFile)

        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: stdoutFile)
        process.standardError = try FileHandle(forWritingTo: stderrFile)

        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do {
                try process.run()
            } catch {
                continuation.resume(throwing: error)
                return
            }
            let pid = process.processIdentifier
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout) {
                if process.isRunning { kill(pid, SIGKILL) }
            }
        }
        return ProcessResult(
            status: status,
            stdout: String(decoding: try Data(contentsOf: stdoutFile), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: stderrFile), as: UTF8.self))
    }
}

/// The `species` binary that `swift build` made, beside the test bundle.
public enum SpeciesBinary {
    public static let url = URL(fileURLWithPath: CommandLine.arguments[0])
        .deletingLastPathComponent().appendingPathComponent("species")

    /// An environment with nothing of the developer's in it: no
    /// `SWAPI_BASE_URL`, a home of its own, a UTF-8 locale.
    public static func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var environment = [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            "HOME": FileManager.default.temporaryDirectory.appendingPathComponent("species-test-home").path,
            "LANG": "C.UTF-8",
        ]
        environment.merge(extra) { $1 }
        return environment
    }

    public static func run(_ arguments: [String], environment extra: [String: String] = [:]) async throws -> ProcessResult {
        try await ChildProcess.run(url, arguments, environment: environment(extra))
    }
}
