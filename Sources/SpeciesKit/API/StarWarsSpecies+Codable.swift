import Foundation

extension StarWarsSpecies: Codable {
    /// A key of a species object: the JSON key of a field (`SpeciesField`).
    struct FieldKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }

        init(_ field: SpeciesField) { stringValue = field.key }

        init(stringValue: String) { self.stringValue = stringValue }

        init?(intValue: Int) { nil }
    }

    /// A species as decoded, and the fields of its object that could not be
    /// read and were left absent.
    public struct Decoded: Decodable, Sendable {
        /// The species, with every field that could be read.
        public var species: StarWarsSpecies
        /// The fields left absent because they could not be read, in the order of `SpeciesField`.
        public var invalidFields: [InvalidField]

        /// Decodes any service's species object (swapi.tech's `properties`
        /// too), or the one a species encodes as, leniently but for its URL.
        /// - Throws: `DecodingError` when there is no object, no species URL as
        ///   a string, or the object bears a field of another kind (a person's
        ///   `mass`, a planet's `climate`, a vehicle's `model`).
        public init(from decoder: any Decoder) throws {
            var container = try decoder.container(keyedBy: FieldKey.self)
            let properties = FieldKey(stringValue: "properties")
            if !container.contains(FieldKey(.url)), container.contains(properties) {
                container = try container.nestedContainer(keyedBy: FieldKey.self, forKey: properties)
            }
            let url = try container.decode(String.self, forKey: FieldKey(.url))
            guard ResourceReference(url)?.kind == .species else {
                throw DecodingError.dataCorruptedError(
                    forKey: FieldKey(.url), in: container, debugDescription: "a species URL")
            }
            if let (key, kind) = ResourceReference.Kind.species.foreignMark(has: {
                container.contains(FieldKey(stringValue: $0))
            }) {
                throw DecodingError.dataCorruptedError(
                    forKey: FieldKey(stringValue: key), in: container,
                    debugDescription: "a species' field (it is a \(kind.noun)'s)")
            }
            var reader = FieldReader(container: container)
            var species = StarWarsSpecies(url: url, name: "")
            for (field, key, camelCase) in FieldReader.keys {
                reader.read(field, key: key, camelCase: camelCase, into: &species)
            }
            self.species = species
            invalidFields = reader.invalid
        }
    }

    /// A field that could not be read, and was treated as absent.
    public struct InvalidField: Hashable, Sendable, CustomStringConvertible {
        /// Why a field could not be read.
        public enum Problem: Hashable, Sendable {
            /// A number where a string belongs, a string where a list does...
            case wrongType
            /// A string that is not a UTC timestamp, or names a day that
            /// does not exist (February 30).
            case notATimestamp
        }

        /// The field's JSON key (`SpeciesField.key`).
        public var key: String
        /// Why it could not be read.
        public var problem: Problem

        /// `field 'average_height' has the wrong JSON type`, for a warning.
        public var description: String {
            switch problem {
            case .wrongType: "field '\(key)' has the wrong JSON type"
            case .notATimestamp: "field '\(key)' is not a valid UTC timestamp"
            }
        }
    }

    /// Decodes any service's species object, or the one a species encodes
    /// as: a field that cannot be read is absent, without an error
    /// (``Decoded`` says which), but for the URL.
    /// - Throws: `DecodingError` when there is no object, or no URL as a string.
    public init(from decoder: any Decoder) throws { self = try Decoded(from: decoder).species }

    /// Every field by its JSON key (``SpeciesField/key``), absent values as
    /// null, dates as UTC timestamps with microseconds. (The encoder chooses
    /// the order of the keys.)
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: FieldKey.self)
        for field in SpeciesField.allCases {
            let key = FieldKey(field)
            switch field.row.get(self) {
            case .number(let number): try container.encode(number, forKey: key)
            case .text(let text): try container.encode(text, forKey: key)
            case .list(let list): try container.encode(list, forKey: key)
            case .date(let date): try container.encode(date?.text, forKey: key)
            }
        }
    }
}

