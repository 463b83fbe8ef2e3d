/// `Task.sleep` in seconds, for any value: negative ones do not wait, and
/// huge ones are held to about 30 years instead of overflowing nanoseconds.
package enum Pause {
    package static func seconds(_ seconds: Double) async throws {
        let bounded = seconds.isNaN ? 0 : min(max(seconds, 0), 1e9)
        try await Task.sleep(nanoseconds: UInt64(bounded * 1e9))
    }
}
