import Foundation
import SpeciesKit
import URLSessionFixes

/// `species __selfcheck`: which of the workarounds of Sources/URLSessionFixes
/// are engaged for FoundationNetworking's transfers, after one request of a
/// client (to a port of 127.0.0.1 where nothing listens). It succeeds only when all
/// are; the build that links them in some other way than the tests expect
/// says so here.
struct SelfCheckCommand: Sendable {
    func run(_ output: any OutputSink) async throws {
        guard let port = Self.closedPort(), let root = APIRoot("http://127.0.0.1:\(port)/api/") else {
            throw CommandError("no port of 127.0.0.1 is free", .internalError)
        }
        let nowhere = SpeciesClient.Configuration(
            roots: [root], retries: 0, cache: CachePolicy(directory: nil), fallback: false)
        _ = try? await SpeciesClient(configuration: nowhere).page()
        let status = url_session_fixes_check()
        let workarounds = [
            ("socket-callback wrapper", status.socket_wrapper != 0), ("Content-Length bound", status.length_bound != 0),
            ("headers-open check", status.header_check != 0), ("transfer end", status.transfer_end != 0),
        ]
        output.write(workarounds.map { "\($0.0): \($0.1 ? "engaged" : "not engaged")\n" }.joined())
        if let missing = status.missing_function {
            throw CommandError("libcurl's \(String(cString: missing)) was not found", .internalError)
        }
        let off = workarounds.filter { !$0.1 }.map(\.0)
        if !off.isEmpty { throw CommandError("not engaged: \(off.joined(separator: ", "))", .internalError) }
    }

    /// A port of 127.0.0.1 where nothing listens: bound to find a free one,
    /// then closed, so that connecting to it is refused.
    static func closedPort() -> Int? {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let found = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(descriptor, pointer, length) == 0 && getsockname(descriptor, pointer, &length) == 0
            }
        }
        return found ? Int(UInt16(bigEndian: address.sin_port)) : nil
    }
}
