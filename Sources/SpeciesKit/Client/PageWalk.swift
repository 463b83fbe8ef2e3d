import Foundation

/// Fetches every page of a listing and hands each over in API order.
///
/// The pages come from `pageURL(k)`: as many as `expectedPages` says at
/// once (at most `concurrency` in flight), and then as many as page 1's
/// `count` says. Each page is handed over only once the page before links
/// to it with its `next` and it links back with its `previous`, so the
/// chain is the server's own. Where a link does not have the form of
/// `pageURL`, the rest is followed one link at a time, and so is everything
/// when `concurrency` is 1. A page after the last one is never handed over,
/// and its answer (a 404, or swapi.tech's repeat of the last page) does not
/// matter. A species that comes a second time (the pages changed while they
/// were read) is handed over once. With a `limit`, once page 1 is in, the
/// walk asks for no more pages than hold that many species, and it ends
/// once it has handed them over.
struct PageWalk {
    let root: APIRoot
    let diagnostics: any Diagnostics
    /// The URL of page `k`, in the form of the server's own links.
    let pageURL: @Sendable (Int) -> URL
    /// How many pages to ask for before page 1 has said how many there are.
    let expectedPages: Int
    let concurrency: Int
    /// At most this many species are wanted; nil for all.
    var limit: Int?
    /// Fetches and reads one page.
    let listing: @Sendable (URL) async throws -> ListingBody

    /// The species handed over, how many page 1 counted, and how many came
    /// a second time.
    struct Summary {
        var received = 0
        var counted: Int?
        var repeated = 0

        /// Species counted that never came.
        var missing: Int {
            max(0, (counted ?? received) - received)
        }
        /// Each species handed over: its URL, else its name.
        private var seen: Set<String> = []

        /// Whether `limit` species have been handed over.
        func reached(_ limit: Int?) -> Bool {
            limit.map { received >= $0 } ?? false
        }

        /// The species of a page not handed over before, counted.
        mutating func fresh(_ species: [StarWarsSpecies]) -> [StarWarsSpecies] {
            let fresh = species.filter { item in (item.url ?? item.name).map { seen.insert($0).inserted } ?? true }
            received += fresh.count
            repeated += species.count - fresh.count
            return fresh
        }
    }

    /// Hands over each page, with its URL, in API order.
    func run(_ deliver: (URL, [StarWarsSpecies]) async throws -> Void) async throws -> Summary {
        var summary = Summary()
        var pages = PageRequests(walk: self, wanted: expectedPages)
        if expectedPages <= 1 {
            // One page expected, as an answer from the cache or a search
            // usually is: asked here, and when it is the only one, handed
            // over without a task group (and the threads that run one).
            diagnostics.progress("fetching page 1…")
            let first = try await listing(pageURL(1))
            guard first.next != nil else {
                summary.counted = first.count
                try await deliver(pageURL(1), summary.fresh(first.species))
                return summary
            }
            pages.hold(first, as: 1)
        }
        return try await withThrowingTaskGroup(of: CappedRequests<ListingBody>.Arrival.self, returning: Summary.self) {
            group in
            defer { group.cancelAll() }
            var visited: Set<String> = []
            var before: (url: URL, page: ListingBody)?
            for number in 1... {
                let url = pageURL(number)
                let wanted = pages.requests.wanted
                diagnostics.progress(
                    "fetching page \(number)" + (number <= wanted && wanted > 1 ? " of \(wanted)" : "") + "…")
                let page = try await pages.page(number, in: &group).mapError { Self.blame($0, on: before?.url) }
                    .get()
                if let before, !links(page.previous, from: url, to: number - 1) {
                    // The server's chain is not the pattern's: from the page
                    // before, follow `next` itself.
                    return try await followLinks(after: before, visited: visited, summary, deliver)
                }
                if number == 1 {
                    summary.counted = page.count
                    pages.requests.want(pagesWanted(after: page))
                }
                try await deliver(url, summary.fresh(page.species))
                visited.insert(url.absoluteString)
                guard let next = page.next, !summary.reached(limit) else { return summary }
                guard links(next, from: url, to: number + 1) else {
                    return try await followLinks(after: (url, page), visited: visited, summary, deliver)
                }
                guard number < RemoteCatalog.maxPages else {
                    throw SpeciesError.refused(
                        url: url, problem: "more than \(RemoteCatalog.maxPages) pages; stopped here")
                }
                pages.requests.want(number + 1)
                before = (url, page)
            }
            return summary
        }
    }

