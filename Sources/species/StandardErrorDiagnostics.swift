import Foundation
import SpeciesKit
import Synchronization

/// Messages on stderr, one line each, each with its prefix (`error:`,
/// `warning:`, `note:`, `verbose:`), with what could fool a terminal
/// escaped and a length cut at 1,000 characters; each distinct warning is
/// written once. `quiet` keeps warnings, notes, hints and progress back
/// (errors never are); traces are written only when `verbose`; hints only
/// at a terminal (`showsHints`), as notes. On a terminal, a progress
/// line appears once fetching has taken `progressDelay` seconds, is
/// rewritten as it goes, and is erased at its end and around other lines.
final class StandardErrorDiagnostics: CommandDiagnostics {
    private struct State {
        var warned: Set<String> = []
        var progress: String?
        var progressStarted: Date?
        var progressShown = false
        var generation = 0
    }

    private let quiet: Bool
    private let verbose: Bool
    private let showsProgress: Bool
    private let showsHints: Bool
    private let progressDelay: Double
    private let state = Mutex(State())

    init(
        quiet: Bool = false, verbose: Bool = false, showsProgress: Bool = false, showsHints: Bool = false,
        progressDelay: Double = 0.3
    ) {
        self.quiet = quiet
        self.verbose = verbose
        self.showsProgress = showsProgress
        self.showsHints = showsHints
        self.progressDelay = progressDelay
    }

    func warning(_ message: String) {
        guard !quiet, state.withLock({ $0.warned.insert(message).inserted }) else { return }
        writeLine("warning: " + message)
    }

    func note(_ message: String) {
        guard !quiet else { return }
        writeLine("note: " + message)
    }

    func hint(_ message: String) { if showsHints { note(message) } }

    func trace(_ message: String) {
        guard verbose else { return }
        writeLine("verbose: " + message)
    }

    var readsTraces: Bool { verbose }

    func error(_ failure: CommandError) {
        progressEnded()
        StandardError.write(failure.rendered)
        if let usage = failure.usage { hint("see '\(usage.path) --help'") }
    }

    func progress(_ message: String) {
        guard showsProgress, !quiet else { return }
        let (shown, generation, started) = state.withLock { state in
            state.progress = message
            if state.progressStarted == nil {
                state.progressStarted = Date()
                state.generation += 1
            }
            if state.progressShown { StandardError.write("\r\u{1B}[2K" + StandardError.line(message)) }
            return (state.progressShown, state.generation, state.progressStarted)
        }
        guard !shown, let started else { return }
        let delay = max(0, progressDelay - Date().timeIntervalSince(started))
        Task.detached { [self] in
            try? await Task.sleep(for: .seconds(delay))
            state.withLock { state in
                guard state.generation == generation, !state.progressShown, let text = state.progress else { return }
                state.progressShown = true
                StandardError.write(StandardError.line(text))
            }
        }
    }

    func progressEnded() {
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
            let restore = state.progressShown ? state.progress.map { StandardError.line($0) } ?? "" : ""
            StandardError.write(erase + StandardError.line(line) + "\n" + restore)
        }
    }
}
