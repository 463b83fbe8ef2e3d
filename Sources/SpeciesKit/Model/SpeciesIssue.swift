/// Something in a response that could not be read and was left out: a
/// field of a species, or a whole element of a list.
struct SpeciesIssue: Hashable, Sendable, CustomStringConvertible {
    /// Which species: `'Wookie'`, `at <url>`, or `results[3]`.
    var species: String
    /// The field left absent; nil when the whole element was skipped.
    var field: StarWarsSpecies.InvalidField?

    /// `species 'Wookie': field 'created' is not a valid UTC timestamp; treated as absent`, for a warning.
    var description: String {
        guard let field else { return "\(species) is not a species object; skipped" }
        return "species \(species): \(field); treated as absent"
    }

    /// The species of a list whose elements decode as `Element`, and what
    /// could not be read of them; `species` finds the species in an element
    /// (nil skips it). One bad element does not sink the list.
    static func decodeElements<Element: Decodable>(
        of list: UnkeyedDecodingContainer, _ species: (Element) -> StarWarsSpecies.Decoded?
    ) throws -> ([StarWarsSpecies], [SpeciesIssue]) {
        var list = list
        var results: [StarWarsSpecies] = []
        var issues: [SpeciesIssue] = []
        if let count = list.count { results.reserveCapacity(count) }
        while !list.isAtEnd {
            let position = list.currentIndex
            guard let decoded = try list.decode(Lenient<Element>.self).value.flatMap(species) else {
                issues.append(SpeciesIssue(species: "results[\(position)]", field: nil))
                continue
            }
            results.append(decoded.species)
            issues += decoded.invalidFields.map { SpeciesIssue(species: decoded.species.displayName, field: $0) }
        }
        return (results, issues)
    }
}

/// An element decoded if it can be; nil if not, without failing its list.
private struct Lenient<Value: Decodable>: Decodable {
    let value: Value?

    init(from decoder: any Decoder) throws {
        value = try? Value(from: decoder)
    }
}
