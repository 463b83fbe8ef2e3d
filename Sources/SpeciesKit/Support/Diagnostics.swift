import Foundation
import Synchronization

/// Where warnings and hints go: stderr in the tool, a recorder in tests.
/// Nothing sent here ever reaches stdout.
public protocol Diagnostics: Sendable {
    func warning(_ message: String)
    func hint(_ message: String)
}

/// Writes `warning: ...` lines and hints to stderr, each distinct warning once.
public final class StandardErrorDiagnostics: Diagnostics {
    private let warned = Mutex<Set<String>>([])

    public init() {}

    public func warning(_ message: String) {
        guard warned.withLock({ $0.insert(message).inserted }) else { return }
        StandardError.write("warning: \(message)\n")
    }

    public func hint(_ message: String) {
        StandardError.write(message + "\n")
    }
}
