import Foundation
import Synchronization

/// What species remembers of the services of a list, as records in the
/// cache: which of them answered, so that the runs that follow ask it first
/// while the record is fresh (`maxAge`); and the dialect each speaks, once
/// its answers have shown it and it is not the one species would guess, so
/// that the next run asks in the right form at once. A record's date is
/// when it was written; since when a service answers is a date in the same
/// form. Services are named as the cache names URLs, without credentials.
package final class ServiceMemory: Sendable {
    package struct Remembered: Sendable, Equatable {
        /// The service's API root, as the cache keys it.
        package var service: String
        /// When it first answered for this list.
        package var since: Date
        /// When it last answered for this list: the record's own date.
        package var confirmed: Date
    }

    private static let prefix = "service "

    let roots: [APIRoot]
    private let cache: ResponseCache?
    private let maxAge: Double
    /// The record of the list, as this process first read it or last wrote it.
    private let record = Mutex<Remembered??>(nil)
    /// The dialect of each root, as this process has heard or read it.
    private let dialects = Mutex<[String: Dialect]>([:])

    init(roots: [APIRoot], cache: ResponseCache?, maxAge: Double) {
        self.roots = roots
        self.cache = cache
        self.maxAge = maxAge
    }

    /// What is remembered for this list, fresh or not.
    var remembered: Remembered? {
        record.withLock { record in
            if let record { return record }
            let read = cache?.record(Self.key(roots)).flatMap { Self.remembered(from: $0.value, confirmed: $0.written) }
            record = .some(read)
            return read
        }
    }

    /// The service to ask first: the one remembered, confirmed less than
    /// `maxAge` ago (and not in the future).
    var fresh: APIRoot? {
        guard let remembered else { return nil }
        let age = Date().timeIntervalSince(remembered.confirmed)
        guard age >= 0, age < maxAge else { return nil }
        return roots.first { Self.name($0) == remembered.service }
    }

    /// Whether `root` is the service remembered, fresh or not.
    func remembers(_ root: APIRoot) -> Bool {
        remembered?.service == Self.name(root)
    }

    /// Remembers that `root` answered: a new record when another service
    /// was remembered, a confirmed one when the record was stale, nothing
    /// when it was fresh. A list of one needs no memory.
    func answered(_ root: APIRoot) {
        let before = remembered
        let service = Self.name(root)
        guard roots.count > 1, let cache, before?.service != service || fresh == nil else { return }
        let now = Date()
        let since = before?.service == service ? before?.since ?? now : now
        record.withLock { $0 = .some(Remembered(service: service, since: since, confirmed: now)) }
        try? cache.remember(service + "\n" + String(since.timeIntervalSince1970), as: Self.key(roots))
    }

    /// The dialect `root` answered in, in this process or an earlier one.
    func dialect(of root: APIRoot) -> Dialect? {
        let key = Self.dialectKey(root)
        if let dialect = dialects.withLock({ $0[key] }) { return dialect }
        guard let dialect = cache?.record(key).flatMap({ Dialect(rawValue: $0.value) }) else { return nil }
        dialects.withLock { $0[key] = dialect }
        return dialect
    }

    /// Learns the dialect `root` answered in; the first time in this
    /// process, or when it changed, `trace` hears of it. A record is
    /// written when it is not the one guessed, or changes one.
    func learn(_ dialect: Dialect, for root: APIRoot, trace: (String) -> Void) {
        let key = Self.dialectKey(root)
        let heard = dialects.withLock { $0[key] } != nil
        let remembered = self.dialect(of: root)
        if !heard || remembered != dialect {
            trace("\(root.origin.authority) answers in \(dialect.service) form (\(dialect.rawValue))")
        }
        guard remembered != dialect else { return }
        dialects.withLock { $0[key] = dialect }
        if remembered != nil || dialect != Dialect.guess(for: root) {
            try? cache?.remember(dialect.rawValue, as: key)
        }
    }

    /// What `species cache info` says of each list: which service answers
    /// it, since when, and when that was last confirmed; the latest first.
    package static func all(in cache: ResponseCache) -> [(list: [String], remembered: Remembered)] {
        cache.records(prefix: prefix).compactMap { record in
            guard let remembered = remembered(from: record.value, confirmed: record.written) else { return nil }
            return (record.key.dropFirst(prefix.count).split(separator: " ").map(String.init), remembered)
        }.sorted { $0.remembered.confirmed > $1.remembered.confirmed }
    }

    private static func name(_ root: APIRoot) -> String {
        ResponseCache.key(root.url)
    }

    private static func key(_ roots: [APIRoot]) -> String {
        prefix + roots.map(name).joined(separator: " ")
    }

    private static func dialectKey(_ root: APIRoot) -> String {
        "dialect " + name(root)
    }

    private static func remembered(from value: String, confirmed: Date) -> Remembered? {
        let lines = value.split(separator: "\n").map(String.init)
        guard lines.count == 2, let since = Double(lines[1]), since.isFinite else { return nil }
        return Remembered(service: lines[0], since: Date(timeIntervalSince1970: since), confirmed: confirmed)
    }
}
