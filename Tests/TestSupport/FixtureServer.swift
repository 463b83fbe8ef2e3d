import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `Tests/Tools/swapi_server.py`, started on a free port of 127.0.0.1. It
/// exits when the test process ends, because its stdin then closes.
public final class FixtureServer: Sendable {
    public struct StartError: Error, CustomStringConvertible {
        public let description: String
    }

    /// One server for the whole test run; tests keep apart by session.
    public static let shared = Task { try await FixtureServer.start() }

    public let port: Int
    /// `http`, or `https` when started with `--tls`.
    public let scheme: String
    private let process: Process
    /// Held open for the life of the server: when the test process ends, it
    /// closes, and the server ends too.
    private let stdin: FileHandle

    private init(port: Int, scheme: String, process: Process, stdin: FileHandle) {
        self.port = port
        self.scheme = scheme
        self.process = process
        self.stdin = stdin
    }

    public static func start(_ arguments: [String] = []) async throws -> FixtureServer {
        let script = Fixtures.packageRoot.appendingPathComponent("Tests/Tools/swapi_server.py")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path, "--port", "0", "--exit-with-stdin"] + arguments
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        let line = await readinessLine(from: output.fileHandleForReading)
        guard line.hasPrefix("listening on "),
            let port = line.split(separator: ":").last.flatMap({
                Int($0.trimmingCharacters(in: CharacterSet(charactersIn: "/\n")))
            })
        else {
            process.terminate()
            throw StartError(description: "the fixture server did not start: it said '\(line)'")
        }
        let scheme = line.hasPrefix("listening on https:") ? "https" : "http"
        return FixtureServer(port: port, scheme: scheme, process: process, stdin: input.fileHandleForWriting)
    }

    /// The server's first line, which it prints once it accepts
    /// connections, however long it takes to start (a busy machine makes
    /// the gzip bombs slowly); what it said before it ended, if it ended.
    private static func readinessLine(from handle: FileHandle) async -> String {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                var data = Data()
                while !data.contains(UInt8(ascii: "\n")) {
                    let chunk = handle.availableData
                    if chunk.isEmpty { break }
                    data.append(chunk)
                }
                continuation.resume(returning: String(decoding: data, as: UTF8.self))
            }
        }
    }

    /// The API root of a session: `http://127.0.0.1:PORT/<session>/api/`;
    /// `dialect` makes the session speak swapi.tech's or swapi.info's.
    public func root(session: String, dialect: String? = nil) -> String {
        "\(scheme)://127.0.0.1:\(port)/\(session)/" + (dialect.map { "dialect=\($0)/" } ?? "") + "api/"
    }

    /// Stops the server, as when a service goes away; returns at its end,
    /// without holding a thread of the test runner while it waits.
    public func stop() async {
        let ended = AsyncStream<Void> { continuation in
            process.terminationHandler = { _ in continuation.finish() }
            if !process.isRunning { continuation.finish() }
        }
        // SIGKILL: the server inherits a signal mask that blocks SIGTERM
        // from the thread that started it.
        kill(process.processIdentifier, SIGKILL)
        for await _ in ended {}
    }

    /// A fresh session name, so that a test counts only its own requests.
    public static func newSession() -> String {
        "t" + UUID().uuidString.prefix(8).lowercased()
    }

    /// The paths requested in `session` so far, in order; with `atLeast`,
    /// once there are that many: the server answers when the request comes,
    /// so no one polls.
    public func requests(session: String, atLeast count: Int = 0) async throws -> [String] {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/\(session)/_log?wait=\(count)")!)
        request.timeoutInterval = 600
        let (data, _) = try await URLSession.shared.data(for: request)
        return try JSONDecoder().decode([String].self, from: data)
    }
}
