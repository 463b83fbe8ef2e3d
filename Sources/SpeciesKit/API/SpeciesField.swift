import Foundation

/// The fields of a species, in the order its JSON object lists them: each
/// with its JSON key, its short name (`height`), its column title, and its
/// value as text. The renderers take their columns and keys from these.
public enum SpeciesField: CaseIterable, Sendable {
    /// The number at the end of the species' URL (`id`).
    case id
    /// The species' name (`name`).
    case name
    /// Its classification, such as `mammal` (`classification`).
    case classification
    /// Its designation, such as `sentient` (`designation`).
    case designation
    /// Its average height in centimetres (`average_height`, short `height`).
    case averageHeight
    /// Its skin colours (`skin_colors`).
    case skinColors
    /// Its hair colours (`hair_colors`).
    case hairColors
    /// Its eye colours (`eye_colors`).
    case eyeColors
    /// Its average lifespan in years, or a word (`average_lifespan`, short `lifespan`).
    case averageLifespan
    /// The URL of its home planet (`homeworld`).
    case homeworld
    /// Its language (`language`).
    case language
    /// The URLs of its people (`people`).
    case people
    /// The URLs of the films it appears in (`films`).
    case films
    /// When the service created its record (`created`).
    case created
    /// When the service last edited its record (`edited`).
    case edited
    /// The species' own URL (`url`).
    case url

    /// How a field is read from SWAPI's JSON (docs/species-model.md).
    enum Kind {
        /// The number at the end of the URL; never read, always derived.
        case id
        /// The species' URL, which every species has.
        case url
        case text
        /// A planet's URL, where swapi.tech's `.../planets/null` is none.
        case planet
        /// A whole number in a string (`"210"`; `"n/a"` is none).
        case number
        /// A comma-separated list in a string.
        case colors
        /// A list of URLs, empty when absent.
        case links
        case date
    }

    /// A field's value, of the form its kind holds.
    enum Value {
        case number(Int?)
        case text(String?)
        case list([String]?)
        case date(Timestamp?)
    }

    /// A row of the table.
    struct Row {
        let key: String
        let name: String
        let kind: Kind
        let get: (StarWarsSpecies) -> Value
        let set: (inout StarWarsSpecies, Value) -> Void
    }

    /// The table: JSON key, short name, kind, and place in the model.
    var row: Row {
        switch self {
        case .id: Row(key: "id", name: "id", kind: .id, get: { .number($0.id) }, set: { _, _ in })
        case .name:
            Row(key: "name", name: "name", kind: .text, get: { .text($0.name) }, set: { $0.name = $1.text ?? "" })
        case .classification:
            Row(
                key: "classification", name: "classification", kind: .text, get: { .text($0.classification) },
                set: { $0.classification = $1.text })
        case .designation:
            Row(
                key: "designation", name: "designation", kind: .text, get: { .text($0.designation) },
                set: { $0.designation = $1.text })
        case .averageHeight:
            Row(
                key: "average_height", name: "height", kind: .number, get: { .number($0.averageHeight) },
                set: { $0.averageHeight = $1.number })
        case .skinColors:
            Row(
                key: "skin_colors", name: "skin_colors", kind: .colors, get: { .list($0.skinColors) },
                set: { $0.skinColors = $1.list })
        case .hairColors:
            Row(
                key: "hair_colors", name: "hair_colors", kind: .colors, get: { .list($0.hairColors) },
                set: { $0.hairColors = $1.list })
        case .eyeColors:
            Row(
                key: "eye_colors", name: "eye_colors", kind: .colors, get: { .list($0.eyeColors) },
                set: { $0.eyeColors = $1.list })
        case .averageLifespan:
            Row(
                key: "average_lifespan", name: "lifespan", kind: .text, get: { .text($0.averageLifespan) },
                set: { $0.averageLifespan = $1.text })
        case .homeworld:
            Row(
                key: "homeworld", name: "homeworld", kind: .planet, get: { .text($0.homeworld) },
                set: { $0.homeworld = $1.text })
        case .language:
            Row(
                key: "language", name: "language", kind: .text, get: { .text($0.language) },
                set: { $0.language = $1.text })
        case .people:
            Row(
                key: "people", name: "people", kind: .links, get: { .list($0.people) },
                set: { $0.people = $1.list ?? [] })
        case .films:
            Row(key: "films", name: "films", kind: .links, get: { .list($0.films) }, set: { $0.films = $1.list ?? [] })
        case .created:
            Row(
                key: "created", name: "created", kind: .date, get: { .date($0.createdTimestamp) },
                set: { $0.createdTimestamp = $1.date })
        case .edited:
            Row(
                key: "edited", name: "edited", kind: .date, get: { .date($0.editedTimestamp) },
                set: { $0.editedTimestamp = $1.date })
        case .url: Row(key: "url", name: "url", kind: .url, get: { .text($0.url) }, set: { $0.url = $1.text ?? $0.url })
        }
    }

    /// The JSON key: `average_height`.
    public var key: String { row.key }
    /// The short name, which TSV, CSV and Markdown headers use: `height`.
    public var name: String { row.name }

    /// The columns of a table when none are chosen: name, classification,
    /// designation, height, lifespan and language.
    public static let defaults: [SpeciesField] = [
        .name, .classification, .designation, .averageHeight, .averageLifespan, .language,
    ]

    /// The field named `name`: its short name or its JSON key, in any case.
    public init?(named name: String) {
        let name = name.lowercased()
        guard let field = Self.allCases.first(where: { $0.name == name || $0.key == name }) else { return nil }
        self = field
    }

    /// Its column title in a table, such as `HEIGHT` or `SKIN COLORS`.
    public var title: String { name.uppercased().replacingOccurrences(of: "_", with: " ") }

    /// Numbers align right in the table, and are never cut.
    var isNumber: Bool { row.kind == .id || row.kind == .number }

    /// The value as text (lists joined with `, `); nil when it is absent
    /// (an empty list of links too).
    public func text(of species: StarWarsSpecies) -> String? {
        switch row.get(species) {
        case .number(let number): number.map(String.init)
        case .text(let text): text
        case .list(let list): list.flatMap { row.kind == .links && $0.isEmpty ? nil : $0.joined(separator: ", ") }
        case .date(let date): date?.text
        }
    }
}

extension SpeciesField.Value {
    var number: Int? { if case .number(let value) = self { value } else { nil } }
    var text: String? { if case .text(let value) = self { value } else { nil } }
    var list: [String]? { if case .list(let value) = self { value } else { nil } }
    var date: Timestamp? { if case .date(let value) = self { value } else { nil } }
}
