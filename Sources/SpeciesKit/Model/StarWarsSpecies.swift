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

extension StarWarsSpecies: Decodable {
    enum CodingKeys: String, CodingKey {
        case url, name, classification, designation, language, homeworld, people, films, created, edited
        case averageHeight = "average_height"
        case skinColors = "skin_colors"
        case hairColors = "hair_colors"
        case eyeColors = "eye_colors"
        case averageLifespan = "average_lifespan"
    }

    /// Never fails on a field: a value of the wrong JSON type is treated as
    /// absent and its key recorded in `invalidFields`. It fails only when the
    /// species itself is not a JSON object.
    public init(from decoder: any Decoder) throws {
        var fields = LenientFields(try decoder.container(keyedBy: CodingKeys.self))
        let url = fields.string(.url)
        self.init(
            url: url,
            name: fields.string(.name),
            classification: fields.string(.classification),
            designation: fields.string(.designation),
            averageHeight: fields.height(.averageHeight),
            skinColors: fields.string(.skinColors).map(CommaList.split),
            hairColors: fields.string(.hairColors).map(CommaList.split),
            eyeColors: fields.string(.eyeColors).map(CommaList.split),
            averageLifespan: fields.string(.averageLifespan),
            homeworld: fields.string(.homeworld),
            language: fields.string(.language),
            people: fields.strings(.people),
            films: fields.strings(.films),
            created: fields.date(.created),
            edited: fields.date(.edited),
            invalidFields: []
        )
        invalidFields = fields.invalid
    }
}

/// Reads fields of one JSON object, turning each type mismatch into an
/// absent value and remembering the key.
private struct LenientFields {
    typealias Key = StarWarsSpecies.CodingKeys
    let container: KeyedDecodingContainer<Key>
    private(set) var invalid: [String] = []

    init(_ container: KeyedDecodingContainer<Key>) {
        self.container = container
    }

    mutating func string(_ key: Key) -> String? {
        decode(String.self, key)
    }

    /// A numeric string gives its integer; a JSON integer is taken as it is;
    /// any other string (`"n/a"`, `"unknown"`) is absent without complaint.
    mutating func height(_ key: Key) -> Int? {
        if let text = try? container.decodeIfPresent(String.self, forKey: key) {
            return Int(text)
        }
        return decode(Int.self, key)
    }

    mutating func strings(_ key: Key) -> [String] {
        decode([String].self, key) ?? []
    }

    mutating func date(_ key: Key) -> Date? {
        guard let text = string(key) else { return nil }
        guard let date = Timestamp.parse(text) else {
            invalid.append(key.stringValue)
            return nil
        }
        return date
    }

    private mutating func decode<Value: Decodable>(_ type: Value.Type, _ key: Key) -> Value? {
        do {
            return try container.decodeIfPresent(type, forKey: key)
        } catch {
            invalid.append(key.stringValue)
            return nil
        }
    }
}
