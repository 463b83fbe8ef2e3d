import Foundation

/// One species of the Star Wars API, with SWAPI's strings turned into typed
/// values (spec: `species-model.md`).
public struct StarWarsSpecies: Sendable, Equatable {
    public var url: String?
    public var name: String?
    public var classification: String?
    public var designation: String?
    public var averageHeight: Int?
    public var skinColors: [String]?
    public var hairColors: [String]?
    public var eyeColors: [String]?
    public var averageLifespan: String?
    public var homeworld: String?
    public var language: String?
    public var people: [String]
    public var films: [String]
    public var created: Date?
    public var edited: Date?
    /// JSON keys whose values had the wrong type (or an unreadable date) and
    /// were therefore treated as absent.
    public var invalidFields: [String]

    public init(
        url: String? = nil, name: String? = nil, classification: String? = nil,
        designation: String? = nil, averageHeight: Int? = nil, skinColors: [String]? = nil,
        hairColors: [String]? = nil, eyeColors: [String]? = nil, averageLifespan: String? = nil,
        homeworld: String? = nil, language: String? = nil, people: [String] = [],
        films: [String] = [], created: Date? = nil, edited: Date? = nil,
        invalidFields: [String] = []
    ) {
        self.url = url
        self.name = name
        self.classification = classification
        self.designation = designation
        self.averageHeight = averageHeight
        self.skinColors = skinColors
        self.hairColors = hairColors
        self.eyeColors = eyeColors
        self.averageLifespan = averageLifespan
        self.homeworld = homeworld
        self.language = language
        self.people = people
        self.films = films
        self.created = created
        self.edited = edited
        self.invalidFields = invalidFields
    }

    /// The number at the end of `url`: `.../species/3/` gives 3.
    public var id: Int? {
        url.flatMap(ResourceID.from(url:))
    }

    /// How the species is named in messages: its name, else its URL.
    public var displayName: String {
        if let name { return "'\(name)'" }
        if let url { return "at \(url)" }
        return "without a name or URL"
    }
}