    /// One page at a time, each from the `next` link of the page before;
    /// a link to a page `visited` already is a loop.
    private func followLinks(
        after start: (url: URL, page: ListingBody), visited: Set<String>, _ summary: Summary,
        _ deliver: (URL, [StarWarsSpecies]) async throws -> Void
    ) async throws -> Summary {
        var summary = summary
        var current = start
        var visited = visited.union([current.url.absoluteString])
        while let next = current.page.next {
            let url = try LinkPolicy.resolve(next, of: current.url, root: root)
            guard visited.insert(url.absoluteString).inserted else {
                throw SpeciesError.refused(
                    url: current.url,
                    problem: "its 'next' link leads back to \(url.redacted), a page already read: a loop")
            }
            guard visited.count <= RemoteCatalog.maxPages else {
                throw SpeciesError.refused(url: url, problem: "more than \(RemoteCatalog.maxPages) pages; stopped here")
            }
            diagnostics.progress("fetching the page after \(current.url.redacted)…")
            let page: ListingBody
            do {
                page = try await listing(url)
            } catch {
                throw Self.blame(error, on: current.url)
            }
            try await deliver(url, summary.fresh(page.species))
            current = (url, page)
            if summary.reached(limit) { break }
        }
        return summary
    }

    /// How many pages to ask for, now that page 1 is in: as many as it says
    /// there are, or as many of its size as hold `limit` species.
    private func pagesWanted(after first: ListingBody) -> Int {
        let pages = Self.pageCount(of: first)
        guard let limit, !first.species.isEmpty else { return pages }
        return min(pages, limit.dividedRoundingUp(by: first.species.count))
    }

    /// How many pages page 1 says its listing has: by its `count` and its
    /// own length; 2 when it has a `next` but no usable count.
    static func pageCount(of first: ListingBody) -> Int {
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
        return SpeciesError.invalidResponse(
            url: previous, problem: "its 'next' link \(url.redacted) answered 404 Not Found")
    }
}

/// The pages a walk has asked for, each kept until the walk comes to it.
private struct PageRequests {
    var requests: CappedRequests<ListingBody>
    private var arrived: [Int: Result<ListingBody, any Error>] = [:]

    init(walk: PageWalk, wanted: Int) {
        let (listing, pageURL) = (walk.listing, walk.pageURL)
        requests = CappedRequests(wanted: max(1, wanted), limit: walk.concurrency) { try await listing(pageURL($0)) }
    }

    /// Keeps page `number`, fetched already.
    mutating func hold(_ page: ListingBody, as number: Int) {
        arrived[number] = .success(page)
        requests.skip(through: number)
    }

    /// The answer of page `number`, once it is in, with more pages asked
    /// for meanwhile.
    mutating func page(_ number: Int, in group: inout ThrowingTaskGroup<CappedRequests<ListingBody>.Arrival, any Error>)
        async throws -> Result<ListingBody, any Error>
    {
        if let page = arrived.removeValue(forKey: number) { return page }
        // The walk wants every page it comes to: one is in flight.
        while let arrival = try await requests.next(in: &group) {
            if arrival.number == number { return arrival.result }
            arrived[arrival.number] = arrival.result
        }
        throw CancellationError()
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
        URLQueryItem(
            name: item.name,
            value: item.value.map { ($0.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? $0) })
    }

    private static func trimmed(_ path: String) -> String {
        (path.hasSuffix("/") ? String(path.dropLast()) : path).lowercased()
    }
}
