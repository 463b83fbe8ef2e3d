import SpeciesKit
import Synchronization
import Testing
import TestSupport

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

/// The test's recorder takes a command's messages too: a failure's line,
/// and hints, as notes.
extension RecordingDiagnostics: CommandDiagnostics {
    public func error(_ failure: CommandError) {
        error(failure.message)
    }

    public func hint(_ message: String) {
        note(message)
    }
}

extension CommandContext {
    /// The context of a command against `transport` at swapi.dev.
    static func stubbed(
        _ transport: any HTTPTransport, output: CapturedOutput, diagnostics: RecordingDiagnostics,
        configure: (inout SpeciesClient.Configuration) -> Void = { _ in }
    ) -> CommandContext {
        CommandContext(
            client: .stubbed(transport, diagnostics: diagnostics, configure: configure), output: output,
            diagnostics: diagnostics)
    }
}

/// A command, in a test's name, by its path alone.
extension CommandDefinition: CustomTestStringConvertible {
    public var testDescription: String { path }
}
