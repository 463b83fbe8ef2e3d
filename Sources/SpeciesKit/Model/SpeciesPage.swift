/// One page of `GET species/`: SWAPI's wrapper around up to 10 species.
public struct SpeciesPage: Sendable, Equatable {
    public var count: Int?
    /// The next page's URL as the server wrote it; `nil` on the last page.
    public var next: String?
    public var previous: String?
    public var results: [StarWarsSpecies]

    public init(count: Int?, next: String?, previous: String?, results: [StarWarsSpecies]) {
        self.count = count
        self.next = next
        self.previous = previous
        self.results = results
    }
}

extension SpeciesPage: Decodable {
    enum CodingKeys: String, CodingKey {
        case count, next, previous, results
    }

    /// `results` must be an array of objects and `next` a string or null:
    /// without them the page cannot be used. `count` and `previous` only
    /// inform, so a wrong type there makes them absent.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        results = try container.decode([StarWarsSpecies].self, forKey: .results)
        next = try container.decodeIfPresent(String.self, forKey: .next)
        count = try? container.decodeIfPresent(Int.self, forKey: .count)
        previous = try? container.decodeIfPresent(String.self, forKey: .previous)
    }
}
