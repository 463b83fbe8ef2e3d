import Foundation
import SpeciesKit
import Synchronization

/// Where results go: stdout in the tool, a buffer in tests. A write that
/// fails is remembered, and every later one is dropped: the command then
/// ends with one `error:` line and exit status 74 (`writeError`).
protocol OutputSink: Sendable {
    func write(_ text: String)
    /// UTF-8 bytes.
    func write(_ bytes: [UInt8])
    /// Hands everything written so far to its reader.
    func flush()
    /// Why writing failed, once it has; nil while all is well.
    var writeError: String? { get }
}

/// stdout, buffered, written with write(2). A closed pipe (`| head -1`)
/// raises SIGPIPE, which ends the process quietly, as Unix tools do; any
/// other failure (a full disk, a closed descriptor) is kept for the end.
final class StandardOutput: OutputSink {
    private static let capacity = 64 * 1024
    private let state = Mutex((buffer: [UInt8](), error: String?.none))

    func write(_ text: String) { write(Array(text.utf8)) }

    func write(_ bytes: [UInt8]) {
        state.withLock { state in
            guard state.error == nil else { return }
            if state.buffer.isEmpty && bytes.count >= Self.capacity {
                state.error = FileDescriptor.writeAll(bytes, to: STDOUT_FILENO)
                return
            }
            state.buffer.append(contentsOf: bytes)
            if state.buffer.count >= Self.capacity { Self.drain(&state) }
        }
    }

    func flush() { state.withLock { Self.drain(&$0) } }

    var writeError: String? { state.withLock { $0.error } }

    private static func drain(_ state: inout (buffer: [UInt8], error: String?)) {
        if state.error == nil, !state.buffer.isEmpty {
            state.error = FileDescriptor.writeAll(state.buffer, to: STDOUT_FILENO)
        }
        state.buffer.removeAll(keepingCapacity: true)
    }
}

/// stderr, unbuffered: messages appear as they happen. There is nowhere to
/// report a failure to write them.
enum StandardError {
    static func write(_ text: String) { _ = FileDescriptor.writeAll(Array(text.utf8), to: STDERR_FILENO) }

    /// A message line: escaped, and cut in its middle with "…" past 1,000
    /// characters, so that no value in it (a 100 KB argument, a link from a
    /// server) makes a line of unbounded length.
    static func line(_ text: String) -> String { Excerpt.of(TerminalText.escape(text), limit: 1000) }
}

extension FileDescriptor {
    /// Opens /dev/null on any of descriptors 0, 1 and 2 that is closed, so
    /// that no file or socket this process opens later takes its number and
    /// receives the output meant for it. A closed stdout gets /dev/null for
    /// reading only: every write to it then fails, and is reported.
    static func occupyClosedStandardDescriptors() {
        for (descriptor, flags) in [(STDIN_FILENO, O_RDONLY), (STDOUT_FILENO, O_RDONLY), (STDERR_FILENO, O_WRONLY)]
        where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
            let opened = open("/dev/null", flags)
            if opened != descriptor, opened >= 0 {
                dup2(opened, descriptor)
                close(opened)
            }
        }
    }
}
