import SpeciesKit
import Synchronization

/// Collects what a command writes to stdout.
public final class CapturedOutput: OutputSink {
    private let state = Mutex((text: "", flushes: 0))

    public init() {}

    public var text: String { state.withLock { $0.text } }
    public var flushes: Int { state.withLock { $0.flushes } }

    public func write(_ text: String) { state.withLock { $0.text += text } }
    public func flush() { state.withLock { $0.flushes += 1 } }
}

/// Collects warnings and hints.
public final class RecordingDiagnostics: Diagnostics {
    private let state = Mutex((warnings: [String](), hints: [String]()))

    public init() {}

    public var warnings: [String] { state.withLock { $0.warnings } }
    public var hints: [String] { state.withLock { $0.hints } }

    public func warning(_ message: String) { state.withLock { $0.warnings.append(message) } }
    public func hint(_ message: String) { state.withLock { $0.hints.append(message) } }
}
