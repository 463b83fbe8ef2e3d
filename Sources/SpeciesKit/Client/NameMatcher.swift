/// How `show` matches a name, case-insensitively: an exact match wins,
/// otherwise a single partial match; several partial matches are ambiguous.
enum NameMatcher {
    /// The species `name` designates, or nil when none matches.
    /// - Throws: `SpeciesError.ambiguousName` when several match equally well.
    static func match(_ name: String, in species: [StarWarsSpecies]) throws -> StarWarsSpecies? {
        let key = name.lowercased()
        let named = species.compactMap { item in item.name.map { (item, $0.lowercased()) } }
        for candidates in [named.filter { $0.1 == key }, named.filter { $0.1.contains(key) }] {
            if candidates.count == 1 { return candidates[0].0 }
            if candidates.count > 1 {
                throw SpeciesError.ambiguousName(name, matches: candidates.compactMap(\.0.name))
            }
        }
        return nil
    }
}
