import Foundation

package enum FileDescriptor {
    /// Writes all of `bytes`, through short writes and EINTR, and, on a
    /// descriptor left non-blocking (as some parents leave a pipe), through
    /// EAGAIN: it waits until the reader makes room. The reason when it
    /// cannot (`No space left on device`), else nil.
    package static func writeAll(_ bytes: some ContiguousBytes, to descriptor: Int32) -> String? {
        bytes.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return nil }
            var offset = 0
            while offset < raw.count {
                let written = write(descriptor, base + offset, raw.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0 && errno == EINTR {
                    continue
                } else if written < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                    var ready = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                    guard poll(&ready, 1, -1) >= 0 || errno == EINTR else { return String(cString: strerror(errno)) }
                } else {
                    return written < 0 ? String(cString: strerror(errno)) : "nothing was written"
                }
            }
            return nil
        }
    }
}
