/// A listing of species as any dialect answers it, and which dialect that
/// is: swapi.dev's page (`count`, `next`, `previous`, `results`), swapi.tech's
/// envelope (`message`, `total_records`, `total_pages`, `results` or, for a
/// search, `result`), or swapi.info's array of every species.
struct ListingPage: Decodable, Sendable {
    var dialect: Dialect
    var count: Int?
    /// How many pages swapi.tech says there are.
    var pageCount: Int?
    var next: String?
    var previous: String?
    var species: [StarWarsSpecies]
    var issues: [SpeciesIssue]
    /// False for a page of swapi.tech asked without `expanded=true`: its
    /// results are names only.
    var expanded = true

    private enum TechKeys: String, CodingKey {
        case message, result, results, next, previous
        case totalRecords = "total_records"
        case totalPages = "total_pages"
    }

    init(from decoder: any Decoder) throws {
        if let list = try? decoder.unkeyedContainer() {
            dialect = .info
            (species, issues) = try SpeciesIssue.decodeElements(of: list) { (decoded: StarWarsSpecies.Decoded) in decoded }
            count = species.count
            return
        }
        let container = try decoder.container(keyedBy: TechKeys.self)
        guard container.contains(.message) || container.contains(.totalRecords) || container.contains(.result) else {
            let page = try SpeciesPage(from: decoder)
            dialect = .drf
            (count, next, previous, species, issues) = (page.count, page.next, page.previous, page.results, page.issues)
            return
        }
        dialect = .tech
        count = try? container.decodeIfPresent(Int.self, forKey: .totalRecords)
        pageCount = try? container.decodeIfPresent(Int.self, forKey: .totalPages)
        next = try container.decodeIfPresent(String.self, forKey: .next)
        previous = try? container.decodeIfPresent(String.self, forKey: .previous)
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

/// One species, or the name of a planet, person or film, as any dialect
/// answers it: the object itself, or swapi.tech's
/// `{"message": "ok", "result": {"properties": {...}}}`.
struct DetailBody<Value: Decodable>: Decodable {
    let value: Value

    private enum Envelope: String, CodingKey {
        case result, properties
    }

    init(from decoder: any Decoder) throws {
        if let envelope = try? decoder.container(keyedBy: Envelope.self), envelope.contains(.result) {
            let result = try envelope.nestedContainer(keyedBy: Envelope.self, forKey: .result)
            value = try result.decode(Value.self, forKey: .properties)
        } else {
            value = try Value(from: decoder)
        }
    }
}
