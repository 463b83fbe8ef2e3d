import SpeciesKit
import Synchronization

/// Collects what a command writes to stdout.
public final class CapturedOutput: OutputSink {
    private let state = Mutex((text: "", flushes: 0))

    public init() {}

    public var text: String { state.withLock { $0.text } }
    public var flushes: Int { state.withLock { $0.flushes } }

    public func write(_ text: String) { state.withLock { $0.text += text } }
    public func write(_ bytes: [UInt8]) { write(String(decoding: bytes, as: UTF8.self)) }
    public func flush() { state.withLock { $0.flushes += 1 } }
}

/// Collects warnings, notes and errors.
public final class RecordingDiagnostics: Diagnostics {
    private let state = Mutex((warnings: [String](), notes: [String](), errors: [String](), progress: [String]()))

    public init() {}

    public var warnings: [String] { state.withLock { $0.warnings } }
    public var notes: [String] { state.withLock { $0.notes } }
    public var errors: [String] { state.withLock { $0.errors } }

    public func warning(_ message: String) { state.withLock { $0.warnings.append(message) } }
    public func note(_ message: String) { state.withLock { $0.notes.append(message) } }
    public func error(_ message: String) { state.withLock { $0.errors.append(message) } }
    public func progress(_ message: String) { state.withLock { $0.progress.append(message) } }
    public func progressEnded() { state.withLock { $0.progress.append("(ended)") } }
    public var progress: [String] { state.withLock { $0.progress } }
}

/// A list that closures running anywhere can append to.
public final class RecordedValues<Element: Sendable>: Sendable {
    private let values = Mutex<[Element]>([])

    public init() {}

    public var all: [Element] { values.withLock { $0 } }

    public func append(_ value: Element) { values.withLock { $0.append(value) } }
}
