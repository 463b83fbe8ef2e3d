import Foundation

/// What one GET does with the cache (docs/cli.md, "The cache"): a source
/// that is a cache alone answers from an entry of any age; a service
/// answers from a fresh entry unless it revalidates, else asks the network
/// (with the entry's validators) when it may; without the network, what
/// the cache cannot answer has no answer.
enum CacheUse: Equatable {
    case cached
    case ask
    case notCached

    static func of(entry fetched: Date?, anyAge: Bool, network: Bool, revalidate: Bool, now: Date, maxAge: Double)
        -> CacheUse
    {
        if let fetched, anyAge || (!revalidate && CachePolicy.isFresh(fetched, now: now, maxAge: maxAge)) {
            return .cached
        }
        return network && !anyAge ? .ask : .notCached
    }
}
