#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Where results go: stdout in the tool, a buffer in tests.
public protocol OutputSink: Sendable {
    func write(_ text: String)
    /// UTF-8 bytes.
    func write(_ bytes: [UInt8])
    /// Hands everything written so far to its reader.
    func flush()
}

/// stdout, buffered, written with write(2). A closed pipe (`| head -1`)
/// raises SIGPIPE, which ends the process quietly, as Unix tools do.
public final class StandardOutput: OutputSink {
    private static let capacity = 64 * 1024
    private let buffer = Mutex<[UInt8]>([])

    public init() {}

    public func write(_ text: String) {
        buffer.withLock { buffer in
            buffer.append(contentsOf: text.utf8)
            if buffer.count >= Self.capacity { Self.drain(&buffer) }
        }
    }

    public func write(_ bytes: [UInt8]) {
        buffer.withLock { buffer in
            if buffer.isEmpty && bytes.count >= Self.capacity {
                FileDescriptor.writeAll(bytes, to: STDOUT_FILENO)
                return
            }
            buffer.append(contentsOf: bytes)
            if buffer.count >= Self.capacity { Self.drain(&buffer) }
        }
    }

    public func flush() {
        buffer.withLock { Self.drain(&$0) }
    }

    private static func drain(_ buffer: inout [UInt8]) {
        FileDescriptor.writeAll(buffer, to: STDOUT_FILENO)
        buffer.removeAll(keepingCapacity: true)
    }
}

/// stderr, unbuffered: messages appear as they happen.
public enum StandardError {
    public static func write(_ text: String) {
        FileDescriptor.writeAll(Array(text.utf8), to: STDERR_FILENO)
    }
}

/// Whole writes to a file descriptor, through short writes and EINTR; a
/// closed pipe or another error ends the write quietly.
package enum FileDescriptor {
    static func writeAll(_ bytes: [UInt8], to descriptor: Int32) {
        bytes.withUnsafeBytes { writeAll($0, to: descriptor) }
    }

    package static func writeAll(_ raw: UnsafeRawBufferPointer, to descriptor: Int32) {
        guard let base = raw.baseAddress else { return }
        var offset = 0
        while offset < raw.count {
            let written = write(descriptor, base + offset, raw.count - offset)
            if written > 0 {
                offset += written
            } else if written < 0 && errno == EINTR {
                continue
            } else {
                return
            }
        }
    }
}
