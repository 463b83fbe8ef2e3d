import Synchronization

/// Which dialect each API root speaks, once its answers have shown it: in
/// this process, and, when it is not the one species would guess, as a
/// record in the cache, so that the next run asks in the right form at once.
final class DialectMemory: Sendable {
    private let known = Mutex<[String: Dialect]>([:])

    private static func key(_ root: APIRoot) -> String {
        "dialect " + ResponseCache.key(root.url)
    }

    func known(for root: APIRoot, in cache: ResponseCache?) -> Dialect? {
        let key = Self.key(root)
        if let dialect = known.withLock({ $0[key] }) { return dialect }
        guard let dialect = cache?.record(key).flatMap({ Dialect(rawValue: $0.value) }) else { return nil }
        known.withLock { $0[key] = dialect }
        return dialect
    }

    /// Learns the dialect `root` answered in; the first time in this
    /// process, or when it changed, `trace` hears of it.
    func learn(_ dialect: Dialect, for root: APIRoot, in cache: ResponseCache?, guess: Dialect, trace: (String) -> Void)
    {
        let key = Self.key(root)
        let heard = known.withLock { $0[key] } != nil
        let remembered = known(for: root, in: cache)
        if !heard || remembered != dialect {
            trace("\(root.origin.authority) answers in \(dialect.service) form (\(dialect.rawValue))")
        }
        guard remembered != dialect else { return }
        known.withLock { $0[key] = dialect }
        if remembered != nil || dialect != guess {
            try? cache?.remember(dialect.rawValue, as: key)
        }
    }
}