/// Reads the fields of one species object the way `docs/species-model.md` says,
/// turning a value of the wrong type into an absent one and noting its key.
/// Null is absent without complaint. Each read tries the API's type first,
/// which is also the common case. A key of two words is read as SWAPI
/// writes it, else as `JSONDecoder`'s `.convertFromSnakeCase` makes it
/// (`averageHeight`).
private struct FieldReader {
    typealias Key = StarWarsSpecies.FieldKey

    let container: KeyedDecodingContainer<Key>
    var invalid: [StarWarsSpecies.InvalidField] = []

    mutating func read(_ field: SpeciesField, key: Key, camelCase: Key?, into species: inout StarWarsSpecies) {
        let row = field.row
        let key = camelCase.map { container.contains(key) ? key : $0 } ?? key
        let value: SpeciesField.Value
        switch row.kind {
        case .id, .url: return
        case .text: value = .text(string(key))
        case .planet: value = .text(string(key).flatMap(Self.planet))
        case .number: value = .number(number(key))
        case .colors: value = .list(colors(key))
        case .links: value = .list(links(key))
        case .date: value = .date(date(key))
        }
        row.set(&species, value)
    }

    /// Each field with its key and, for a key of two words (`average_height`),
    /// the key as `averageHeight`: made once, as a listing of 100,000 species
    /// asks for them 1.6 million times (looked up in a dictionary, their
    /// hashing was 2 % of the listing's time).
    static let keys: [(field: SpeciesField, key: Key, camelCase: Key?)] = SpeciesField.allCases.map { field in
        let words = field.key.split(separator: "_")
        let camelCase = words.count > 1 ? String(words[0]) + words.dropFirst().map(\.capitalized).joined() : nil
        return (field, Key(field), camelCase.map(Key.init(stringValue:)))
    }

    /// swapi.tech writes `.../planets/null` for a species without a
    /// homeworld, where the others write null.
    private static func planet(_ url: String) -> String? {
        url.hasSuffix("/null") || url.hasSuffix("/null/") ? nil : url
    }

    private mutating func string(_ key: Key) -> String? {
        do { return try container.decodeIfPresent(String.self, forKey: key) } catch { return wrongType(key) }
    }

    /// A string of SWAPI's whole numbers gives its value (`SWAPINumber`);
    /// `n/a`, `unknown` and any other string are absent without complaint;
    /// a whole JSON number (as a species encodes it) is taken as it is.
    private mutating func number(_ key: Key) -> Int? {
        if let text = try? container.decodeIfPresent(String.self, forKey: key) { return SWAPINumber.whole(text) }
        do { return try container.decodeIfPresent(Int.self, forKey: key) } catch { return wrongType(key) }
    }

    /// SWAPI's comma-separated string, or a list (as a species encodes it).
    private mutating func colors(_ key: Key) -> [String]? {
        if let text = try? container.decodeIfPresent(String.self, forKey: key) { return CommaList.split(text) }
        do { return try container.decodeIfPresent([String].self, forKey: key) } catch { return wrongType(key) }
    }

    /// A list of URLs; anything else, or any element that is not a string,
    /// leaves it empty.
    private mutating func links(_ key: Key) -> [String] {
        do { return try container.decodeIfPresent([String].self, forKey: key) ?? [] } catch {
            return wrongType(key) ?? []
        }
    }

    private mutating func date(_ key: Key) -> Timestamp? {
        guard let text = string(key) else { return nil }
        guard let date = Timestamp(text) else {
            invalid.append(.init(key: key.stringValue, problem: .notATimestamp))
            return nil
        }
        return date
    }

    private mutating func wrongType<Value>(_ key: Key) -> Value? {
        invalid.append(.init(key: key.stringValue, problem: .wrongType))
        return nil
    }
}
