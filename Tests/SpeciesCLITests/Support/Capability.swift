import Foundation
import TestSupport
import Testing

/// What this machine can do for a test, each found out once a run: a tool in
/// the system's folders, and, as root with unshare(1), namespaces of a
/// test's own. A test that needs one says so, and why, with
/// `.enabled(if:)`; nothing else skips a test.
enum Capability {
    /// Whether `tool` is in /usr/bin, /bin, /usr/sbin or /sbin.
    static func has(_ tool: String) -> Bool {
        ["/usr/bin/", "/bin/", "/usr/sbin/", "/sbin/"].contains {
            FileManager.default.isExecutableFile(atPath: $0 + tool)
        }
    }

    /// Root may mount a file system in a mount namespace of its own.
    static let mountsItsOwn = Task { await probe(["-m", "/bin/sh", "-c", "mount -t tmpfs tmpfs /mnt"]) }
    /// A network namespace of its own may be made (a loopback only).
    static let isolatesTheNetwork = Task { await probe(["-n", "true"]) }
    /// Root may give host names to local servers: network and mount
    /// namespaces of its own, and ip(8) to bring up their loopback.
    static let servesHostNames = Task { has("ip") && getuid() == 0 ? await probe(["-n", "-m", "true"]) : false }
    /// Why a test that serves SWAPI's host names would be skipped.
    static let hostNamesNeeded: Comment =
        "needs root, unshare(1), ip(8) and network and mount namespaces, to give SWAPI's host names to local servers"

    private static func probe(_ arguments: [String]) async -> Bool {
        guard has("unshare") else { return false }
        let result = try? await ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/unshare"), arguments, environment: ChildProcess.environment())
        return result?.status == 0
    }
}
