import Foundation

/// Fetches every page of a listing and hands each over in API order.
///
/// Pages come from `pageURL(k)` for the number of pages `expectedPages`
/// says, at most `concurrency` at once, and then as many as page 1's
/// `count` says. Each page is handed over only once the page before links
/// to it with its `next` and it links back with its `previous`, so the
/// chain is the server's own. Where a `next` link does not have the form of
/// `pageURL`, the rest is followed one link at a time, and so is everything
/// when `concurrency` is 1. A page after the last one is never handed
/// over, and its answer (a 404, or swapi.tech's repeat of the last page)
/// does not matter.
struct PageWalk {
    let root: APIRoot
    let diagnostics: any Diagnostics
    /// Page 1 of the listing.
    let first: URL
    /// The URL of page `k`, in the form of the server's own links.
    let pageURL: @Sendable (Int) -> URL
    /// How many pages to ask for before page 1 has said how many there are.
    let expectedPages: Int
    let concurrency: Int
    /// Fetches and reads one page.
    let listing: @Sendable (URL) async throws -> ListingPage

    /// The species received, how many page 1 counted, and how many came
    /// a second time (the pages changed while they were read).
    struct Summary {
        var received = 0
        var counted: Int?
        var repeated = 0
        /// Each species handed over: its URL, else its name.
        private var seen: Set<String> = []

        init(counted: Int? = nil) {
            self.counted = counted
        }

        /// The species of a page not handed over before, counted.
        mutating func fresh(_ species: [StarWarsSpecies]) -> [StarWarsSpecies] {
            let fresh = species.filter { item in (item.url ?? item.name).map { seen.insert($0).inserted } ?? true }
            received += fresh.count
            repeated += species.count - fresh.count
            return fresh
        }
    }

    func run(_ deliver: ([StarWarsSpecies]) async throws -> Void) async throws -> Summary {
        var arrived: [Int: Result<ListingPage, any Error>] = [:]
        if expectedPages <= 1 {
            // One page expected, as an answer from the cache or a search
            // usually is: asked here, and when it is the only one, handed
            // over without a task group (and the threads that run one).
            diagnostics.progress("fetching page 1…")
            let page = try await listing(first)
            guard page.next != nil else {
                var summary = Summary(counted: page.count)
                try await deliver(summary.fresh(page.species))
                return summary
            }
            arrived[1] = .success(page)
        }
        return try await withThrowingTaskGroup(of: PageFetch.self, returning: Summary.self) { group in
            defer { group.cancelAll() }
            var summary = Summary()
            var started = arrived.count
            var inFlight = 0
            var wanted = max(1, expectedPages)
            var previous: (url: URL, page: ListingPage)?
            var delivered: Set<String> = []
            var number = 1
            while true {
                let url = number == 1 ? first : pageURL(number)
                if arrived[number] == nil {
                    diagnostics.progress("fetching page \(number)" + (number <= wanted && wanted > 1 ? " of \(wanted)" : "") + "…")
                }
                while arrived[number] == nil {
                    while started < wanted, inFlight < concurrency {
                        started += 1
                        inFlight += 1
                        let page = started
                        let target = page == 1 ? first : pageURL(page)
                        group.addTask { PageFetch(number: page, result: await .capturing { try await listing(target) }) }
                    }
                    guard let done = try await group.next() else { break }
                    arrived[done.number] = done.result
                    inFlight -= 1
                }
                guard let result = arrived.removeValue(forKey: number) else { break }
                let page = try result.mapError { error in Self.blame(error, on: previous?.url) }.get()
                if let previous, !links(page.previous, from: url, to: number - 1) {
                    // The server's chain is not the pattern's: from the page
                    // before, follow `next` itself.
                    return try await followLinks(after: previous, visited: delivered, summary, deliver)
                }
                if number == 1 {
                    summary.counted = page.count
                    wanted = max(wanted, Self.pageCount(of: page))
                }
                try await deliver(summary.fresh(page.species))
                delivered.insert(url.absoluteString)
                guard let next = page.next else { return summary }
                guard links(next, from: url, to: number + 1) else {
                    return try await followLinks(after: (url, page), visited: delivered, summary, deliver)
                }
                guard number < RemoteCatalog.maxPages else {
                    throw SpeciesError.refused(url: url, problem: "more than \(RemoteCatalog.maxPages) pages; stopped here")
                }
                wanted = max(wanted, number + 1)
                previous = (url, page)
                number += 1
            }
            return summary
        }
    }

