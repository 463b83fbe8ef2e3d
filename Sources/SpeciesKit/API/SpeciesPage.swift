/// One page of species: its number, where it stands in the whole listing,
/// and its species.
public struct SpeciesPage: Sendable, Equatable {
    /// Species on a page: SWAPI's own pages hold 10, and where the client
    /// pages a list itself (swapi.info's, a swapi.tech search, the SWAPI
    /// data built in), it does the same.
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
    /// - Throws: `Fault.noSuchPage` past the last page (an empty list
    ///   has one, empty), saying how many there are.
    init(slicing species: [StarWarsSpecies], page number: Int, search: String?) throws(Fault) {
        let paging = Paging(count: species.count, size: Self.size)
        self.init(
            number: number, count: species.count, pageCount: paging.pages,
            species: try paging.page(number, of: species, search: search))
    }
}

/// How a listing of `count` species falls into pages of `size`: the one
/// formula of how many pages a listing has, and of what each holds. An
/// empty listing is one empty page.
struct Paging: Sendable, Equatable {
    let count: Int
    /// Species on every page but the last.
    let size: Int

    init(count: Int, size: Int) {
        self.count = max(0, count)
        self.size = max(1, size)
    }

    var pages: Int { max(1, count.dividedRoundingUp(by: size)) }

    /// How many species page `number`, from 1 to `pages`, holds.
    func length(ofPage number: Int) -> Int { number < pages ? size : count - (pages - 1) * size }

    /// Page `number` of `species`, the whole listing.
    /// - Throws: `Fault.noSuchPage` past the last page.
    func page(_ number: Int, of species: [StarWarsSpecies], search: String?) throws(Fault) -> [StarWarsSpecies] {
        guard (1...pages).contains(number) else { throw .noSuchPage(number, pages: pages, search: search) }
        let first = (number - 1) * size
        return Array(species[first..<first + length(ofPage: number)])
    }
}
