import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// `HTTPTransport` through `species-http`, a helper process that owns
/// URLSession. Linking FoundationNetworking loads libcurl and some thirty
/// libraries it needs, about 4 ms at every start; through the helper,
/// `species` pays that only when it goes to the network, and a crash inside
/// FoundationNetworking ends the helper, not the command.
///
/// The helper starts at the first request and serves all of them, several
/// at once, over a socket pair; it ends when `species` does. If it dies,
/// its requests fail as dropped connections (so they are retried) and the
/// next request starts a new one.
public final class HelperTransport: HTTPTransport {
    public static let executableName = "species-http"

    public struct Configuration: Sendable {
        public var executable: URL
        public var maxResponseSize: Int
        public var idleTimeout: Double

        public init(executable: URL, maxResponseSize: Int, idleTimeout: Double) {
            self.executable = executable
            self.maxResponseSize = maxResponseSize
            self.idleTimeout = idleTimeout
        }

        var arguments: [String] {
            ["--max-response-size", String(maxResponseSize), "--idle-timeout", String(idleTimeout)]
        }
    }

    private let configuration: Configuration
    private let state = Mutex<(connection: HelperConnection?, lastID: Int)>((nil, 0))

    public init(_ configuration: Configuration) {
        self.configuration = configuration
    }

    /// The helper beside this executable (a development build), else in
    /// `../libexec/species/` (an installed one); `SPECIES_HTTP_HELPER` names
    /// another.
    public static func locateHelper(environment: [String: String]) -> URL {
        if let path = environment["SPECIES_HTTP_HELPER"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        let folder = URL(fileURLWithPath: executable).deletingLastPathComponent()
        let candidates = [
            folder.appendingPathComponent(executableName),
            folder.deletingLastPathComponent().appendingPathComponent("libexec/species/\(executableName)"),
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[0]
    }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let (connection, id) = try state.withLock { state throws(TransportError) -> (HelperConnection, Int) in
            let connection: HelperConnection
            if let current = state.connection, current.isOpen {
                connection = current
            } else {
                connection = try HelperConnection.start(configuration, for: request.url)
                state.connection = connection
            }
            state.lastID += 1
            return (connection, state.lastID)
        }
        return try await connection.fetch(request, id: id)
    }
}

/// One running helper: the socket to it, and the requests awaiting replies.
private final class HelperConnection: Sendable {
    /// A request awaiting its response, and the response as it arrives.
    private struct Pending {
        let url: URL
        let continuation: CheckedContinuation<HTTPResponse, any Error>
        var status = 0
        var headers: [String: String] = [:]
        var body = Data()
    }

    private struct State {
        var waiting: [Int: Pending] = [:]
        var cancelled: Set<Int> = []
        var open = true
    }

    private let socket: Int32
    private let pid: pid_t
    private let state = Mutex(State())
    private let writing = Mutex(())
    private let stderrTail = Mutex("")
    private let stderrClosed = DispatchSemaphore(value: 0)

    private init(socket: Int32, pid: pid_t) {
        self.socket = socket
        self.pid = pid
    }

    var isOpen: Bool { state.withLock { $0.open } }

    static func start(_ configuration: HelperTransport.Configuration, for url: URL) throws(TransportError) -> HelperConnection {
        func failure(_ what: String) -> TransportError {
            TransportError(.other, url: url, detail: "cannot start the HTTP helper \(configuration.executable.path): \(what)")
        }
        var sockets: [Int32] = [0, 0]
        var errorPipe: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &sockets) == 0 else {
            throw failure(String(cString: strerror(errno)))
        }
        guard pipe(&errorPipe) == 0 else {
            close(sockets[0])
            close(sockets[1])
            throw failure(String(cString: strerror(errno)))
        }
        for descriptor in errorPipe {
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        }
        var environment = ProcessInfo.processInfo.environment
        // A crash of the helper is reported by species; a backtrace would only
        // delay it.
        environment["SWIFT_BACKTRACE"] = "enable=no"
        // FoundationNetworking creates ~/.cache/org.swift.foundation.URLCache/
        // and ~/.local/share/<process>/ when it starts, whatever the session's
        // urlCache; it goes without them where no folder can be made.
        environment["XDG_CACHE_HOME"] = "/dev/null"
        environment["XDG_DATA_HOME"] = "/dev/null"
        var pid: pid_t = 0
        let code = spawn(
            configuration.executable.path, arguments: configuration.arguments, environment: environment,
            stdin: sockets[1], stdout: sockets[1], stderr: errorPipe[1], pid: &pid)
        close(sockets[1])
        close(errorPipe[1])
        guard code == 0 else {
            close(sockets[0])
            close(errorPipe[0])
            throw failure(String(cString: strerror(code)))
        }
        let connection = HelperConnection(socket: sockets[0], pid: pid)
        Thread.detachNewThread { connection.readReplies() }
        let errors = errorPipe[0]
        Thread.detachNewThread { connection.readErrors(from: errors) }
        return connection
    }

