import Foundation
import Synchronization

/// Which service of a list answered, remembered as a record in the cache,
/// so that the runs that follow ask it first while the record is fresh
/// (`maxAge`). The record says since when the service answers, and when
/// that was last confirmed: a run that finds the same service again only
/// confirms it. Services are named as the cache names URLs, without
/// credentials.
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
    /// The record, as this process first read it or last wrote it.
    private let record = Mutex<Remembered??>(nil)

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
        try? cache.remember(service + "\n" + Timestamp(since).text, as: Self.key(roots))
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

    private static func remembered(from value: String, confirmed: Date) -> Remembered? {
        let lines = value.split(separator: "\n").map(String.init)
        guard lines.count == 2, let since = Timestamp(lines[1])?.date else { return nil }
        return Remembered(service: lines[0], since: since, confirmed: confirmed)
    }
}
