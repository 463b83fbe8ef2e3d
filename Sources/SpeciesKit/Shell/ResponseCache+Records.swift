import Foundation

/// What the cache remembers of the services, as records beside its entries:
/// which service of a list answered, so that later runs ask it first while
/// the record is fresh; and the dialect of a service whose answers showed
/// another than the one guessed for its host. A record's date is when it
/// was written; a service is named as the cache names URLs, without
/// credentials. Only a kept answer writes one (`Attempt.keep`).
extension ResponseCache {
    /// Which service answers a list, since when, and when that was last
    /// confirmed (the record's own date).
    package struct Remembered: Sendable, Equatable {
        /// The service's API root, as the cache keys it.
        package var service: String
        package var since: Date
        package var confirmed: Date
    }

    private static let servicePrefix = "service "

    /// What is remembered of the list `roots`, fresh or not.
    func remembered(for roots: [APIRoot]) -> Remembered? {
        record(Self.serviceKey(roots)).flatMap { Self.remembered(from: $0.value, confirmed: $0.written) }
    }

    /// Remembers that `root` answers the list `roots`, since `since`.
    func remember(_ root: APIRoot, answering roots: [APIRoot], since: Date, at now: Date) throws(Failure) {
        try remember(root.key + "\n" + String(since.timeIntervalSince1970), as: Self.serviceKey(roots), at: now)
    }

    /// The dialect `root` answered in, as remembered.
    func dialect(of root: APIRoot) -> Dialect? { record(Self.dialectKey(root)).flatMap { Dialect(rawValue: $0.value) } }

    func remember(_ dialect: Dialect, of root: APIRoot, at now: Date) throws(Failure) {
        try remember(dialect.rawValue, as: Self.dialectKey(root), at: now)
    }

    /// When each service of `roots` was last found down (`Memory`), by its
    /// key; a record that does not read is none.
    func outages(of roots: [APIRoot]) -> [String: Date] {
        Dictionary(roots.compactMap { root in record(Self.outageKey(root.key)).map { (root.key, $0.written) } }) {
            max($0, $1)
        }
    }

    /// Records that the service of `key` was found down.
    func recordOutage(of key: String, at now: Date) throws(Failure) {
        try remember("", as: Self.outageKey(key), at: now)
    }

    /// The service of `key` answered: the record of its outage goes.
    func forgetOutage(of key: String) { forget(Self.outageKey(key)) }

    /// What `species cache info` says of each list: which service answers
    /// it, since when, and when that was last confirmed; the latest first.
    package func rememberedServices() -> [(list: [String], remembered: Remembered)] {
        records(prefix: Self.servicePrefix).compactMap { record in
            guard let remembered = Self.remembered(from: record.value, confirmed: record.written) else { return nil }
            return (record.key.dropFirst(Self.servicePrefix.count).split(separator: " ").map(String.init), remembered)
        }.sorted { $0.remembered.confirmed > $1.remembered.confirmed }
    }

    private static func serviceKey(_ roots: [APIRoot]) -> String {
        servicePrefix + roots.map(\.key).joined(separator: " ")
    }

    private static func outageKey(_ service: String) -> String { "outage " + service }

    private static func dialectKey(_ root: APIRoot) -> String { "dialect " + root.key }

    private static func remembered(from value: String, confirmed: Date) -> Remembered? {
        let lines = value.split(separator: "\n").map(String.init)
        guard lines.count == 2, let since = Double(lines[1]), since.isFinite else { return nil }
        return Remembered(service: lines[0], since: Date(timeIntervalSince1970: since), confirmed: confirmed)
    }
}
