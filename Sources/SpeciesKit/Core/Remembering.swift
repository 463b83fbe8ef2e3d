import Foundation

/// What a client makes of what it remembers of its services
/// (docs/swapi-dialects.md, "Which service answers"): the order it asks
/// them in, and what its cache is to remember. Pure: `SpeciesClient.Memory`
/// holds what is remembered, and reads and writes the cache.
enum Remembering {
    /// What the cache's record says of a list of services: which answered,
    /// since when, and when that was last confirmed.
    struct Record: Equatable {
        var root: APIRoot?
        var since: Date
        var confirmed: Date
    }

    /// The services in the order they are asked: the one a pasted URL
    /// names; then the one that answered in this process, else the one the
    /// record names while it is fresh; then the rest in the list's order.
    static func order(
        _ roots: [APIRoot], named: APIRoot?, answering: APIRoot?, record: Record?, maxAge: Double, now: Date
    ) -> [APIRoot] {
        let remembered = record.flatMap { CachePolicy.isFresh($0.confirmed, now: now, maxAge: maxAge) ? $0.root : nil }
        var order = roots
        for first in [answering ?? remembered, named] {
            guard let first, let index = order.firstIndex(of: first) else { continue }
            order.insert(order.remove(at: index), at: 0)
        }
        return order
    }

    /// When `root` answered, and had not in this process: since when the
    /// record to write says it answers (a list of several, with a cache):
    /// a new one when another was remembered, the same one confirmed when
    /// it was stale; nil when there is none to write.
    static func since(
        _ root: APIRoot, answeredFirstOf roots: [APIRoot], record: Record?, hasCache: Bool, maxAge: Double,
        now: Date
    ) -> Date? {
        guard roots.count > 1, hasCache else { return nil }
        guard let record, record.root == root else { return now }
        return CachePolicy.isFresh(record.confirmed, now: now, maxAge: maxAge) ? nil : record.since
    }

    /// Whether the cache is to remember that a service answered in
    /// `dialect`: when that changes what is `remembered`, or is not the one
    /// its host makes the `guess`.
    static func remembers(_ dialect: Dialect, remembered: Dialect?, guess: Dialect) -> Bool {
        remembered != dialect && (remembered != nil || dialect != guess)
    }
}
