import SpeciesKit
import Synchronization

/// Collects warnings, notes, errors, traces and progress (its end as
/// "(ended)"), for the client and for a command alike.
public final class RecordingDiagnostics: Diagnostics {
    private let state = Mutex(
        (warnings: [String](), notes: [String](), errors: [String](), progress: [String](), traces: [String]()))

    public let readsTraces: Bool

    public init() {
        readsTraces = true
    }

    /// `readsTraces` false: the client is told that nobody reads its steps.
    public init(readsTraces: Bool) {
        self.readsTraces = readsTraces
    }

    public var warnings: [String] { state.withLock { $0.warnings } }
    public var notes: [String] { state.withLock { $0.notes } }
    public var errors: [String] { state.withLock { $0.errors } }
    public var progress: [String] { state.withLock { $0.progress } }
    public var traces: [String] { state.withLock { $0.traces } }

    public func warning(_ message: String) { state.withLock { $0.warnings.append(message) } }
    public func note(_ message: String) { state.withLock { $0.notes.append(message) } }
    public func error(_ message: String) { state.withLock { $0.errors.append(message) } }
    public func progress(_ message: String) { state.withLock { $0.progress.append(message) } }
    public func progressEnded() { state.withLock { $0.progress.append("(ended)") } }
    public func trace(_ message: String) { state.withLock { $0.traces.append(message) } }
}
