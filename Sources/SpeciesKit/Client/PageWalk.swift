import Foundation

/// Reads the pages of a listing, each held to the rule of whole listings
/// (`WholeListing`), and hands over their species in API order: every page,
/// or, with a `limit`, the first pages that hold that many.
///
/// The pages are the catalog's, in `dialect`: as many as `expectedPages`
/// says at once (at most `RemoteCatalog.concurrency` in flight), and then
/// as many as page 1's count makes. A page is taken only once the page
/// before links to it with its `next` and it links back with its
/// `previous`, so the chain is the server's own. Where a link does not have
/// the form of `pageURL`, the rest is followed one link at a time, and so
/// is everything when the catalog is `serial`. A page asked for past the
/// last one is never taken, and its answer (a 404, or swapi.tech's repeat
/// of the last page) does not matter.
struct PageWalk: Sendable {
    let catalog: RemoteCatalog
    let dialect: Dialect
    /// The search the listing answers.
    let search: String?
    /// How many pages to ask for before page 1 has said how many there are.
    let expectedPages: Int
    /// At most this many species are wanted; nil for all.
    let limit: Int?

    private var root: APIRoot { catalog.root }
    private var diagnostics: any Diagnostics { catalog.attempt }

    /// The URL of page `k`, in the form of the server's own links.
    func pageURL(_ number: Int) -> URL {
        dialect.listingURL(root, page: number, search: search)
    }

    /// Page `url`, read by the catalog; page 1 opens the listing.
    func listing(_ url: URL) async throws -> ListingBody {
        let first = url == pageURL(1)
        return try await catalog.listing(at: url, expected: dialect, first: first, opens: first)
    }

    /// Hands over each page's species, with its URL, in API order.
    func run(_ deliver: (URL, [StarWarsSpecies]) -> Void) async throws {
        var whole = WholeListing(search: search)
        var pages = PageRequests(walk: self, wanted: expectedPages)
        if expectedPages <= 1 {
            // One page expected, as an answer from the cache or a search
            // usually is: asked here, and when it is the only one, handed
            // over without a task group (and the threads that run one).
            diagnostics.progress("fetching page 1…")
            let first = try await listing(pageURL(1))
            guard first.next != nil else { return deliver(pageURL(1), try whole.add(first, number: 1, at: pageURL(1))) }
            pages.hold(first, as: 1)
        }
        try await withThrowingTaskGroup(of: CappedRequests<ListingBody>.Arrival.self) { group in
            defer { group.cancelAll() }
            var before: (url: URL, page: ListingBody)?
            for number in 1... {
                let url = pageURL(number)
                let wanted = pages.requests.wanted
                diagnostics.progress(
                    "fetching page \(number)" + (number <= wanted && wanted > 1 ? " of \(wanted)" : "") + "…")
                let page = try await pages.page(number, in: &group).mapError { Self.blame($0, on: before) }.get()
                if let before, !links(page.previous, from: url, to: number - 1) {
                    // The server's chain is not the pattern's: from the page
                    // before, follow `next` itself.
                    return try await followLinks(after: before, whole, deliver)
                }
                deliver(url, try whole.add(page, number: number, at: url))
                guard !whole.isDone(limit: limit) else { return }
                if number == 1, let paging = whole.paging {
                    pages.requests.want(min(paging.pages, limit?.dividedRoundingUp(by: paging.size) ?? .max))
                }
                guard links(page.next, from: url, to: number + 1) else {
                    return try await followLinks(after: (url, page), whole, deliver)
                }
                pages.requests.want(number + 1)
                before = (url, page)
            }
        }
    }

    /// One page at a time after `start`, each from the `next` link of the
    /// page before; a link to a page read already is a loop.
    private func followLinks(
        after start: (url: URL, page: ListingBody), _ whole: WholeListing,
        _ deliver: (URL, [StarWarsSpecies]) -> Void
    ) async throws {
        var whole = whole
        var current = start
        // Pages by number where a link has the pattern's form, else by URL.
        let place = { (url: URL) in
            ListingLink.page(of: url, inFormOf: pageURL(2)).map(String.init) ?? url.absoluteString
        }
        var visited = Set((0..<whole.pagesRead).map { String($0 + 1) } + [place(start.url)])
        // A page before the last always links on (`WholeListing`).
        while !whole.isDone(limit: limit), let next = current.page.next {
            let url = try LinkPolicy.resolve(next, of: current.url, root: root)
            guard visited.insert(place(url)).inserted else {
                throw SpeciesError.badLink(url: current.url, link: next, .loops)
            }
            diagnostics.progress("fetching the page after \(current.url.redacted)…")
            let page = try await Result.capturing { try await listing(url) }.mapError { Self.blame($0, on: current) }
                .get()
            deliver(url, try whole.add(page, number: whole.pagesRead + 1, at: url))
            current = (url, page)
        }
    }

    /// Whether `link`, found on the page at `page`, leads to page `number`
    /// of this listing.
    private func links(_ link: String?, from page: URL, to number: Int) -> Bool {
        guard let link, let url = try? LinkPolicy.resolve(link, of: page, root: root) else { return false }
        return ListingLink.page(of: url, inFormOf: pageURL(max(number, 2))) == number
    }

    /// A page that a `next` link leads to and that is not there is the
    /// link's fault.
    private static func blame(_ error: any Error, on previous: (url: URL, page: ListingBody)?) -> any Error {
        guard let previous, let link = previous.page.next, case SpeciesError.httpStatus(404, _) = error else {
            return error
        }
        return SpeciesError.badLink(url: previous.url, link: link, .notFound)
    }
}

/// The pages a walk has asked for, each kept until the walk comes to it.
private struct PageRequests {
    var requests: CappedRequests<ListingBody>
    private var arrived: [Int: Result<ListingBody, any Error>] = [:]

    init(walk: PageWalk, wanted: Int) {
        requests = CappedRequests(wanted: max(1, wanted), limit: walk.catalog.serial ? 1 : RemoteCatalog.concurrency) {
            try await walk.listing(walk.pageURL($0))
        }
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