    func fetch(_ request: HTTPRequest, id: Int) async throws -> HTTPResponse {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let refusal = state.withLock { state -> TransportError? in
                    if state.cancelled.contains(id) { return TransportError(.cancelled, url: request.url, detail: "cancelled") }
                    guard state.open else { return stopped(url: request.url) }
                    state.waiting[id] = Pending(url: request.url, continuation: continuation)
                    return nil
                }
                if let refusal {
                    continuation.resume(throwing: refusal)
                } else if !write(HelperWire.encode(HelperWire.Command.fetch(request, id: id))) {
                    resume(id, with: .failure(stopped(url: request.url)))
                }
            }
        } onCancel: {
            state.withLock { _ = $0.cancelled.insert(id) }
            resume(id, with: .failure(TransportError(.cancelled, url: request.url, detail: "cancelled")))
            _ = write(HelperWire.encode(HelperWire.Command.cancel(id)))
        }
    }

    private func resume(_ id: Int, with result: Result<HTTPResponse, TransportError>) {
        state.withLock { $0.waiting.removeValue(forKey: id) }?.continuation.resume(with: result)
    }

    /// Adds an event of the helper to the response of request `id`.
    private func receive(_ event: HelperWire.Reply.Event, body: Data, for id: Int) {
        switch event {
        case .head(let status, let headers):
            state.withLock { state in
                state.waiting[id]?.status = status
                state.waiting[id]?.headers = headers
                if let length = headers["content-length"].flatMap(Int.init), length > 0 {
                    state.waiting[id]?.body.reserveCapacity(length)
                }
            }
        case .data:
            state.withLock { $0.waiting[id]?.body.append(body) }
        case .end:
            guard let pending = state.withLock({ $0.waiting.removeValue(forKey: id) }) else { return }
            pending.continuation.resume(returning: HTTPResponse(status: pending.status, headers: pending.headers, body: pending.body))
        case .failure(let error):
            resume(id, with: .failure(error))
        }
    }

    /// Writes a whole message; false when the helper is gone. MSG_NOSIGNAL:
    /// a dead helper must not take species down with SIGPIPE.
    private func write(_ message: Data) -> Bool {
        writing.withLock { _ in
            message.withUnsafeBytes { raw in
                guard let base = raw.baseAddress else { return true }
                var offset = 0
                while offset < raw.count {
                    let sent = Glibc.send(socket, base + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                    if sent > 0 {
                        offset += sent
                    } else if sent < 0 && errno == EINTR {
                        continue
                    } else {
                        return false
                    }
                }
                return true
            }
        }
    }

    /// Runs on a thread of its own until the helper closes the socket.
    private func readReplies() {
        var reader = FrameReader<HelperWire.Reply>()
        var buffer = [UInt8](repeating: 0, count: 256 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            guard let replies = try? buffer.withUnsafeBytes({ try reader.read(UnsafeRawBufferPointer(rebasing: $0[0..<count])) })
            else { break }
            for (reply, body) in replies {
                receive(reply.event, body: body, for: reply.id)
            }
        }
        close(socket)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        _ = stderrClosed.wait(timeout: .now() + 1)
        let waiting = state.withLock { state in
            state.open = false
            defer { state.waiting.removeAll() }
            return state.waiting
        }
        let reason = helperEnd(status: status)
        for pending in waiting.values {
            pending.continuation.resume(throwing: TransportError(.connectionLost, url: pending.url, detail: reason))
        }
    }

    /// Keeps the end of what the helper writes on stderr, to explain its end.
    private func readErrors(from descriptor: Int32) {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(descriptor, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            let text = String(decoding: buffer[0..<count], as: UTF8.self)
            stderrTail.withLock { $0 = String(($0 + text).suffix(2000)) }
        }
        close(descriptor)
        stderrClosed.signal()
    }

    private func helperEnd(status: Int32) -> String {
        let said = stderrTail.withLock { $0 }.split(separator: "\n").last.map { ": \($0)" } ?? ""
        let signal = status & 0x7F
        return signal != 0 ? "the HTTP helper crashed (signal \(signal))\(said)" : "the HTTP helper stopped\(said)"
    }

    private func stopped(url: URL) -> TransportError {
        TransportError(.connectionLost, url: url, detail: "the HTTP helper stopped")
    }

    /// posix_spawn with the three standard descriptors given; its error code.
    private static func spawn(
        _ path: String, arguments: [String], environment: [String: String], stdin: Int32, stdout: Int32, stderr: Int32,
        pid: inout pid_t
    ) -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, stdin, 0)
        posix_spawn_file_actions_adddup2(&actions, stdout, 1)
        posix_spawn_file_actions_adddup2(&actions, stderr, 2)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        return posix_spawn(&pid, path, &actions, nil, argv, envp)
    }
}
