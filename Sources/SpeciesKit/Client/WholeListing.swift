import Foundation

/// The one rule of a whole listing (docs/cli.md, "One answer, one source"),
/// held to its pages in order, on every path that reads one: every page
/// carries page 1's count; every page but the last holds the page size, and
/// links to a next one; the last holds the rest, and links to none; each
/// species comes once, and matches the search. The pages that keep it make
/// the listing, or, with a limit, its first pages; a page that breaks it is
/// no answer (`SpeciesError.incomplete`), and the next source answers; so
/// is an empty species list: SWAPI always has species.
struct WholeListing {
    /// What every species must match; nil, or no terms, for every species.
    let search: String?
    /// Species on every page but the last; when nil, page 1 says: all it
    /// holds when it links on, its whole count when it does not.
    let pageSize: Int?
    private(set) var paging: Paging?
    private(set) var pagesRead = 0
    private(set) var received = 0
    private var seen: Set<String> = []

    init(search: String?, pageSize: Int? = nil) {
        self.search = search
        self.pageSize = pageSize
    }

    /// Page `number`, at `url`, read alone, as far as one page can tell:
    /// by its count, the page size (page 1's own, SWAPI's 10 for any other)
    /// and whether it links on; "page N of M" comes from its count.
    static func page(_ page: ListingBody, number: Int, at url: URL, search: String?) throws(SpeciesError)
        -> SpeciesPage
    {
        var whole = WholeListing(search: search, pageSize: number == 1 ? nil : SpeciesPage.size)
        let species = try whole.add(page, number: number, at: url)
        return SpeciesPage(number: number, count: page.count, pageCount: whole.pages, species: species)
    }

    /// How many pages the listing has, once page 1 is in.
    var pages: Int { paging?.pages ?? 1 }

    /// Whether every page has been read, or `limit` species.
    func isDone(limit: Int?) -> Bool {
        pagesRead == paging?.pages || limit.map { received >= $0 } == true
    }

    /// The species of page `number`, at `url`, once the page keeps the rule.
    /// - Throws: `SpeciesError.incomplete` for a page that breaks it;
    ///   `.noSuchPage` past the last page; `.tooLarge` for a count of more
    ///   pages than species reads.
    mutating func add(_ page: ListingBody, number: Int, at url: URL) throws(SpeciesError) -> [StarWarsSpecies] {
        let paging =
            self.paging
            ?? Paging(
                count: page.count, size: pageSize ?? (page.next == nil ? page.count : page.species.count))
        guard paging.pages <= RemoteCatalog.maxPages else {
            throw .tooLarge(url: url, .pages(RemoteCatalog.maxPages))
        }
        guard number <= paging.pages else { throw .noSuchPage(number, pages: paging.pages, search: search) }
        let terms = SearchTerms(search ?? "")
        if terms.terms.isEmpty, paging.count == 0 { throw .notSWAPI(url: url, status: nil) }
        let fault: ListingFault? =
            if page.count != paging.count {
                .countChanged(page.count, from: paging.count)
            } else if page.species.count != paging.length(ofPage: number) {
                .pageLength(page.species.count, expected: paging.length(ofPage: number))
            } else if (page.next != nil) != (number < paging.pages) {
                .nextLink(page.next != nil, pages: paging.pages)
            } else if let stray = page.species.first(where: { !terms.matches($0.name) }) {
                .unmatched(stray.displayName, search: search ?? "")
            } else if let again = page.species.first(where: {
                ($0.url ?? $0.name).map { !seen.insert($0).inserted } ?? false
            }) {
                .repeated(again.displayName)
            } else {
                nil
            }
        if let fault { throw .incomplete(url: url, fault) }
        self.paging = paging
        pagesRead = number
        received += page.species.count
        return page.species
    }
}
