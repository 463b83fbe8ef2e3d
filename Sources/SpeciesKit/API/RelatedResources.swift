import Foundation

/// The planet, people and films a species links to, by name.
public struct RelatedResources: Sendable, Equatable {
    /// The name behind a link, or why there is none.
    public enum Name: Sendable, Equatable {
        /// The name or title of the planet, person or film.
        case named(String)
        /// The resource has neither a name nor a title.
        case unnamed
        /// Its link answers 404: SWAPI has dangling links, such as films/7.
        case notFound
        /// The SWAPI data built into SpeciesKit, answering, does not hold it.
        case unavailableOffline
        /// It cannot be named, as `reason` says briefly: its link is not
        /// one of SWAPI's.
        case failed(reason: String)

        /// The name, or what stands for it in the detail text:
        /// `unknown (not found)`.
        public var text: String {
            switch self {
            case .named(let name): name
            case .unnamed: "unknown"
            case .notFound: "unknown (not found)"
            case .unavailableOffline: "unknown (not available offline)"
            case .failed(let reason): "unknown (\(reason))"
            }
        }

        /// The name; nil when there is none.
        public var name: String? { if case .named(let name) = self { name } else { nil } }
    }

    /// Nil when the species has no homeworld.
    public var homeworld: Name?
    /// In the order of the species' links.
    public var people: [Name]
    /// In episode order; films without one last.
    public var films: [Name]

    /// The names behind a species' links.
    public init(homeworld: Name?, people: [Name], films: [Name]) {
        self.homeworld = homeworld
        self.people = people
        self.films = films
    }
}

/// What matters of a planet, person or film, and the kinds of object whose
/// keys it bears (`ResourceReference.Kind.foreignMark`).
struct RelatedResource: Decodable, Sendable, Equatable {
    var name: String?
    var title: String?
    var episode: Int?
    /// Whether it may be a resource of each kind.
    var kinds = Set(ResourceReference.Kind.allCases)
}

extension RelatedResource {
    /// A value of another type is absent.
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: StarWarsSpecies.FieldKey.self)
        func key(_ name: String) -> StarWarsSpecies.FieldKey { StarWarsSpecies.FieldKey(stringValue: name) }
        name = try? container.decodeIfPresent(String.self, forKey: key("name"))
        title = try? container.decodeIfPresent(String.self, forKey: key("title"))
        episode = try? container.decodeIfPresent(Int.self, forKey: key("episode_id"))
        kinds = kinds.filter { $0.foreignMark(has: { container.contains(key($0)) }) == nil }
    }
}
