import Foundation

/// One species of the Star Wars API, with SWAPI's strings turned into typed
/// values.
///
/// It decodes from any SWAPI service's species object and from the object
/// it encodes as (its fields by their JSON keys, with lists, numbers and
/// microseconds as they are), with `JSONDecoder`'s default keys or its
/// `.convertFromSnakeCase`. A species has its species URL: an object
/// without one (a planet's URL, `species/0/`, none), or that bears a
/// field of another kind (a person's `mass`), throws. Otherwise decoding is
/// lenient: a field of the wrong JSON type, or a date that does not exist,
/// is absent, and no error is thrown. Decode ``Decoded`` instead to learn
/// which fields those were.
public struct StarWarsSpecies: Hashable, Identifiable, Sendable {
    /// The species' own URL, as its service writes it:
    /// `https://swapi.dev/api/species/3/`.
    public var url: String
    /// `Wookie`. Every species a client answers with has one; it is empty
    /// only where the JSON decoded had none.
    public var name: String
    /// `mammal`, `reptile`, `artificial`.
    public var classification: String?
    /// `sentient`, or `reptilian` as SWAPI writes Rodians'.
    public var designation: String?
    /// Centimetres; nil when the API says `n/a` or `unknown`.
    public var averageHeight: Int?
    /// The comma list of SWAPI, split and trimmed: `n/a` is `["n/a"]`.
    public var skinColors: [String]?
    /// As `skinColors`.
    public var hairColors: [String]?
    /// As `skinColors`.
    public var eyeColors: [String]?
    /// A string: it can be `indefinite` or `unknown`.
    public var averageLifespan: String?
    /// The planet's URL; nil for a species without a homeworld.
    public var homeworld: String?
    /// `Shyriiwook`.
    public var language: String?
    /// The URLs of the people of the species.
    public var people: [String]
    /// The URLs of the films the species is in; swapi.tech has none.
    public var films: [String]
    /// To the microsecond as SWAPI wrote them, which a `Date` holds only
    /// until about 2138 (`Timestamp`).
    package var createdTimestamp: Timestamp?
    package var editedTimestamp: Timestamp?

    /// When SWAPI created the record, in UTC: the nearest `Date` of the microsecond kept.
    public var created: Date? {
        get { createdTimestamp?.date }
        set { createdTimestamp = newValue.map(Timestamp.init) }
    }

    /// When SWAPI last edited the record, as `created`.
    public var edited: Date? {
        get { editedTimestamp?.date }
        set { editedTimestamp = newValue.map(Timestamp.init) }
    }

    /// A species at `url`, with these values; every other may be absent.
    public init(
        url: String, name: String, classification: String? = nil, designation: String? = nil, averageHeight: Int? = nil,
        skinColors: [String]? = nil, hairColors: [String]? = nil, eyeColors: [String]? = nil,
        averageLifespan: String? = nil, homeworld: String? = nil, language: String? = nil, people: [String] = [],
        films: [String] = [], created: Date? = nil, edited: Date? = nil
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
        createdTimestamp = created.map(Timestamp.init)
        editedTimestamp = edited.map(Timestamp.init)
    }

    /// The number `url` names the species by: `.../species/3/` gives 3. A
    /// decoded species always has one; 0 for a `url` given that names none.
    public var id: Int { ResourceReference.parse(url).map { $0.reference.kind == .species ? $0.reference.id : 0 } ?? 0 }

    /// `url` as a `URL`.
    public var speciesURL: URL? { URL(string: url) }
    /// `homeworld` as a `URL`.
    public var homeworldURL: URL? { homeworld.flatMap(URL.init(string:)) }
    /// `people` as `URL`s, each string that is one.
    public var peopleURLs: [URL] { people.compactMap(URL.init(string:)) }
    /// `films` as `URL`s, each string that is one.
    public var filmURLs: [URL] { films.compactMap(URL.init(string:)) }

    /// How messages name the species: its name, else its URL.
    package var displayName: String { name.isEmpty ? "at \(url)" : "'\(name)'" }
}
