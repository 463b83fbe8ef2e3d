import Foundation
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
    /// What is being fetched, such as "fetching page 3 of 4…", for a
    /// progress line on a terminal.
    func progress(_ message: String)
    /// The fetching is over: any progress line goes.
    func progressEnded()
}

/// Writes messages to stderr, one line each, with control characters from
/// the server escaped; each distinct warning is written once. `quiet`
/// keeps warnings and notes back (errors never are). On a terminal, a
/// progress line appears once fetching has taken `progressDelay` seconds,
/// is rewritten as it goes, and is erased at its end and around other lines.
public final class StandardErrorDiagnostics: Diagnostics {
    private struct State {
        var warned: Set<String> = []
        var progress: String?
        var progressStarted: Date?
        var progressShown = false
        var generation = 0
    }

    private let quiet: Bool
    private let showsProgress: Bool
    private let progressDelay: Double
    private let state = Mutex(State())

    public init(quiet: Bool = false, showsProgress: Bool = false, progressDelay: Double = 0.3) {
        self.quiet = quiet
        self.showsProgress = showsProgress
        self.progressDelay = progressDelay
    }

    public func warning(_ message: String) {
        guard !quiet, state.withLock({ $0.warned.insert(message).inserted }) else { return }
        writeLine("warning: " + message)
    }

    public func note(_ message: String) {
        guard !quiet else { return }
        writeLine(message)
    }

    public func error(_ message: String) {
        writeLine("error: " + message)
    }

    public func progress(_ message: String) {
        guard showsProgress else { return }
        let (shown, generation, started) = state.withLock { state in
            state.progress = message
            if state.progressStarted == nil {
                state.progressStarted = Date()
                state.generation += 1
            }
            if state.progressShown { StandardError.write("\r\u{1B}[2K" + TerminalText.escape(message)) }
            return (state.progressShown, state.generation, state.progressStarted)
        }
        guard !shown, let started else { return }
        let delay = max(0, progressDelay - Date().timeIntervalSince(started))
        Task.detached { [self] in
            try? await Pause.seconds(delay)
            state.withLock { state in
                guard state.generation == generation, !state.progressShown, let text = state.progress else { return }
                state.progressShown = true
                StandardError.write(TerminalText.escape(text))
            }
        }
    }

    public func progressEnded() {
        state.withLock { state in
            if state.progressShown { StandardError.write("\r\u{1B}[2K") }
            state.progress = nil
            state.progressStarted = nil
            state.progressShown = false
            state.generation += 1
        }
    }

    /// A line, with the progress line taken away first and put back after.
    private func writeLine(_ line: String) {
        state.withLock { state in
            let erase = state.progressShown ? "\r\u{1B}[2K" : ""
            let restore = state.progressShown ? state.progress.map(TerminalText.escape) ?? "" : ""
            StandardError.write(erase + TerminalText.escape(line) + "\n" + restore)
        }
    }
}
