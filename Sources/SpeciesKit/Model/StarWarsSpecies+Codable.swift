import Foundation

extension StarWarsSpecies: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case id, name, classification, designation
        case averageHeight = "average_height"
        case skinColors = "skin_colors"
        case hairColors = "hair_colors"
        case eyeColors = "eye_colors"
        case averageLifespan = "average_lifespan"
        case homeworld, language, people, films, created, edited, url
    }

    /// A species as decoded, and the fields of its object that could not be
    /// read and were left absent.
    public struct Decoded: Decodable, Sendable {
        public var species: StarWarsSpecies
        public var invalidFields: [InvalidField]

        public init(from decoder: any Decoder) throws {
            var reader = FieldReader(container: try decoder.container(keyedBy: CodingKeys.self))
            species = StarWarsSpecies(
                url: reader.string(.url),
                name: reader.string(.name),
                classification: reader.string(.classification),
                designation: reader.string(.designation),
                averageHeight: reader.height(),
                skinColors: reader.colors(.skinColors),
                hairColors: reader.colors(.hairColors),
                eyeColors: reader.colors(.eyeColors),
                averageLifespan: reader.string(.averageLifespan),
                homeworld: reader.string(.homeworld).flatMap(Self.planet),
                language: reader.string(.language),
                people: reader.links(.people),
                films: reader.links(.films),
                created: reader.date(.created),
                edited: reader.date(.edited))
            invalidFields = reader.invalid
        }

        /// swapi.tech writes `.../planets/null` for a species without a
        /// homeworld, where the others write null.
        private static func planet(_ url: String) -> String? {
            url.hasSuffix("/null") || url.hasSuffix("/null/") ? nil : url
        }
    }

    /// A field that could not be read, and was treated as absent.
    public struct InvalidField: Hashable, Sendable, CustomStringConvertible {
        public enum Problem: Hashable, Sendable {
            /// A number where a string belongs, a string where a list does...
            case wrongType
            /// A string that is not a UTC timestamp, or names a day that
            /// does not exist (February 30).
            case notATimestamp
        }

        /// The JSON key, such as `average_height`.
        public var key: String
        public var problem: Problem

        public var description: String {
            switch problem {
            case .wrongType: "field '\(key)' has the wrong JSON type"
            case .notATimestamp: "field '\(key)' is not a valid UTC timestamp"
            }
        }
    }

    public init(from decoder: any Decoder) throws {
        self = try Decoded(from: decoder).species
    }

    /// The object of `species --json`: every key, absent values as null,
    /// dates as UTC timestamps with microseconds. (The JSON encoder chooses
    /// the order of the keys; `SpeciesJSON` writes them in the documented one.)
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(classification, forKey: .classification)
        try container.encode(designation, forKey: .designation)
        try container.encode(averageHeight, forKey: .averageHeight)
        try container.encode(skinColors, forKey: .skinColors)
        try container.encode(hairColors, forKey: .hairColors)
        try container.encode(eyeColors, forKey: .eyeColors)
        try container.encode(averageLifespan, forKey: .averageLifespan)
        try container.encode(homeworld, forKey: .homeworld)
        try container.encode(language, forKey: .language)
        try container.encode(people, forKey: .people)
        try container.encode(films, forKey: .films)
        try container.encode(created.map(Timestamp.format), forKey: .created)
        try container.encode(edited.map(Timestamp.format), forKey: .edited)
        try container.encode(url, forKey: .url)
    }
}

/// Reads the fields of one species object the way `docs/species-model.md` says,
/// turning a value of the wrong type into an absent one and noting its key.
/// Null is absent without complaint. Each read tries the API's type first,
/// which is also the common case.
private struct FieldReader {
    typealias Key = StarWarsSpecies.CodingKeys

    let container: KeyedDecodingContainer<Key>
    var invalid: [StarWarsSpecies.InvalidField] = []

    mutating func string(_ key: Key) -> String? {
        do {
            return try container.decodeIfPresent(String.self, forKey: key)
        } catch {
            return wrongType(key)
        }
    }

    /// A numeric string gives its integer; `n/a`, `unknown` and any other
    /// string are absent without complaint; a whole JSON number (as in
    /// `--json` output) is taken as it is.
    mutating func height() -> Int? {
        if let text = try? container.decodeIfPresent(String.self, forKey: .averageHeight) {
            return Int(text)
        }
        do {
            return try container.decodeIfPresent(Int.self, forKey: .averageHeight)
        } catch {
            return wrongType(.averageHeight)
        }
    }

    /// SWAPI's comma-separated string, or a list (as in `--json` output).
    mutating func colors(_ key: Key) -> [String]? {
        if let text = try? container.decodeIfPresent(String.self, forKey: key) {
            return CommaList.split(text)
        }
        do {
            return try container.decodeIfPresent([String].self, forKey: key)
        } catch {
            return wrongType(key)
        }
    }

    /// A list of URLs; anything else, or any element that is not a string,
    /// leaves it empty.
    mutating func links(_ key: Key) -> [String] {
        do {
            return try container.decodeIfPresent([String].self, forKey: key) ?? []
        } catch {
            return wrongType(key) ?? []
        }
    }

    mutating func date(_ key: Key) -> Date? {
        guard let text = string(key) else { return nil }
        guard let date = Timestamp.parse(text) else {
            invalid.append(.init(key: key.rawValue, problem: .notATimestamp))
            return nil
        }
        return date
    }

    private mutating func wrongType<Value>(_ key: Key) -> Value? {
        invalid.append(.init(key: key.rawValue, problem: .wrongType))
        return nil
    }
}
