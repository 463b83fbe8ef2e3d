import SpeciesKit
import Synchronization

@testable import species

/// Collects what a command writes to stdout; `failing` makes every write fail.
final class CapturedOutput: OutputSink {
    private let state = Mutex((text: "", flushes: 0))
    private let failing: String?

    init(failing: String? = nil) {
        self.failing = failing
    }

    var text: String { state.withLock { $0.text } }
    var flushes: Int { state.withLock { $0.flushes } }
    var writeError: String? { state.withLock { $0.text.isEmpty ? nil : failing } }

    func write(_ text: String) { state.withLock { $0.text += text } }
    func write(_ bytes: [UInt8]) { write(String(decoding: bytes, as: UTF8.self)) }
    func flush() { state.withLock { $0.flushes += 1 } }
}

/// Collects warnings, notes, errors and progress (its end as "(ended)").
final class CommandRecorder: CommandDiagnostics {
    private let state = Mutex((warnings: [String](), notes: [String](), errors: [String](), progress: [String]()))

    var warnings: [String] { state.withLock { $0.warnings } }
    var notes: [String] { state.withLock { $0.notes } }
    var errors: [String] { state.withLock { $0.errors } }
    var progress: [String] { state.withLock { $0.progress } }

    func warning(_ message: String) { state.withLock { $0.warnings.append(message) } }
    func note(_ message: String) { state.withLock { $0.notes.append(message) } }
    func error(_ message: String) { state.withLock { $0.errors.append(message) } }
    func progress(_ message: String) { state.withLock { $0.progress.append(message) } }
    func progressEnded() { state.withLock { $0.progress.append("(ended)") } }
}

extension CommandContext {
    /// The context of a command against `transport` at swapi.dev.
    static func stubbed(
        _ transport: any HTTPTransport, output: CapturedOutput, diagnostics: CommandRecorder,
        configure: (inout SpeciesClient.Configuration) -> Void = { _ in }
    ) -> CommandContext {
        CommandContext(
            client: .stubbed(transport, diagnostics: diagnostics, configure: configure), output: output, diagnostics: diagnostics)
    }
}
