import Foundation

/// SWAPI's data as built into SpeciesKit (`BundledData`, from
/// Fixtures/swapi-data): the answer of last resort when the network may not
/// or cannot be used. It answers as a SWAPI service would, its links under
/// the API root: pages of 10 in id order, swapi.dev's search, every species,
/// and the names of every planet, person and film they link to.
struct BundledCatalog: Sendable {
    /// The data set, decoded once.
    private static let data: DataSet? = try? JSONDecoder().decode(DataSet.self, from: Data(BundledData.json.utf8))

    /// The day the data set was taken into SpeciesKit.
    static var recorded: String { data?.recorded ?? "unknown" }

    /// The names of its species.
    static var names: [String] { data?.species.map(\.name) ?? [] }

    let root: APIRoot
    /// How it writes its URLs: as the API's dialect does.
    let dialect: Dialect

    /// - Throws: `Fault.noSuchPage`, which says how many there are.
    func page(_ number: Int, search: String?, size: PageSize? = nil) throws(Fault) -> SpeciesPage {
        try SpeciesPage(slicing: species(matching: search), page: number, search: search)
    }

    /// How many species match `search`: SWAPI's own listing, as far as
    /// species knows it.
    static func count(matching search: String?) -> Int {
        let terms = SearchTerms(search ?? "")
        return (data?.species ?? []).count { terms.matches($0.name) }
    }

    /// Every species whose name matches `search` (all of them without one).
    func species(matching search: String?) -> [StarWarsSpecies] {
        let terms = SearchTerms(search ?? "")
        return (Self.data?.species ?? []).filter { terms.matches($0.name) }.map(rooted)
    }

    func species(id: Int) throws(Fault) -> StarWarsSpecies {
        guard let species = Self.data?.species.first(where: { $0.id == id }) else {
            throw .notInBundledData(what: "species \(id)")
        }
        return rooted(species)
    }

    /// The name or title, and episode, of a planet, person or film.
    func resource(_ reference: ResourceReference) -> RelatedAnswer {
        let key = String(reference.id)
        let found: RelatedResource? =
            switch reference.kind {
            case .planets: Self.data?.planets[key].map { RelatedResource(name: $0) }
            case .people: Self.data?.people[key].map { RelatedResource(name: $0) }
            case .films: Self.data?.films[key]
            case .species: Self.data?.species.first { $0.id == reference.id }.map { RelatedResource(name: $0.name) }
            case .vehicles, .starships: nil
            }
        return found.map(RelatedAnswer.found) ?? .unknown
    }

    /// The species with its links under the API root, as its dialect writes them.
    private func rooted(_ species: StarWarsSpecies) -> StarWarsSpecies {
        var species = species
        let base = root.url.withoutCredentials.absoluteString
        func link(_ path: String) -> String { ResourceReference(path).map { base + dialect.path(of: $0) } ?? path }
        species.url = link(species.url)
        species.homeworld = species.homeworld.map(link)
        species.people = species.people.map(link)
        species.films = species.films.map(link)
        return species
    }

    private struct DataSet: Decodable {
        var recorded: String
        var species: [StarWarsSpecies]
        var planets: [String: String]
        var people: [String: String]
        var films: [String: RelatedResource]
    }
}

extension SpeciesClient {
    /// The names of the species built into SpeciesKit: known with no service.
    package static var builtInNames: [String] { BundledCatalog.names }
}
