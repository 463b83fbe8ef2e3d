/// A field of a species that could not be read and was left absent.
struct SpeciesIssue: Hashable, Sendable, CustomStringConvertible {
    /// Which species: `'Wookie'`, or `at <url>`.
    var species: String
    /// The field left absent.
    var field: StarWarsSpecies.InvalidField

    /// `species 'Wookie': field 'created' is not a valid UTC timestamp; treated as absent`, for a warning.
    var description: String { "species \(species): \(field); treated as absent" }
}
