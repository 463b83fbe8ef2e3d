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
    /// What cancels each fetch under way.
    private let fetches = Mutex<[Int: @Sendable () -> Void]>([:])
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
        let id = command.id
        if command.cancel == true {
            fetches.withLock { $0.removeValue(forKey: id) }?()
            return
        }
        guard let request = command.request else { return }
        // Each piece of the body goes on as it arrives: the helper never
        // holds a whole response.
        let cancel = transport.stream(request) { [self] event in
            switch event {
            case .head(let status, let headers):
                write(HelperWire.encode(HelperWire.Reply(id: id, event: .head(status: status, headers: headers))))
            case .data(let data):
                write(HelperWire.encode(HelperWire.Reply(id: id, event: .data, bodyLength: data.count)), then: data)
            case .end, .failure:
                fetches.withLock { _ = $0.removeValue(forKey: id) }
                let reply: HelperWire.Reply.Event = if case .failure(let error) = event { .failure(error) } else { .end }
                write(HelperWire.encode(HelperWire.Reply(id: id, event: reply)))
            }
        }
        fetches.withLock { $0[id] = cancel }
    }

    /// Writes a reply's line and its body, together, before any other reply.
    private func write(_ line: Data, then body: Data = Data()) {
        writing.withLock { _ in
            for part in [line, body] {
                part.withUnsafeBytes { FileDescriptor.writeAll($0, to: STDOUT_FILENO) }
            }
        }
    }
}
