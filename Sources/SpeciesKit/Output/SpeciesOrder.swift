/// An order of species: names alphabetically (ignoring case), heights and
/// lifespans as numbers; species without a value (or whose lifespan is not a
/// number, such as `indefinite`) come last, whichever the direction. Ties
/// keep the order given.
package enum SpeciesOrder: String, Sendable, CaseIterable {
    /// By name, ignoring case.
    case name
    /// By average height, as a number.
    case height
    /// By average lifespan, as a number.
    case lifespan

    /// `species` in this order, or its reverse; absent values last either way.
    package func sorted(_ species: [StarWarsSpecies], reversed: Bool) -> [StarWarsSpecies] {
        let keyed = species.enumerated().map { (position: $0.offset, species: $0.element, key: key(of: $0.element)) }
        return keyed.sorted { first, second in
            switch (first.key, second.key) {
            case (nil, nil): return first.position < second.position
            case (nil, _): return false
            case (_, nil): return true
            case (let a?, let b?):
                if a == b { return first.position < second.position }
                return reversed ? b < a : a < b
            }
        }.map(\.species)
    }

    private enum Key: Comparable {
        case number(Double)
        case text(String, String)
    }

    private func key(of species: StarWarsSpecies) -> Key? {
        switch self {
        case .name: .text(species.name.lowercased(), species.name)
        case .height: species.averageHeight.map { .number(Double($0)) }
        case .lifespan: species.averageLifespan.flatMap(SWAPINumber.value).map(Key.number)
        }
    }
}
