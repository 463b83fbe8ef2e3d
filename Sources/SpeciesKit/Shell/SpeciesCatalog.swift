import Foundation

/// What a source of answers is asked (docs/cli.md, "One answer, one
/// source"): a service through its cache, or a service's cache alone
/// (`RemoteCatalog`), or the SWAPI data built in (`BundledCatalog`).
protocol SpeciesCatalog: Sendable {
    var root: APIRoot { get }
    /// The dialect it is asked in, as far as it is known.
    var dialect: Dialect { get }

    /// Page `number`, of the species whose name matches `search`; with the
    /// `size` a service's page 1 showed, that service's page alone.
    /// - Throws: `Fault.noSuchPage` past the last page.
    func page(_ number: Int, search: String?, size: PageSize?) async throws(Fault) -> SpeciesPage

    /// Every species whose name matches `search` (every one without it), in
    /// API order; with a `limit`, only the pages that hold that many are
    /// read, and more species may come.
    func species(matching search: String?, limit: Int?) async throws(Fault) -> [StarWarsSpecies]

    /// The species `reference` names; `pasted`, the species URL it was
    /// asked by, of one of the services (another service's is the same id
    /// here).
    /// - Throws: `Fault.notFound` or `.notInBundledData`.
    func species(_ reference: ResourceReference, pasted: URL?) async throws(Fault) -> StarWarsSpecies

    /// The name or title, and episode, of a planet, person or film.
    func resource(_ reference: ResourceReference) async throws(Fault) -> RelatedAnswer
}

extension SpeciesCatalog {
    /// Where it is asked for the species matching `search`: its first page.
    func searchURL(_ search: String) -> URL {
        ListingReader.url(ofPage: 1, root: root, dialect: dialect, search: search)
    }
}

extension BundledCatalog: SpeciesCatalog {
    func species(matching search: String?, limit: Int?) -> [StarWarsSpecies] { species(matching: search) }

    func species(_ reference: ResourceReference, pasted: URL?) throws(Fault) -> StarWarsSpecies {
        try species(id: reference.id)
    }
}
