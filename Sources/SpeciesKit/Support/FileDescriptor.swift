import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

package enum FileDescriptor {
    /// Writes all of `bytes`, through short writes and EINTR; the reason
    /// when it cannot (`No space left on device`), else nil.
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
                } else {
                    return written < 0 ? String(cString: strerror(errno)) : "nothing was written"
                }
            }
            return nil
        }
    }
}
