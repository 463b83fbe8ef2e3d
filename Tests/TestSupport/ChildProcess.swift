import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// How a child process ended, and what it wrote.
public struct ProcessResult: Sendable, CustomStringConvertible {
    /// The exit status, or the number of the signal that killed it.
    public let status: Int32
    public let killedBySignal: Bool
    public let stdout: String
    public let stderr: String
    /// From its start to its end as wait4 saw it, in seconds.
    public let seconds: Double
    /// User and system CPU time of the process and the children it waited
    /// for, in seconds.
    public let cpuSeconds: Double
    /// Its largest resident set, in bytes, as wait4 saw it: at least the
    /// process's own, and, as posix_spawn shares the parent's memory until
    /// exec, at least the test runner's then; a bound from above.
    public let peakMemory: Int

    public var description: String {
        "\(killedBySignal ? "killed by signal" : "exit status") \(status) after \(seconds) s\n"
            + "--- stdout\n\(stdout)--- stderr\n\(stderr)---"
    }
}

/// How wait4 saw a child end.
struct Ending: Sendable {
    let status: Int32
    let signaled: Bool
    let cpu: Double
    let seconds: Double
    let peakMemory: Int
}

/// A child process that has been started; `result()` waits for its end,
/// and `stopped()` for its first stop (SIGSTOP, which a test's hook in it
/// may raise at the moment the test is about).
public final class RunningProcess: Sendable {
    public let pid: Int32
    private let ended: AsyncStream<Ending>
    private let stops: AsyncStream<Void>
    private let folder: URL

    fileprivate init(pid: Int32, ended: AsyncStream<Ending>, stops: AsyncStream<Void>, folder: URL) {
        self.pid = pid
        self.ended = ended
        self.stops = stops
        self.folder = folder
    }

    public func signal(_ signal: Int32) {
        kill(pid, signal)
    }

    /// Whether the process stopped, once it has; false when it ended first.
    public func stopped() async -> Bool {
        for await _ in stops { return true }
        return false
    }

    public func result() async throws -> ProcessResult {
        var end = Ending(status: -1, signaled: false, cpu: 0, seconds: 0, peakMemory: 0)
        for await value in ended { end = value }
        defer { try? FileManager.default.removeItem(at: folder) }
        return ProcessResult(
            status: end.status, killedBySignal: end.signaled,
            stdout: String(decoding: try Data(contentsOf: folder.appendingPathComponent("stdout")), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: folder.appendingPathComponent("stderr")), as: UTF8.self),
            seconds: end.seconds, cpuSeconds: end.cpu, peakMemory: end.peakMemory)
    }
}

/// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later),
/// which Swift's Glibc module does not declare: the child closes every
/// descriptor from the one given. Nil on an older glibc, where only
/// descriptors opened close-on-exec stay out of a child.
private let closeFrom = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np").map {
    unsafeBitCast($0, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
}

/// Any program a test runs: a shell, make, jq, Python. species itself runs
/// through `SpeciesRunner`.
public enum ChildProcess {
    public struct SpawnError: Error, CustomStringConvertible {
        public let description: String
    }

    /// An environment with nothing of the developer's in it: no `SWAPI_*`
    /// or `XDG_*` variables, this test run's home, a UTF-8 locale, and no
    /// crash backtraces; then `extra`.
    public static func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var environment = [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            "HOME": Fixtures.home.path,
            "LANG": "C.UTF-8",
            "SWIFT_BACKTRACE": "enable=no",
        ]
        // What `make test` counts as this run's (its check of servers left behind).
        environment["SPECIES_TEST_RUN"] = ProcessInfo.processInfo.environment["SPECIES_TEST_RUN"]
        // A coverage run's profile goes where SwiftPM puts it, not into the
        // folder a child runs in (default.profraw).
        environment["LLVM_PROFILE_FILE"] = ProcessInfo.processInfo.environment["LLVM_PROFILE_FILE"]
        environment.merge(extra) { $1 }
        return environment
    }

    /// Starts `executable` with posix_spawn. Its output goes to temporary
    /// files, so a large one cannot fill a pipe and stall it; `stdout` may
    /// name another file instead (such as /dev/full), and `stdin` a file to
    /// read (else /dev/null). It gets those three and nothing else of this
    /// process: no other descriptor (a FIFO another child waits on would
    /// never close), no blocked signal (a thread of Swift's pool blocks
    /// SIGTERM, and a child would keep that mask), no ignored one. After
    /// `timeout` seconds it is killed: a net
    /// for a test gone wrong, far above what any run takes on a loaded
    /// machine. Its end and its stops are awaited with wait4, for its CPU
    /// time.
    public static func start(
        _ executable: URL, _ arguments: [String], environment: [String: String], timeout: Double = 600,
        stdin: String? = nil, stdout: String? = nil
    ) throws -> RunningProcess {
        let folder = Fixtures.temporaryFolder("process")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let stdoutFile = folder.appendingPathComponent("stdout")
        let stderrFile = folder.appendingPathComponent("stderr")
        try Data().write(to: stdoutFile)
        try Data().write(to: stderrFile)

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, stdin ?? "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdout ?? stdoutFile.path, O_WRONLY | O_TRUNC, 0)
        posix_spawn_file_actions_addopen(&actions, 2, stderrFile.path, O_WRONLY | O_TRUNC, 0)
        _ = closeFrom?(&actions, 3)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var signals = sigset_t()
        sigemptyset(&signals)
        posix_spawnattr_setsigmask(&attributes, &signals)
        sigfillset(&signals)
        posix_spawnattr_setsigdefault(&attributes, &signals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let started = Date()
        let code = posix_spawn(&pid, executable.path, &actions, &attributes, argv, envp)
        guard code == 0 else {
            throw SpawnError(description: "cannot start \(executable.path): \(String(cString: strerror(code)))")
        }
        let (ended, finish) = AsyncStream<Ending>.makeStream()
        let (stops, stop) = AsyncStream<Void>.makeStream()
        let child = pid
        Thread.detachNewThread {
            var status: Int32 = 0
            var usage = rusage()
            while wait4(child, &status, WUNTRACED, &usage) < 0 && errno == EINTR || status & 0xFF == 0x7F {
                if status & 0xFF == 0x7F {
                    stop.yield()
                    status = 0
                }
            }
            stop.finish()
            let cpu =
                Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
                + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
            let signaled = status & 0x7F != 0
            finish.yield(
                Ending(
                    status: signaled ? status & 0x7F : (status >> 8) & 0xFF, signaled: signaled, cpu: cpu,
                    seconds: Date().timeIntervalSince(started), peakMemory: usage.ru_maxrss * 1024))
            finish.finish()
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout) {
            kill(child, SIGKILL)
        }
        return RunningProcess(pid: pid, ended: ended, stops: stops, folder: folder)
    }

    public static func run(
        _ executable: URL, _ arguments: [String], environment: [String: String] = environment(), timeout: Double = 600,
        stdin: String? = nil, stdout: String? = nil
    ) async throws -> ProcessResult {
        try await start(executable, arguments, environment: environment, timeout: timeout, stdin: stdin, stdout: stdout)
            .result()
    }
}
