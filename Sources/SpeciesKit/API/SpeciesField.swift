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

        /// A row named as its key unless `name` says otherwise; `get` reads
        /// the field of a species, `set` writes it.
        init(
            _ key: String, name: String? = nil, _ kind: Kind, _ get: @escaping (StarWarsSpecies) -> Value,
            _ set: @escaping (inout StarWarsSpecies, Value) -> Void
        ) { (self.key, self.name, self.kind, self.get, self.set) = (key, name ?? key, kind, get, set) }
    }

    /// The table: JSON key, short name, kind, and place in the model.
    var row: Row {
        switch self {
        case .id: Row("id", .id, { .number($0.id) }, { _, _ in })
        case .name: Row("name", .text, { .text($0.name) }, { $0.name = $1.text ?? "" })
        case .classification:
            Row("classification", .text, { .text($0.classification) }, { $0.classification = $1.text })
        case .designation: Row("designation", .text, { .text($0.designation) }, { $0.designation = $1.text })
        case .averageHeight:
            Row(
                "average_height", name: "height", .number, { .number($0.averageHeight) },
                { $0.averageHeight = $1.number })
        case .skinColors: Row("skin_colors", .colors, { .list($0.skinColors) }, { $0.skinColors = $1.list })
        case .hairColors: Row("hair_colors", .colors, { .list($0.hairColors) }, { $0.hairColors = $1.list })
        case .eyeColors: Row("eye_colors", .colors, { .list($0.eyeColors) }, { $0.eyeColors = $1.list })
        case .averageLifespan:
            Row(
                "average_lifespan", name: "lifespan", .text, { .text($0.averageLifespan) },
                { $0.averageLifespan = $1.text })
        case .homeworld: Row("homeworld", .planet, { .text($0.homeworld) }, { $0.homeworld = $1.text })
        case .language: Row("language", .text, { .text($0.language) }, { $0.language = $1.text })
        case .people: Row("people", .links, { .list($0.people) }, { $0.people = $1.list ?? [] })
        case .films: Row("films", .links, { .list($0.films) }, { $0.films = $1.list ?? [] })
        case .created: Row("created", .date, { .date($0.createdTimestamp) }, { $0.createdTimestamp = $1.date })
        case .edited: Row("edited", .date, { .date($0.editedTimestamp) }, { $0.editedTimestamp = $1.date })
        case .url: Row("url", .url, { .text($0.url) }, { $0.url = $1.text ?? $0.url })
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
