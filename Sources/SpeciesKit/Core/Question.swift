import Foundation

/// A question of a client's callers, as they share it: the method asked
/// and its arguments, exactly.
enum Question: Hashable, Sendable, CustomStringConvertible {
    case page(Int, search: String?, size: PageSize? = nil)
    case species(search: String?, limit: Int?)
    case one(SpeciesQuery)
    case related(SpeciesQuery)

    /// The service of `services` that the species URL asked for names
    /// (docs/cli.md, "show").
    func named(among services: [APIRoot]) -> APIRoot? {
        switch self {
        case .one(.url(let url)), .related(.url(let url)): services.first { $0.speciesURL(url) != nil }
        default: nil
        }
    }

    /// `page 2 of the species matching 'an'`: how a message names what was
    /// asked, when its URL cannot (docs/cli.md, "Exit status").
    var phrase: String {
        switch self {
        case .page(let number, let search, _): "page \(number) of the species" + Phrase.matching(search)
        case .species(let search, let limit):
            (limit.map { "the first \($0) species" } ?? "the species") + Phrase.matching(search)
        case .one(let query): "\(query)"
        case .related(let query): "what \(query) is related to"
        }
    }

    /// `page 2 search 'an'`: how the cache names its lock.
    var description: String {
        switch self {
        case .page(let number, let search, _): "page \(number)" + (search.map { " search '\($0)'" } ?? "")
        case .species(let search, let limit):
            "species" + (search.map { " search '\($0)'" } ?? "") + (limit.map { " limit \($0)" } ?? "")
        case .one(let query): "one \(query.key)"
        case .related(let query): "related \(query.key)"
        }
    }
}

/// The size of a service's pages, as its page 1 showed it: a page after it
/// is then asked alone, and held to that size (`ListingReader`).
struct PageSize: Hashable, Sendable {
    let root: APIRoot
    let size: Int

    /// The size, for the service at `root`; nil for another.
    func of(_ root: APIRoot) -> Int? { root == self.root ? size : nil }
}

extension SpeciesQuery {
    /// The query whole, credentials aside: `name Wookie`, `id 3`, `url ...`.
    fileprivate var key: String {
        switch self {
        case .name(let name): "name \(name)"
        case .id(let id): "id \(id)"
        case .url(let url): "url \(url.withoutCredentials.absoluteString)"
        }
    }
}

/// A whole answer, as callers share it and a client keeps it: the value,
/// its source, when the oldest response it was made of was fetched, and
/// how many bytes those responses held.
struct SharedAnswer: Sendable, Equatable {
    var value: any Sendable
    var source: AnswerSource
    var fetched: Date
    var bytes: Int

    /// The same source, time and size, and a value that reads the same.
    static func == (a: Self, b: Self) -> Bool {
        (a.source, a.fetched, a.bytes) == (b.source, b.fetched, b.bytes) && "\(a.value)" == "\(b.value)"
    }
}
