import Foundation

/// A column of the table and of TSV output (`--fields`).
public enum SpeciesField: String, Sendable, CaseIterable {
    case id, name, classification, designation, height
    case skinColors = "skin_colors"
    case hairColors = "hair_colors"
    case eyeColors = "eye_colors"
    case lifespan, homeworld, language, created, edited, url

    /// The columns of `species list` when `--fields` is not given.
    public static let defaults: [SpeciesField] = [.name, .classification, .designation, .height, .lifespan, .language]

    /// The field `--fields` names: its own name, or the JSON key
    /// (`average_height`, `average_lifespan`).
    public init?(named name: String) {
        switch name.lowercased() {
        case "average_height": self = .height
        case "average_lifespan": self = .lifespan
        case let other: self.init(rawValue: other)
        }
    }

    /// `HEIGHT`, `SKIN COLORS`.
    public var header: String {
        rawValue.uppercased().replacingOccurrences(of: "_", with: " ")
    }

    var alignsRight: Bool {
        self == .id || self == .height
    }

    /// The value as text; nil when it is absent.
    public func value(of species: StarWarsSpecies) -> String? {
        switch self {
        case .id: species.id.map(String.init)
        case .name: species.name
        case .classification: species.classification
        case .designation: species.designation
        case .height: species.averageHeight.map(String.init)
        case .skinColors: species.skinColors?.joined(separator: ", ")
        case .hairColors: species.hairColors?.joined(separator: ", ")
        case .eyeColors: species.eyeColors?.joined(separator: ", ")
        case .lifespan: species.averageLifespan
        case .homeworld: species.homeworld
        case .language: species.language
        case .created: species.created.map(Timestamp.format)
        case .edited: species.edited.map(Timestamp.format)
        case .url: species.url
        }
    }
}
