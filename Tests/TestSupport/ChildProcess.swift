import Foundation

/// How a child process ended, and what it wrote.
public struct ProcessResult: Sendable, CustomStringConvertible {
    /// The exit status, or the number of the signal that killed it.
    public let status: Int32
    public let killedBySignal: Bool
    public let stdout: String
    public let stderr: String
    /// From start to end, in seconds.
    public let seconds: Double

    public var description: String {
        "\(killedBySignal ? "killed by signal" : "exit status") \(status) after \(seconds) s\n"
            + "--- stdout\n\(stdout)--- stderr\n\(stderr)---"
    }
}

/// A child process that has been started; `result()` waits for its end.
public final class RunningProcess: Sendable {
    public let pid: Int32
    private let ended: AsyncStream<(status: Int32, signaled: Bool)>
    private let folder: URL
    private let started: Date

    fileprivate init(pid: Int32, ended: AsyncStream<(status: Int32, signaled: Bool)>, folder: URL, started: Date) {
        self.pid = pid
        self.ended = ended
        self.folder = folder
        self.started = started
    }

    public func signal(_ signal: Int32) {
        kill(pid, signal)
    }

    public func result() async throws -> ProcessResult {
        var end: (status: Int32, signaled: Bool) = (-1, false)
        for await value in ended { end = value }
        let seconds = Date().timeIntervalSince(started)
        defer { try? FileManager.default.removeItem(at: folder) }
        return ProcessResult(
            status: end.status, killedBySignal: end.signaled,
            stdout: String(decoding: try Data(contentsOf: folder.appendingPathComponent("stdout")), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: folder.appendingPathComponent("stderr")), as: UTF8.self),
            seconds: seconds)
    }
}

public enum ChildProcess {
    /// Starts `executable`. Its output goes to temporary files, so a large
    /// one cannot fill a pipe and stall it; after `timeout` seconds it is
    /// killed.
    public static func start(
        _ executable: URL, _ arguments: [String], environment: [String: String], timeout: Double = 60
    ) throws -> RunningProcess {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("species-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
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
        let (ended, finish) = AsyncStream<(status: Int32, signaled: Bool)>.makeStream()
        process.terminationHandler = { process in
            finish.yield((process.terminationStatus, process.terminationReason == .uncaughtSignal))
            finish.finish()
        }
        let started = Date()
        try process.run()
        let pid = process.processIdentifier
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout) {
            if process.isRunning { kill(pid, SIGKILL) }
        }
        return RunningProcess(pid: pid, ended: ended, folder: folder, started: started)
    }

    public static func run(
        _ executable: URL, _ arguments: [String], environment: [String: String], timeout: Double = 60
    ) async throws -> ProcessResult {
        try await start(executable, arguments, environment: environment, timeout: timeout).result()
    }
}

/// The `species` binary that `swift build` made, beside the test bundle.
public enum SpeciesBinary {
    public static let url = URL(fileURLWithPath: CommandLine.arguments[0])
        .deletingLastPathComponent().appendingPathComponent("species")

    /// A home for this test run alone, so that its cache starts empty; under
    /// .build, which `make clean` empties.
    public static let home = Fixtures.packageRoot.appendingPathComponent(".build/test-homes/\(UUID().uuidString)")

    /// An environment with nothing of the developer's in it: no `SWAPI_*`
    /// or `XDG_*` variables, a home of its own, a UTF-8 locale, and no crash
    /// backtraces.
    public static func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var environment = [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            "HOME": home.path,
            "LANG": "C.UTF-8",
            "SWIFT_BACKTRACE": "enable=no",
        ]
        environment.merge(extra) { $1 }
        return environment
    }

    public static func run(_ arguments: [String], environment extra: [String: String] = [:]) async throws -> ProcessResult {
        try await ChildProcess.run(url, arguments, environment: environment(extra))
    }

    /// Runs species and returns, with its result, its wall time as GNU time
    /// measures it (waiting on species itself), which a busy test runner
    /// does not delay; the runner's own measure when /usr/bin/time is missing.
    public static func timedRun(_ arguments: [String]) async throws -> (result: ProcessResult, seconds: Double) {
        let time = URL(fileURLWithPath: "/usr/bin/time")
        guard FileManager.default.isExecutableFile(atPath: time.path) else {
            let result = try await run(arguments)
            return (result, result.seconds)
        }
        let report = FileManager.default.temporaryDirectory.appendingPathComponent("species-time-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: report) }
        let result = try await ChildProcess.run(
            time, ["-f", "%e", "-o", report.path, url.path] + arguments, environment: environment())
        let measured = Double(String(decoding: try Data(contentsOf: report), as: UTF8.self)
            .split(separator: "\n").last ?? "") ?? result.seconds
        return (result, measured)
    }

    /// Starts species with SIGINT and SIGPIPE at their defaults, whatever
    /// the test runner's are, so that a test can interrupt it as Ctrl-C would.
    public static func startWithDefaultSignals(_ arguments: [String]) throws -> RunningProcess {
        let reset = "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); "
            + "signal.signal(signal.SIGPIPE, signal.SIG_DFL); os.execv(sys.argv[1], sys.argv[1:])"
        return try ChildProcess.start(
            URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", reset, url.path] + arguments,
            environment: environment())
    }
}
