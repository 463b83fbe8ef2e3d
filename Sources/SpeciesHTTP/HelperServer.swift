import Foundation
import SpeciesKit
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The loop of `species-http`: reads fetch and cancel commands from stdin,
/// runs each fetch through URLSession at once, and writes each reply to
/// stdout when it is ready (see `HelperWire`). It ends when stdin closes.
public enum HelperServer {
    public static func serve(arguments: [String]) async -> Int32 {
        var maxResponseSize = ConnectionSettings.defaultMaxResponseSize
        var idleTimeout = ConnectionSettings.defaultTimeout
        for (option, value) in zip(arguments, arguments.dropFirst()) {
            switch option {
            case "--max-response-size": maxResponseSize = Int(value) ?? maxResponseSize
            case "--idle-timeout": idleTimeout = Double(value) ?? idleTimeout
            default: continue
            }
        }
        let server = Server(transport: URLSessionTransport(maxResponseSize: maxResponseSize, idleTimeout: idleTimeout))
        await withCheckedContinuation { (finished: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread {
                server.readCommands()
                finished.resume()
            }
        }
        return 0
    }
}

private final class Server: Sendable {
    private let transport: URLSessionTransport
    private let fetches = Mutex<[Int: Task<Void, Never>]>([:])
    private let writing = Mutex(())

    init(transport: URLSessionTransport) {
        self.transport = transport
    }

    func readCommands() {
        var reader = FrameReader<HelperWire.Command>()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(STDIN_FILENO, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0,
                let commands = try? buffer.withUnsafeBytes({ try reader.read(UnsafeRawBufferPointer(rebasing: $0[0..<count])) })
            else { return }
            commands.forEach { handle($0.header) }
        }
    }

    private func handle(_ command: HelperWire.Command) {
        if command.cancel == true {
            fetches.withLock { $0.removeValue(forKey: command.id) }?.cancel()
            return
        }
        guard let request = command.request else { return }
        let id = command.id
        let task = Task {
            let reply: (HelperWire.Reply, Data)
            do {
                let response = try await transport.send(request)
                reply = (.response(response, id: id), response.body)
            } catch let error as TransportError {
                reply = (.failure(error, id: id), Data())
            } catch {
                reply = (.failure(TransportError(.other, url: request.url, detail: "\(error)"), id: id), Data())
            }
            fetches.withLock { _ = $0.removeValue(forKey: id) }
            write(HelperWire.encode(reply.0), then: reply.1)
        }
        fetches.withLock { $0[id] = task }
    }

    /// Writes a reply's line and its body, together, before any other reply.
    private func write(_ line: Data, then body: Data) {
        writing.withLock { _ in
            for part in [line, body] {
                part.withUnsafeBytes { raw in
                    guard let base = raw.baseAddress else { return }
                    var offset = 0
                    while offset < raw.count {
                        let written = Glibc.write(STDOUT_FILENO, base + offset, raw.count - offset)
                        if written > 0 {
                            offset += written
                        } else if written < 0 && errno == EINTR {
                            continue
                        } else {
                            return
                        }
                    }
                }
            }
        }
    }
}
