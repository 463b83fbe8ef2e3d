import Foundation

/// The URLs of pages 2 to N, derived from page 1 when its `next` link has
/// the form `...?page=2` (other query items kept as the server wrote them),
/// so that they can be fetched at once instead of one after the other.
struct PagePlan {
    /// N: the count of species over the size of page 1, rounded up.
    let lastPage: Int
    private let template: URLComponents
    private let pageItem: Int

    /// Nil when page 1 does not show the pattern, or shows just one page.
    init?(first: SpeciesPage, next: URL, maxPages: Int) {
        guard let count = first.count, !first.species.isEmpty, count > first.species.count,
            let components = URLComponents(url: next, resolvingAgainstBaseURL: false),
            let items = components.percentEncodedQueryItems,
            let pageItem = items.firstIndex(where: { $0.name == "page" }), items[pageItem].value == "2",
            items.filter({ $0.name == "page" }).count == 1
        else { return nil }
        let lastPage = count.dividedRoundingUp(by: first.species.count)
        guard lastPage <= maxPages else { return nil }
        self.lastPage = lastPage
        self.template = components
        self.pageItem = pageItem
    }

    /// The URL of page `number`; page 1 as SWAPI's `previous` links write it,
    /// with `page=1`.
    func url(page number: Int) -> URL? {
        var components = template
        components.percentEncodedQueryItems?[pageItem].value = String(number)
        return components.url
    }
}
