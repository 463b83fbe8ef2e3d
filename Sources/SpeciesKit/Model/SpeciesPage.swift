/// One page of species as swapi.dev serves it: `count`, `next`, `previous`
/// and `results`. Decoding is lenient where it can be: a `count` or
/// `previous` of the wrong type is absent, and an element of `results` that
/// is not a species object is skipped, so that one bad element does not
/// sink the page. What was left out is in `issues`.
public struct SpeciesPage: Decodable, Sendable {
    public var count: Int?
    /// The next page's URL as the server wrote it; nil on the last page.
    public var next: String?
    public var previous: String?
    public var results: [StarWarsSpecies]
    public var issues: [SpeciesIssue]

    public init(count: Int?, next: String?, previous: String?, results: [StarWarsSpecies], issues: [SpeciesIssue] = []) {
        self.count = count
        self.next = next
        self.previous = previous
        self.results = results
        self.issues = issues
    }

    private enum CodingKeys: String, CodingKey {
        case count, next, previous, results
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        count = try? container.decodeIfPresent(Int.self, forKey: .count)
        // Without a readable `next`, the pages after this one are out of reach.
        next = try container.decodeIfPresent(String.self, forKey: .next)
        previous = try? container.decodeIfPresent(String.self, forKey: .previous)
        (results, issues) = try SpeciesIssue.decodeElements(of: container.nestedUnkeyedContainer(forKey: .results)) {
            (decoded: StarWarsSpecies.Decoded) in decoded
        }
    }
}

/// Something in a response that could not be read and was left out: a
/// field of a species, or a whole element of a list.
public struct SpeciesIssue: Hashable, Sendable, CustomStringConvertible {
    /// Which species: `'Wookie'`, `at <url>`, or `results[3]`.
    public var species: String
    /// The field left absent; nil when the whole element was skipped.
    public var field: StarWarsSpecies.InvalidField?

    public var description: String {
        guard let field else { return "\(species) is not a species object; skipped" }
        return "species \(species): \(field); treated as absent"
    }

    /// The species of a list whose elements decode as `Element`, and what
    /// could not be read of them; `species` finds the species in an element
    /// (nil skips it).
    /// - Throws: `TooManyElements` past `maxElements`.
    /// A list of more species is refused before its elements are decoded:
    /// no SWAPI comes near, and a page of 100,000 species is 70 MB.
    static let maxElements = 200_000

    /// The number of elements of a list refused for holding too many.
    struct TooManyElements: Error {
        let count: Int
    }

    static func decodeElements<Element: Decodable>(
        of list: UnkeyedDecodingContainer, _ species: (Element) -> StarWarsSpecies.Decoded?
    ) throws -> ([StarWarsSpecies], [SpeciesIssue]) {
        var list = list
        var results: [StarWarsSpecies] = []
        var issues: [SpeciesIssue] = []
        if let count = list.count {
            guard count <= maxElements else { throw TooManyElements(count: count) }
            results.reserveCapacity(count)
        }
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