    /// One page at a time, each from the `next` link of the page before;
    /// a link to a page `visited` already is a loop.
    private func followLinks(
        after start: (url: URL, page: ListingPage), visited: Set<String>, _ summary: Summary,
        _ deliver: ([StarWarsSpecies]) async throws -> Void
    ) async throws -> Summary {
        var summary = summary
        var current = start
        var visited = visited.union([current.url.absoluteString])
        while let next = current.page.next {
            let url = try LinkPolicy.resolve(next, of: current.url, root: root)
            guard visited.insert(url.absoluteString).inserted else {
                throw SpeciesError.refused(
                    url: current.url, problem: "its 'next' link leads back to \(url.redacted), a page already read: a loop")
            }
            guard visited.count <= RemoteCatalog.maxPages else {
                throw SpeciesError.refused(url: url, problem: "more than \(RemoteCatalog.maxPages) pages; stopped here")
            }
            diagnostics.progress("fetching the page after \(current.url.redacted)…")
            let page: ListingPage
            do {
                page = try await listing(url)
            } catch {
                throw Self.blame(error, on: current.url)
            }
            try await deliver(summary.fresh(page.species))
            current = (url, page)
        }
        return summary
    }

    /// The number of pages of a listing, from page 1.
    /// How many pages page 1 says its listing has: by its `count` and its
    /// own length; 2 when it has a `next` but no usable count.
    static func pageCount(of first: ListingPage) -> Int {
        guard first.next != nil else { return 1 }
        guard let counted = first.count, counted > 0, !first.species.isEmpty else { return 2 }
        return min(counted.dividedRoundingUp(by: first.species.count), RemoteCatalog.maxPages)
    }

    /// Whether `link`, found on the page at `page`, leads to page `number`
    /// of this listing.
    private func links(_ link: String?, from page: URL, to number: Int) -> Bool {
        guard let link, let url = try? LinkPolicy.resolve(link, of: page, root: root) else { return false }
        return ListingLink.page(of: url, inFormOf: pageURL(max(number, 2))) == number
    }

    /// A page that a `next` link leads to and that is not there is the
    /// link's fault.
    private static func blame(_ error: any Error, on previous: URL?) -> any Error {
        guard let previous, case SpeciesError.httpStatus(404, let url) = error else { return error }
        return SpeciesError.invalidResponse(url: previous, problem: "its 'next' link \(url.redacted) answered 404 Not Found")
    }

    /// A child task's result: a struct, not a tuple. Swift 6.3.1 at -O
    /// returned a child task's `(Int, Result<...>)` with a wrong Int.
    private struct PageFetch: Sendable {
        let number: Int
        let result: Result<ListingPage, any Error>
    }
}

/// The page a listing link names.
enum ListingLink {
    /// The number of the page `url` names, when it has the form of
    /// `pattern`: the same path (case and a final slash aside), the same
    /// query but for `page`, whose absence means page 1. A query item the
    /// link leaves out is fine (swapi.tech drops `expanded` from its links).
    static func page(of url: URL, inFormOf pattern: URL) -> Int? {
        guard let link = URLComponents(url: url, resolvingAgainstBaseURL: false),
            let form = URLComponents(url: pattern, resolvingAgainstBaseURL: false),
            trimmed(link.path) == trimmed(form.path)
        else { return nil }
        let items = (link.percentEncodedQueryItems ?? []).map(decoded)
        let formItems = (form.percentEncodedQueryItems ?? []).map(decoded)
        for item in items where item.name != "page" {
            guard formItems.contains(item) else { return nil }
        }
        let pages = items.filter { $0.name == "page" }
        guard let page = pages.first else { return 1 }
        guard pages.count == 1, let value = page.value, let number = Int(value), number >= 1 else { return nil }
        return number
    }

    /// A query item with its value decoded, `+` as a space: servers write
    /// `dor+kel` where this client writes `dor%20kel`.
    private static func decoded(_ item: URLQueryItem) -> URLQueryItem {
        URLQueryItem(name: item.name, value: item.value.map { ($0.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? $0) })
    }

    private static func trimmed(_ path: String) -> String {
        (path.hasSuffix("/") ? String(path.dropLast()) : path).lowercased()
    }
}

extension Result where Failure == any Error {
    static func capturing(_ body: () async throws -> Success) async -> Result {
        do {
            return .success(try await body())
        } catch {
            return .failure(error)
        }
    }
}
