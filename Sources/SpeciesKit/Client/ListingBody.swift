/// A listing of species as any dialect answers it, and which dialect that
/// is (docs/swapi-dialects.md): swapi.dev's page (`count`, `next`,
/// `previous`, `results`), swapi.tech's envelope (`message`,
/// `total_records`, `total_pages`, `results` or, for a search, `result`),
/// or swapi.info's array of every species. A page carries its count as a
/// whole number, 0 or more, or it is no SWAPI listing; elsewhere decoding is
/// lenient: a `previous` of the wrong type is absent, and an element of the
/// results that is not a species object is skipped (`issues`).
struct ListingBody: Decodable, Sendable {
    var dialect: Dialect
    /// Species in the whole listing: the page's count (swapi.dev's `count`,
    /// swapi.tech's `total_records`), or the length of a listing that comes
    /// whole in one answer (swapi.info's, swapi.tech's search).
    var count: Int
    /// The next page's URL as the server wrote it; nil on the last page.
    var next: String?
    var previous: String?
    var species: [StarWarsSpecies]
    var issues: [SpeciesIssue]
    /// False for a page of swapi.tech asked without `expanded=true`: its
    /// results are names only.
    var expanded = true

    private enum Keys: String, CodingKey {
        case count, next, previous, results, message, result
        case totalRecords = "total_records"
    }

    init(from decoder: any Decoder) throws {
        if let list = try? decoder.unkeyedContainer() {
            dialect = .info
            (species, issues) = try SpeciesIssue.decodeElements(of: list) { (decoded: StarWarsSpecies.Decoded) in
                decoded
            }
            count = species.count
            return
        }
        let container = try decoder.container(keyedBy: Keys.self)
        // Without a readable `next`, the pages after this one are out of reach.
        next = try container.decodeIfPresent(String.self, forKey: .next)
        previous = try? container.decodeIfPresent(String.self, forKey: .previous)
        guard container.contains(.message) || container.contains(.totalRecords) || container.contains(.result) else {
            dialect = .drf
            count = try Self.count(container, .count)
            (species, issues) = try SpeciesIssue.decodeElements(of: container.nestedUnkeyedContainer(forKey: .results))
            {
                (decoded: StarWarsSpecies.Decoded) in decoded
            }
            return
        }
        dialect = .tech
        var summaries = 0
        let results = try container.nestedUnkeyedContainer(forKey: container.contains(.results) ? .results : .result)
        (species, issues) = try SpeciesIssue.decodeElements(of: results) { (document: TechDocument) in
            if document.isSummary { summaries += 1 }
            return document.species
        }
        if summaries > 0 {
            expanded = false
            issues = []
        }
        // A search answers with all its species at once, and no count.
        count = container.contains(.results) ? try Self.count(container, .totalRecords) : species.count
    }

    private static func count(_ container: KeyedDecodingContainer<Keys>, _ key: Keys) throws -> Int {
        guard let count = try? container.decode(Int.self, forKey: key), count >= 0 else {
            if !container.contains(key) { _ = try container.decode(Int.self, forKey: key) }
            throw DecodingError.dataCorruptedError(
                forKey: key, in: container, debugDescription: "a whole number from 0 up")
        }
        return count
    }
}

/// One resource of swapi.tech: `{"properties": {...}, "uid": ...}`, or, in a
/// page asked without `expanded=true`, only `uid`, `name` and `url`.
private struct TechDocument: Decodable {
    let species: StarWarsSpecies.Decoded?
    let isSummary: Bool

    private enum Keys: String, CodingKey {
        case properties, uid
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        species = try container.decodeIfPresent(StarWarsSpecies.Decoded.self, forKey: .properties)
        isSummary = species == nil && container.contains(.uid)
    }
}
