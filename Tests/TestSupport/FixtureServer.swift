import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `Tests/Tools/swapi_server.py`, started on a free port of 127.0.0.1. It
/// exits when the test process ends, because its stdin, a FIFO that only
/// this process holds open for writing, then closes.
public final class FixtureServer: Sendable {
    public struct StartError: Error, CustomStringConvertible {
        public let description: String
    }

    /// One server for the whole test run; tests keep apart by session.
    public static let shared = Task { try await FixtureServer.start() }

    public let port: Int
    /// `http`, or `https` when started with `--tls`.
    public let scheme: String
    private let process: RunningProcess

    private init(port: Int, scheme: String, process: RunningProcess) {
        self.port = port
        self.scheme = scheme
        self.process = process
    }

    public static func start(_ arguments: [String] = []) async throws -> FixtureServer {
        let script = Fixtures.packageRoot.appendingPathComponent("Tests/Tools/swapi_server.py")
        let folder = Fixtures.temporaryFolder("server")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let (input, output) = (
            folder.appendingPathComponent("stdin").path, folder.appendingPathComponent("stdout").path
        )
        // Opened both ways, neither waits for the other end; the writer of
        // stdin stays open for the life of the test process.
        guard mkfifo(input, 0o600) == 0, mkfifo(output, 0o600) == 0, open(input, O_RDWR | O_CLOEXEC) >= 0 else {
            throw StartError(description: "cannot make the server's FIFOs in \(folder.path)")
        }
        let reader = open(output, O_RDWR | O_CLOEXEC)
        defer { close(reader) }
        let process = try ChildProcess.start(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["python3", script.path, "--port", "0", "--exit-with-stdin"] + arguments,
            environment: ChildProcess.environment(), timeout: 86_400, stdin: input, stdout: output)
        let line = await readinessLine(from: reader)
        guard line.hasPrefix("listening on "),
            let port = line.split(separator: ":").last.flatMap({
                Int($0.trimmingCharacters(in: CharacterSet(charactersIn: "/\n")))
            })
        else {
            process.signal(SIGKILL)
            throw StartError(description: "the fixture server did not start: it said '\(line)'")
        }
        let scheme = line.hasPrefix("listening on https:") ? "https" : "http"
        return FixtureServer(port: port, scheme: scheme, process: process)
    }

    /// The server's first line, which it prints once it accepts
    /// connections, however long it takes to start (a busy machine makes
    /// the gzip bombs slowly).
    private static func readinessLine(from descriptor: Int32) async -> String {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                var data = Data()
                var byte: UInt8 = 0
                while byte != UInt8(ascii: "\n"), read(descriptor, &byte, 1) == 1 { data.append(byte) }
                continuation.resume(returning: String(decoding: data, as: UTF8.self))
            }
        }
    }

    /// The API root of a session: `http://127.0.0.1:PORT/<session>/api/`;
    /// `dialect` makes the session speak swapi.tech's or swapi.info's.
    public func root(session: String, dialect: String? = nil) -> String {
        "\(scheme)://127.0.0.1:\(port)/\(session)/" + (dialect.map { "dialect=\($0)/" } ?? "") + "api/"
    }

    /// Stops the server, as when a service goes away; returns at its end.
    public func stop() async {
        process.signal(SIGKILL)
        _ = try? await process.result()
    }

    /// A fresh session name, so that a test counts only its own requests.
    public static func newSession() -> String {
        "t" + UUID().uuidString.prefix(8).lowercased()
    }

    /// The paths requested in `session` so far, in order; with `atLeast`,
    /// once there are that many: the server answers when the request comes,
    /// so no one polls.
    public func requests(session: String, atLeast count: Int = 0, agents: Bool = false, sent: Bool = false)
        async throws -> [String]
    {
        let chosen = agents ? "&agents=1" : sent ? "&sent=1" : ""
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/\(session)/_log?wait=\(count)\(chosen)")!)
        request.timeoutInterval = 600
        let (data, _) = try await URLSession.shared.data(for: request)
        return try JSONDecoder().decode([String].self, from: data)
    }
}
