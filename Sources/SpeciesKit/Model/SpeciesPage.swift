/// One page of species: its number, where it stands in the whole listing,
/// and its species.
public struct SpeciesPage: Sendable, Equatable {
    /// Species on a page: SWAPI's own pages hold 10, and where the client
    /// pages a list itself (swapi.info's, a swapi.tech search, the data
    /// built into species), it does the same.
    public static let size = 10

    /// From 1.
    public var number: Int
    /// Species in the whole listing.
    public var count: Int
    /// Pages in the whole listing.
    public var pageCount: Int
    /// The species of this page, in API order.
    public var species: [StarWarsSpecies]

    /// A page of `count` species in all, `pageCount` pages.
    public init(number: Int, count: Int, pageCount: Int, species: [StarWarsSpecies]) {
        self.number = number
        self.count = count
        self.pageCount = pageCount
        self.species = species
    }

    /// Page `number` of `species` (those matching `search`), `size` a page.
    /// - Throws: `SpeciesError.noSuchPage` past the last page (an empty list
    ///   has one, empty), saying how many there are.
    init(slicing species: [StarWarsSpecies], page number: Int, search: String?) throws(SpeciesError) {
        let pages = max(1, species.count.dividedRoundingUp(by: Self.size))
        guard (1...pages).contains(number) else { throw .noSuchPage(number, pages: pages, search: search) }
        let first = (number - 1) * Self.size
        self.init(
            number: number, count: species.count, pageCount: pages,
            species: Array(species[first..<min(first + Self.size, species.count)]))
    }
}
