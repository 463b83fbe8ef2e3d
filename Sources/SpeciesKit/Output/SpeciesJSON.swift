/// JSON output in the schema of `species-model.md`: keys in a fixed order,
/// absent values as `null`, dates as UTC ISO-8601 with microseconds.
public enum SpeciesJSON {
    /// `--json` for one species: an object, indented as `jq .` would print it.
    public static func document(_ species: StarWarsSpecies) -> String {
        var json = JSONText(pretty: true)
        write(species, to: &json)
        return json.text + "\n"
    }

    /// `--json` for a list: one array, indented as `jq .` would print it.
    public static func document(_ species: [StarWarsSpecies]) -> String {
        var json = JSONText(pretty: true)
        json.beginArray()
        for item in species { write(item, to: &json) }
        json.endArray()
        return json.text + "\n"
    }

    /// `--jsonl`: one compact object and a newline per species.
    public static func lines(_ species: [StarWarsSpecies]) -> String {
        var text = ""
        for item in species {
            var json = JSONText(pretty: false)
            write(item, to: &json)
            text += json.text
            text += "\n"
        }
        return text
    }

    private static func write(_ species: StarWarsSpecies, to json: inout JSONText) {
        json.beginObject()
        json.member("id", species.id)
        json.member("name", species.name)
        json.member("classification", species.classification)
        json.member("designation", species.designation)
        json.member("average_height", species.averageHeight)
        json.member("skin_colors", species.skinColors)
        json.member("hair_colors", species.hairColors)
        json.member("eye_colors", species.eyeColors)
        json.member("average_lifespan", species.averageLifespan)
        json.member("homeworld", species.homeworld)
        json.member("language", species.language)
        json.member("people", species.people)
        json.member("films", species.films)
        json.member("created", species.created.map(Timestamp.format))
        json.member("edited", species.edited.map(Timestamp.format))
        json.member("url", species.url)
        json.endObject()
    }
}

/// A small JSON writer: compact, or pretty in jq's layout (two spaces, one
/// element a line, `[]` for an empty array).
struct JSONText {
    private(set) var text = ""
    private let pretty: Bool
    private var depth = 0
    private var containerIsEmpty = true
    private var afterKey = false

    init(pretty: Bool) {
        self.pretty = pretty
    }

    mutating func beginObject() { open("{") }
    mutating func endObject() { close("}") }
    mutating func beginArray() { open("[") }
    mutating func endArray() { close("]") }

    mutating func member(_ key: String, _ value: String?) {
        self.key(key)
        if let value { string(value) } else { null() }
    }

    mutating func member(_ key: String, _ value: Int?) {
        self.key(key)
        if let value {
            startValue()
            text += String(value)
        } else {
            null()
        }
    }

    mutating func member(_ key: String, _ values: [String]?) {
        self.key(key)
        guard let values else { return null() }
        beginArray()
        values.forEach { string($0) }
        endArray()
    }

    private mutating func key(_ key: String) {
        startValue()
        appendQuoted(key)
        text += pretty ? ": " : ":"
        afterKey = true
    }

    private mutating func string(_ value: String) {
        startValue()
        appendQuoted(value)
    }

    private mutating func null() {
        startValue()
        text += "null"
    }

    private mutating func open(_ bracket: String) {
        startValue()
        text += bracket
        depth += 1
        containerIsEmpty = true
    }

    private mutating func close(_ bracket: String) {
        depth -= 1
        if !containerIsEmpty { newline() }
        text += bracket
        containerIsEmpty = false
    }

    /// Writes what goes before a value: nothing after a key, else a comma
    /// after an earlier element and, when pretty, a new indented line.
    private mutating func startValue() {
        if afterKey {
            afterKey = false
            return
        }
        if depth == 0 { return }
        if !containerIsEmpty { text += "," }
        containerIsEmpty = false
        newline()
    }

    private mutating func newline() {
        guard pretty else { return }
        text += "\n"
        text += String(repeating: "  ", count: depth)
    }

    private mutating func appendQuoted(_ value: String) {
        text += "\""
        if value.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) {
            for scalar in value.unicodeScalars {
                switch scalar {
                case "\"": text += "\\\""
                case "\\": text += "\\\\"
                case "\n": text += "\\n"
                case "\r": text += "\\r"
                case "\t": text += "\\t"
                case "\u{08}": text += "\\b"
                case "\u{0C}": text += "\\f"
                case _ where scalar.value < 0x20:
                    let hex = String(scalar.value, radix: 16)
                    text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                default: text.unicodeScalars.append(scalar)
                }
            }
        } else {
            text += value
        }
        text += "\""
    }
}
