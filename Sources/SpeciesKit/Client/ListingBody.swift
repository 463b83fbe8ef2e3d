/// A listing of species as any dialect answers it, and which dialect that
/// is (docs/swapi-dialects.md): swapi.dev's page (`count`, `next`,
/// `previous`, `results`), swapi.tech's page (`message`, `total_records`,
/// `results`) or search (`result`), or swapi.info's array of every species.
/// A page carries its count as a whole number, 0 or more, or it is no SWAPI
/// listing. No element is skipped: `notASpecies` names the first that is no
/// species object, and `ListingReader` says what that makes of the page.
struct ListingBody: Decodable, Sendable {
    var dialect: Dialect
    /// Species in the whole listing: the page's count (swapi.dev's `count`,
    /// swapi.tech's `total_records`), or the length of a listing that comes
    /// whole in one answer (swapi.info's, swapi.tech's search).
    var count: Int
    /// The next page's URL as the server wrote it; nil on the last page.
    var next: String?
    var species: [StarWarsSpecies] = []
    /// What could not be read of the species' fields.
    var issues: [SpeciesIssue] = []
    /// `results[3]`: the first element that is no species object.
    var notASpecies: String?
    /// swapi.tech's search, whole in one answer (`result`).
    var isSearch = false
    /// False for a page of swapi.tech asked without `expanded=true`: its
    /// results are names only.
    var expanded = true

    private enum Keys: String, CodingKey {
        case count, next, results, message, result
        case totalRecords = "total_records"
    }

    init(from decoder: any Decoder) throws {
        if let list = try? decoder.unkeyedContainer() {
            dialect = .info
            count = 0
            try decodeElements(of: list, at: "") { (decoded: StarWarsSpecies.Decoded) in decoded }
            count = species.count
            return
        }
        let container = try decoder.container(keyedBy: Keys.self)
        // Without a readable `next`, the pages after this one are out of reach.
        next = try container.decodeIfPresent(String.self, forKey: .next)
        guard container.contains(.message) || container.contains(.totalRecords) || container.contains(.result) else {
            dialect = .drf
            count = try Self.count(container, .count)
            try decodeElements(of: container.nestedUnkeyedContainer(forKey: .results), at: "results") {
                (decoded: StarWarsSpecies.Decoded) in decoded
            }
            return
        }
        dialect = .tech
        isSearch = !container.contains(.results)
        // A search answers with all its species at once, and no count.
        count = isSearch ? 0 : try Self.count(container, .totalRecords)
        var summaries = 0
        try decodeElements(
            of: container.nestedUnkeyedContainer(forKey: isSearch ? .result : .results),
            at: isSearch ? "result" : "results"
        ) {
            (document: TechDocument) in
            if document.isSummary { summaries += 1 }
            return document.species
        }
        if summaries > 0 {
            expanded = false
            issues = []
            notASpecies = nil
        }
        if isSearch { count = species.count }
    }

    private static func count(_ container: KeyedDecodingContainer<Keys>, _ key: Keys) throws -> Int {
        guard let count = try? container.decode(Int.self, forKey: key), count >= 0 else {
            if !container.contains(key) { _ = try container.decode(Int.self, forKey: key) }
            throw DecodingError.dataCorruptedError(
                forKey: key, in: container, debugDescription: "a whole number from 0 up")
        }
        return count
    }

    /// The species of `list`, whose elements decode as `Element`, and what
    /// could not be read of their fields; `species` finds the species in an
    /// element. The first element that is none is noted.
    private mutating func decodeElements<Element: Decodable>(
        of list: UnkeyedDecodingContainer, at path: String, _ species: (Element) -> StarWarsSpecies.Decoded?
    ) throws {
        var list = list
        if let count = list.count { self.species.reserveCapacity(count) }
        while !list.isAtEnd {
            let position = list.currentIndex
            guard let decoded = try list.decode(Lenient<Element>.self).value.flatMap(species) else {
                notASpecies = notASpecies ?? "\(path)[\(position)]"
                continue
            }
            self.species.append(decoded.species)
            issues += decoded.invalidFields.map { SpeciesIssue(species: decoded.species.displayName, field: $0) }
        }
    }
}

/// An element decoded if it can be; nil if not, without failing its list.
private struct Lenient<Value: Decodable>: Decodable {
    let value: Value?

    init(from decoder: any Decoder) throws {
        value = try? Value(from: decoder)
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
