/// What a source says of a planet, person or film.
enum RelatedAnswer: Sendable, Equatable {
    case found(RelatedResource)
    /// SWAPI's own 404: the link dangles, as films/7 does.
    case absent
    /// Offline: neither cached nor built in.
    case unknown
}

extension SpeciesClient {
    /// Fetches what `species` links to from `source`,
    /// `RemoteCatalog.concurrency` at once. Only SWAPI's own 404 (a dangling
    /// link) is named `unknown (not found)`; any other failure makes the
    /// answer not whole, and the next source answers it (docs/cli.md, "One
    /// answer, one source").
    func related(of species: StarWarsSpecies, in source: any SpeciesCatalog) async throws(Fault) -> RelatedResources {
        let links: [(String, ResourceReference.Kind)] =
            (species.homeworld.map { [($0, .planets)] } ?? []) + species.people.map { ($0, .people) }
            + species.films.map { ($0, .films) }
        var found = [RelatedResource?](repeating: nil, count: links.count)
        var names = [RelatedResources.Name](repeating: .unnamed, count: links.count)
        var done = 0
        let failure = await CappedRequests.run(
            Array(links.indices), limit: RemoteCatalog.concurrency,
            { await resource(links[$0].0, of: links[$0].1, in: source) }
        ) { index, result -> CappedRequests.Next<Int, Fault> in
            done += 1
            diagnostics.progress("fetching related resources \(done) of \(links.count)…")
            switch result {
            case .success(let fetched): (found[index], names[index]) = fetched
            case .failure(let error): return .end(error)
            }
            return .more([])
        }
        if let failure { throw failure }
        let hasHomeworld = species.homeworld != nil
        let peopleRange = (hasHomeworld ? 1 : 0)..<((hasHomeworld ? 1 : 0) + species.people.count)
        let filmRange = peopleRange.upperBound..<links.count
        let films = filmRange.sorted { first, second in
            switch (found[first]?.episode, found[second]?.episode) {
            case (let a?, let b?): a < b || (a == b && first < second)
            case (.some, nil): true
            case (nil, .some): false
            case (nil, nil): first < second
            }
        }
        return RelatedResources(
            homeworld: hasHomeworld ? names[0] : nil, people: Array(names[peopleRange]), films: films.map { names[$0] })
    }

    /// A planet, person or film, read from its link's kind and id and
    /// asked of `source`, whatever host the link names (swapi.tech writes
    /// its own). A link that names none is `unknown (not a SWAPI link)`;
    /// one of another kind is named as that kind (`a species, not a person`).
    private func resource(_ link: String, of kind: ResourceReference.Kind, in source: any SpeciesCatalog) async
        -> Result<RelatedFetch, Fault>
    {
        guard let reference = ResourceReference(link), reference.kind == kind else {
            let reason = ResourceReference(link).map { "a \($0.kind.noun), not a \(kind.noun)" } ?? "not a SWAPI link"
            diagnostics.warning("cannot name \(Excerpt.of(link)) as a \(kind.noun): it is \(reason)")
            return .success((nil, .failed(reason: reason)))
        }
        do {
            switch try await source.resource(reference) {
            case .found(let found):
                return .success((found, (found.name ?? found.title).map(RelatedResources.Name.named) ?? .unnamed))
            case .absent: return .success((nil, .notFound))
            case .unknown: return .success((nil, .unavailableOffline))
            }
        } catch { return .failure(error) }
    }
}

/// What a related link leads to, if anything, and its name.
private typealias RelatedFetch = (found: RelatedResource?, name: RelatedResources.Name)
