import Foundation

/// One page of `GET species/`: SWAPI's wrapper around up to 10 species.
public struct SpeciesPage: Sendable {
    public var count: Int?
    /// The next page's URL as the server wrote it; `nil` on the last page.
    public var next: String?
    public var previous: String?
    /// The page's species, decoded as they are iterated.
    public var species: SpeciesList

    public init(count: Int?, next: String?, previous: String?, species: SpeciesList) {
        self.count = count
        self.next = next
        self.previous = previous
        self.species = species
    }

    public init(count: Int?, next: String?, previous: String?, results: [StarWarsSpecies]) {
        self.init(count: count, next: next, previous: previous, species: SpeciesList(results))
    }

    /// Every species of the page, decoded.
    public var results: [StarWarsSpecies] { Array(species) }
}

/// The species of a page: decoded one at a time from the response body as
/// they are iterated, so that a page of 100,000 species can be printed line
/// by line without all of them in memory. Each species decoded is shown to
/// the `report` closure (the client warns there of fields of the wrong type).
public struct SpeciesList: Sequence, Sendable {
    private enum Storage: Sendable {
        case decoded([StarWarsSpecies])
        case encoded(body: Data, elements: [Range<Int>])
    }

    private var storage: Storage
    private var report: (@Sendable (StarWarsSpecies) -> Void)?

    public init(_ species: [StarWarsSpecies]) {
        storage = .decoded(species)
    }

    init(body: Data, elements: [Range<Int>]) {
        storage = .encoded(body: body, elements: elements)
    }

    public var count: Int {
        switch storage {
        case .decoded(let species): species.count
        case .encoded(_, let elements): elements.count
        }
    }

    public var isEmpty: Bool { count == 0 }

    /// The species at `positions`, decoded as they are iterated.
    func slice(_ positions: Range<Int>) -> SpeciesList {
        var list = self
        switch storage {
        case .decoded(let all): list.storage = .decoded(Array(all[positions]))
        case .encoded(let body, let elements): list.storage = .encoded(body: body, elements: Array(elements[positions]))
        }
        return list
    }

    /// The same species, each shown to `report` as it is decoded.
    public func reporting(to report: @escaping @Sendable (StarWarsSpecies) -> Void) -> SpeciesList {
        var list = self
        list.report = report
        return list
    }

    public func makeIterator() -> Iterator {
        Iterator(list: self)
    }

    public struct Iterator: IteratorProtocol {
        private var storage: Storage
        private let count: Int
        private let report: (@Sendable (StarWarsSpecies) -> Void)?
        private var position = 0

        init(list: SpeciesList) {
            storage = list.storage
            count = list.count
            report = list.report
        }

        public mutating func next() -> StarWarsSpecies? {
            guard position < count else { return nil }
            defer { position += 1 }
            let species: StarWarsSpecies
            switch storage {
            case .decoded(let all): species = all[position]
            case .encoded(let body, let elements): species = SpeciesDocument.species(in: body, at: elements[position])
            }
            report?(species)
            return species
        }
    }
}
