import Foundation

/// What a source of answers is asked (docs/cli.md, "One answer, one
/// source"): a service through its cache, or a service's cache alone
/// (`RemoteCatalog`), or the SWAPI data built in (`BundledCatalog`).
protocol SpeciesCatalog: Sendable {
    /// Page `number`, of the species whose name matches `search`; with the
    /// `size` a service's page 1 showed, that service's page alone.
    /// - Throws: `Fault.noSuchPage` past the last page.
    func page(_ number: Int, search: String?, size: PageSize?) async throws(Fault) -> SpeciesPage

    /// Every species whose name matches `search` (every one without it), in
    /// API order; with a `limit`, only the pages that hold that many are
    /// read, and more species may come.
    func species(matching search: String?, limit: Int?) async throws(Fault) -> [StarWarsSpecies]

    /// - Throws: `Fault.notFound` or `.notInBundledData`.
    func species(id: Int) async throws(Fault) -> StarWarsSpecies

    /// The species at `url`, a species URL of one of the services; another
    /// service's is the same id here.
    func species(at url: URL) async throws(Fault) -> StarWarsSpecies

    /// The name or title, and episode, of a planet, person or film.
    func resource(_ reference: ResourceReference) async throws(Fault) -> RelatedAnswer

    /// Where it is asked for the species matching `search`: its first page.
    func searchURL(_ search: String) -> URL
}

extension BundledCatalog: SpeciesCatalog {
    func searchURL(_ search: String) -> URL {
        dialect.listingURL(root, search: search)
    }

    func species(matching search: String?, limit: Int?) -> [StarWarsSpecies] {
        species(matching: search)
    }

    func species(at url: URL) throws(Fault) -> StarWarsSpecies {
        guard let reference = ResourceReference(url.absoluteString), reference.kind == .species else {
            throw .notInBundledData(what: "the species at \(url.redacted)")
        }
        return try species(id: reference.id)
    }
}
