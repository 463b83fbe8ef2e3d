/// A listing of species as any dialect answers it, and which dialect that
/// is (docs/swapi-dialects.md): swapi.dev's page (`count`, `next`,
/// `previous`, `results`), swapi.tech's envelope (`message`,
/// `total_records`, `total_pages`, `results` or, for a search, `result`),
/// or swapi.info's array of every species. Decoding is lenient where it can
/// be: a count or `previous` of the wrong type is absent, and an element of
/// the results that is not a species object is skipped (`issues`).
struct ListingBody: Decodable, Sendable {
    var dialect: Dialect
    var count: Int?
    /// How many pages swapi.tech says there are.
    var pageCount: Int?
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
        case totalPages = "total_pages"
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
            count = try? container.decodeIfPresent(Int.self, forKey: .count)
            (species, issues) = try SpeciesIssue.decodeElements(of: container.nestedUnkeyedContainer(forKey: .results))
            {
                (decoded: StarWarsSpecies.Decoded) in decoded
            }
            return
        }
        dialect = .tech
        count = try? container.decodeIfPresent(Int.self, forKey: .totalRecords)
        pageCount = try? container.decodeIfPresent(Int.self, forKey: .totalPages)
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
        if count == nil, !container.contains(.results) { count = species.count }
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
