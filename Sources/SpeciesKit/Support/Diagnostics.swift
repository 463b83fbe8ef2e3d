import Synchronization

/// Where messages go: stderr in the tool, a recorder in tests. Nothing sent
/// here ever reaches stdout.
public protocol Diagnostics: Sendable {
    /// Something was wrong, but the command goes on: a `warning:` line.
    func warning(_ message: String)
    /// Information: where a page stands among the others, a retry.
    func note(_ message: String)
    /// Why the command failed: its one `error:` line.
    func error(_ message: String)
}

/// Writes messages to stderr, one line each, with control characters from
/// the server escaped; each distinct warning is written once.
public final class StandardErrorDiagnostics: Diagnostics {
    private let warned = Mutex<Set<String>>([])

    public init() {}

    public func warning(_ message: String) {
        guard warned.withLock({ $0.insert(message).inserted }) else { return }
        write("warning: " + message)
    }

    public func note(_ message: String) {
        write(message)
    }

    public func error(_ message: String) {
        write("error: " + message)
    }

    private func write(_ line: String) {
        StandardError.write(TerminalText.escape(line) + "\n")
    }
}
