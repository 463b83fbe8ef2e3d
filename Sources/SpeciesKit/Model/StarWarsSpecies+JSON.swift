import Foundation

extension StarWarsSpecies {
    /// Reads one species object at the scanner, following the model spec:
    /// a value of the wrong JSON type (or an unreadable date) is treated as
    /// absent and its key recorded in `invalidFields`; unknown keys are
    /// skipped. The object's syntax has been checked before (`SpeciesDocument`).
    init(reading scanner: inout JSONScanner) {
        self.init()
        var fields = FieldReader()
        do {
            try scanner.expect(UInt8(ascii: "{"))
            if !scanner.consume(UInt8(ascii: "}")) {
                repeat {
                    let field = try Field(reading: &scanner)
                    try scanner.expect(UInt8(ascii: ":"))
                    try read(field, from: &scanner, with: &fields)
                } while scanner.consume(UInt8(ascii: ","))
                try scanner.expect(UInt8(ascii: "}"))
            }
        } catch {
            fields.invalid.append("(the object)")
        }
        invalidFields = fields.invalid
    }

    private mutating func read(_ field: Field?, from scanner: inout JSONScanner, with fields: inout FieldReader) throws(JSONScanner.Invalid) {
        guard let field else { return try scanner.skipValue() }
        let key = field.rawValue
        switch field {
        case .url: url = try fields.string(key, &scanner)
        case .name: name = try fields.string(key, &scanner)
        case .classification: classification = try fields.string(key, &scanner)
        case .designation: designation = try fields.string(key, &scanner)
        case .language: language = try fields.string(key, &scanner)
        case .homeworld: homeworld = try fields.string(key, &scanner)
        case .averageLifespan: averageLifespan = try fields.string(key, &scanner)
        case .averageHeight: averageHeight = try fields.height(key, &scanner)
        case .skinColors: skinColors = try fields.string(key, &scanner).map(CommaList.split)
        case .hairColors: hairColors = try fields.string(key, &scanner).map(CommaList.split)
        case .eyeColors: eyeColors = try fields.string(key, &scanner).map(CommaList.split)
        case .people: people = try fields.strings(key, &scanner)
        case .films: films = try fields.strings(key, &scanner)
        case .created: created = try fields.date(key, &scanner)
        case .edited: edited = try fields.date(key, &scanner)
        }
    }
}

/// The members of a species object that the model reads.
private enum Field: String, CaseIterable {
    case url, name, classification, designation, language, homeworld, people, films, created, edited
    case averageHeight = "average_height"
    case averageLifespan = "average_lifespan"
    case skinColors = "skin_colors"
    case hairColors = "hair_colors"
    case eyeColors = "eye_colors"

    /// The field the member name at the scanner names; nil for another name.
    /// Names are matched on their bytes, without making Strings of them.
    init?(reading scanner: inout JSONScanner) throws(JSONScanner.Invalid) {
        guard let name = try scanner.readPlainString() else {
            self.init(rawValue: try scanner.readString())
            return
        }
        guard let candidate = Self.candidate(length: name.count, first: name.first ?? 0) else { return nil }
        var rawValue = candidate.rawValue
        guard rawValue.withUTF8({ $0.elementsEqual(name) }) else { return nil }
        self = candidate
    }

    /// The only field whose name has this length and first letter, if any.
    private static func candidate(length: Int, first: UInt8) -> Field? {
        switch (length, Character(Unicode.Scalar(first))) {
        case (3, "u"): .url
        case (4, "n"): .name
        case (5, "f"): .films
        case (6, "p"): .people
        case (6, "e"): .edited
        case (7, "c"): .created
        case (8, "l"): .language
        case (9, "h"): .homeworld
        case (10, "e"): .eyeColors
        case (11, "s"): .skinColors
        case (11, "h"): .hairColors
        case (11, "d"): .designation
        case (14, "c"): .classification
        case (14, "a"): .averageHeight
        case (16, "a"): .averageLifespan
        default: nil
        }
    }
}

/// Reads values of the types the model expects, turning any other type into
/// an absent value and remembering the key.
private struct FieldReader {
    var invalid: [String] = []

    /// A string; null is absent without complaint.
    mutating func string(_ key: String, _ scanner: inout JSONScanner) throws(JSONScanner.Invalid) -> String? {
        if scanner.peek() == UInt8(ascii: "\"") { return try scanner.readString() }
        if try scanner.consumeNull() { return nil }
        return try wrongType(key, &scanner)
    }

    /// A numeric string gives its integer and a JSON whole number is taken as
    /// it is; any other string (`"n/a"`, `"unknown"`) is absent without
    /// complaint.
    mutating func height(_ key: String, _ scanner: inout JSONScanner) throws(JSONScanner.Invalid) -> Int? {
        switch scanner.peek() ?? 0 {
        case UInt8(ascii: "\""):
            return Int(try scanner.readString())
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            if let whole = try scanner.readWholeNumber() { return whole }
            invalid.append(key)
            return nil
        default:
            if try scanner.consumeNull() { return nil }
            return try wrongType(key, &scanner)
        }
    }

    /// An array of strings; anything else, or any other element, is absent
    /// (an empty array). Null is absent without complaint.
    mutating func strings(_ key: String, _ scanner: inout JSONScanner) throws(JSONScanner.Invalid) -> [String] {
        if try scanner.consumeNull() { return [] }
        guard scanner.consume(UInt8(ascii: "[")) else { return try wrongType(key, &scanner) ?? [] }
        var values: [String] = []
        if scanner.consume(UInt8(ascii: "]")) { return values }
        repeat {
            guard scanner.peek() == UInt8(ascii: "\"") else {
                try scanner.skipValue()
                while scanner.consume(UInt8(ascii: ",")) { try scanner.skipValue() }
                try scanner.expect(UInt8(ascii: "]"))
                invalid.append(key)
                return []
            }
            values.append(try scanner.readString())
        } while scanner.consume(UInt8(ascii: ","))
        try scanner.expect(UInt8(ascii: "]"))
        return values
    }

    /// A UTC timestamp; a string that is not one is recorded, like a wrong type.
    mutating func date(_ key: String, _ scanner: inout JSONScanner) throws(JSONScanner.Invalid) -> Date? {
        guard let text = try string(key, &scanner) else { return nil }
        guard let date = Timestamp.parse(text) else {
            invalid.append(key)
            return nil
        }
        return date
    }

    private mutating func wrongType<Value>(_ key: String, _ scanner: inout JSONScanner) throws(JSONScanner.Invalid) -> Value? {
        try scanner.skipValue()
        invalid.append(key)
        return nil
    }
}
