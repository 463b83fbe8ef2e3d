import Foundation

/// The planet, people and films a species links to, by name (`show --related`).
public struct RelatedResources: Sendable, Equatable {
    public enum Name: Sendable, Equatable {
        case named(String)
        /// The resource has neither a name nor a title.
        case unnamed
        /// Its link answers 404: SWAPI has dangling links, such as films/7.
        case notFound
        /// Offline, and neither cached nor in the bundled snapshot.
        case unavailableOffline

        /// The name, or what stands for it in the detail text.
        public var text: String {
            switch self {
            case .named(let name): name
            case .unnamed: "unknown"
            case .notFound: "unknown (not found)"
            case .unavailableOffline: "unknown (not available offline)"
            }
        }

        /// The name, or nil, for JSON.
        public var name: String? {
            if case .named(let name) = self { name } else { nil }
        }
    }

    /// Nil when the species has no homeworld.
    public var homeworld: Name?
    public var people: [Name]
    /// In episode order; films without one last.
    public var films: [Name]

    public init(homeworld: Name?, people: [Name], films: [Name]) {
        self.homeworld = homeworld
        self.people = people
        self.films = films
    }
}

extension SpeciesClient {
    /// Fetches what `species` links to, at most `defaultPageConcurrency` at
    /// once, through the same transport (and so the same cache) as the rest.
    /// Links off the API root's host are refused (exit status 65).
    public func related(of species: StarWarsSpecies) async throws -> RelatedResources {
        let page = species.url.flatMap { URL(string: $0) } ?? root.url
        let urls = try ([species.homeworld].compactMap { $0 } + species.people + species.films).map { link in
            try LinkPolicy.resolve(link, kind: "related link", of: page, root: root)
        }
        var found = [RelatedResource?](repeating: nil, count: urls.count)
        var names = [RelatedResources.Name](repeating: .unnamed, count: urls.count)
        try await withThrowingTaskGroup(of: RelatedFetch.self) { group in
            var next = 0
            var done = 0
            while done < urls.count {
                while next < urls.count, next - done < Self.defaultPageConcurrency {
                    let index = next
                    group.addTask { RelatedFetch(index: index, outcome: try await resource(at: urls[index])) }
                    next += 1
                }
                guard let fetched = try await group.next() else { break }
                done += 1
                diagnostics.progress("fetching related resources \(done) of \(urls.count)…")
                switch fetched.outcome {
                case .found(let resource):
                    found[fetched.index] = resource
                    names[fetched.index] = (resource.name ?? resource.title).map(RelatedResources.Name.named) ?? .unnamed
                case .missing(let name):
                    names[fetched.index] = name
                }
            }
        }
        let hasHomeworld = species.homeworld != nil
        let peopleRange = (hasHomeworld ? 1 : 0)..<((hasHomeworld ? 1 : 0) + species.people.count)
        let filmRange = peopleRange.upperBound..<urls.count
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

    /// A planet, person or film; a 404 or, offline, its absence is an answer too.
    private func resource(at url: URL) async throws -> RelatedFetch.Outcome {
        do {
            return .found(try ResponseDecoder.resource(from: try await fetch(url), url: url))
        } catch SpeciesError.httpStatus(404, _) {
            return .missing(.notFound)
        } catch SpeciesError.unreachable(let error) where error.kind == .offline {
            return .missing(.unavailableOffline)
        }
    }
}

/// A child task's result: a struct, not a tuple (see `PageFetch`).
private struct RelatedFetch: Sendable {
    enum Outcome: Sendable {
        case found(RelatedResource)
        case missing(RelatedResources.Name)
    }

    let index: Int
    let outcome: Outcome
}

/// What matters of a planet, person or film.
struct RelatedResource: Sendable, Equatable {
    var name: String?
    var title: String?
    var episode: Int?
}
