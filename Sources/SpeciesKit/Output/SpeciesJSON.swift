import Foundation

/// Species as JSON: the keys of ``SpeciesField`` in its order, absent values
/// as `null`, dates as UTC ISO 8601 with microseconds. Given
/// `fields`, only their keys, in that order. `colored`, in jq's default
/// colours (`jq -C`).
package enum SpeciesJSON {
    /// Output is handed over in pieces of about this size.
    private static let chunk = 64 * 1024

    /// One species as a JSON object: indented as `jq .` would print it, or,
    /// not `pretty`, on one line; with `related`, its last key is `related`.
    package static func object(
        _ species: StarWarsSpecies, related: RelatedResources? = nil, pretty: Bool = true, colored: Bool = false
    ) -> String {
        var json = JSONText(pretty: pretty, colored: colored)
        write(species, fields: SpeciesField.allCases, to: &json, related: related)
        json.raw("\n")
        return String(decoding: json.bytes, as: UTF8.self)
    }

    /// Species as one JSON array, indented as `jq .` would print it,
    /// handed to `output` in pieces as it is made.
    package static func writeArray(
        _ species: some Sequence<StarWarsSpecies>, fields: [SpeciesField] = SpeciesField.allCases,
        colored: Bool = false, to output: ([UInt8]) throws -> Void
    ) rethrows {
        var json = JSONText(pretty: true, colored: colored)
        json.beginArray()
        for item in species {
            write(item, fields: fields, to: &json)
            try json.handOver(to: output, above: chunk)
        }
        json.endArray()
        json.raw("\n")
        try json.handOver(to: output)
    }

    /// JSON lines: one compact object and a newline per species, handed to
    /// `output` in pieces as they are made.
    package static func writeLines(
        _ species: some Sequence<StarWarsSpecies>, fields: [SpeciesField] = SpeciesField.allCases,
        colored: Bool = false, to output: ([UInt8]) throws -> Void
    ) rethrows {
        var json = JSONText(pretty: false, colored: colored)
        for item in species {
            write(item, fields: fields, to: &json)
            json.raw("\n")
            try json.handOver(to: output, above: chunk)
        }
        try json.handOver(to: output)
    }

    private static func write(
        _ species: StarWarsSpecies, fields: [SpeciesField], to json: inout JSONText, related: RelatedResources? = nil
    ) {
        json.beginObject()
        for field in fields {
            let row = field.row
            json.key(row.key)
            switch row.get(species) {
            case .number(let number): json.value(number)
            case .text(let text): json.value(text)
            case .list(let list): json.value(list)
            case .date(let date): json.value(date)
            }
        }
        if let related {
            json.key("related")
            json.beginObject()
            // Named as the fields whose links they name.
            json.key(SpeciesField.homeworld.key)
            json.value(related.homeworld?.name)
            json.key(SpeciesField.people.key)
            json.value(related.people.map(\.name))
            json.key(SpeciesField.films.key)
            json.value(related.films.map(\.name))
            json.endObject()
        }
        json.endObject()
    }
}

/// A small JSON writer into UTF-8 bytes: compact, or pretty in jq's layout
/// (two spaces, one element a line, `[]` for an empty array); `colored`, in
/// jq's default colours, each token coloured and reset, indentation not.
struct JSONText {
    /// jq's colours when `JQ_COLORS` is not set (its manual, "Colors").
    private enum Color {
        static let null: StaticString = "1;30"
        static let scalar: StaticString = "0;39"
        static let string: StaticString = "0;32"
        static let container: StaticString = "1;39"
        static let key: StaticString = "34;1"
    }

    private(set) var bytes: [UInt8] = []
    private let pretty: Bool
    private let colored: Bool
    private var depth = 0
    private var containerIsEmpty = true
    private var afterKey = false

    init(pretty: Bool, colored: Bool = false) {
        self.pretty = pretty
        self.colored = colored
    }

    /// Appends text as it is, outside any value.
    mutating func raw(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Hands what has been written so far to `output`, when it is more than
    /// `threshold` bytes, and starts again empty.
    mutating func handOver(to output: ([UInt8]) throws -> Void, above threshold: Int = 0) rethrows {
        guard bytes.count > threshold else { return }
        try output(bytes)
        bytes.removeAll(keepingCapacity: true)
    }

    mutating func beginObject() { open(UInt8(ascii: "{")) }
    mutating func endObject() { close(UInt8(ascii: "}")) }
    mutating func beginArray() { open(UInt8(ascii: "[")) }
    mutating func endArray() { close(UInt8(ascii: "]")) }

    mutating func value(_ value: String?) {
        guard let value else { return null() }
        startValue()
        paint(Color.string)
        appendQuoted(value)
        resetColor()
    }

    mutating func value(_ value: Int?) {
        guard let value else { return null() }
        startValue()
        paint(Color.scalar)
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        Timestamp.appendDigits(UInt64(value.magnitude), width: 1, to: &bytes)
        resetColor()
    }

    /// A UTC timestamp with microseconds (`Timestamp.text`).
    mutating func value(_ value: Timestamp?) {
        guard let value else { return null() }
        startValue()
        paint(Color.string)
        bytes.append(UInt8(ascii: "\""))
        value.append(to: &bytes)
        bytes.append(UInt8(ascii: "\""))
        resetColor()
    }

    mutating func value(_ values: [String]?) {
        guard let values else { return null() }
        beginArray()
        for value in values { self.value(value) }
        endArray()
    }

    /// Names, some of them unknown (null).
    mutating func value(_ values: [String?]) {
        beginArray()
        for value in values { self.value(value) }
        endArray()
    }

    mutating func key(_ key: String) {
        startValue()
        paint(Color.key)
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: key.utf8)
        bytes.append(UInt8(ascii: "\""))
        resetColor()
        punctuation(UInt8(ascii: ":"))
        if pretty { bytes.append(UInt8(ascii: " ")) }
        afterKey = true
    }

    private mutating func null() {
        startValue()
        paint(Color.null)
        raw("null")
        resetColor()
    }

    private mutating func open(_ bracket: UInt8) {
        startValue()
        punctuation(bracket)
        depth += 1
        containerIsEmpty = true
    }

    private mutating func close(_ bracket: UInt8) {
        depth -= 1
        if !containerIsEmpty { newline() }
        punctuation(bracket)
        containerIsEmpty = false
    }

    /// Writes what goes before a value: nothing after a key or for a value
    /// at the top, else a comma after an earlier element and, when pretty,
    /// a new indented line.
    private mutating func startValue() {
        if afterKey {
            afterKey = false
            return
        }
        if depth == 0 { return }
        if !containerIsEmpty { punctuation(UInt8(ascii: ",")) }
        containerIsEmpty = false
        newline()
    }

    private mutating func newline() {
        guard pretty else { return }
        bytes.append(UInt8(ascii: "\n"))
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * depth))
    }

    /// A bracket, comma or colon, in the colour of containers.
    private mutating func punctuation(_ character: UInt8) {
        paint(Color.container)
        bytes.append(character)
        resetColor()
    }

    private mutating func paint(_ color: StaticString) {
        guard colored else { return }
        raw("\u{1B}[")
        raw(color)
        raw("m")
    }

    private mutating func resetColor() {
        guard colored else { return }
        raw("\u{1B}[0m")
    }

    /// The string, quoted, with `"`, `\\` and all that `TerminalText`
    /// escapes (control characters, bidi overrides, zero-width characters,
    /// U+2028/U+2029) written as escapes, so that the JSON is safe to print
    /// and to embed in JavaScript; runs of bytes that need no escape are
    /// copied whole.
    private mutating func appendQuoted(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        var value = value
        // Native strings are contiguous already: no copy is made here.
        value.withUTF8 { utf8 in
            var run = 0
            var index = 0
            while index < utf8.count {
                let byte = utf8[index]
                let escaped: (scalar: UInt32, length: Int)? =
                    switch byte {
                    case ..<0x20, UInt8(ascii: "\""), UInt8(ascii: "\\"), 0x7F: (UInt32(byte), 1)
                    case 0xC2...0xDF where index + 1 < utf8.count:
                        Self.unsafeScalar(UInt32(byte & 0x1F) << 6 | UInt32(utf8[index + 1] & 0x3F)).map { ($0, 2) }
                    case 0xE0...0xEF where index + 2 < utf8.count:
                        Self.unsafeScalar(
                            UInt32(byte & 0x0F) << 12 | UInt32(utf8[index + 1] & 0x3F) << 6
                                | UInt32(utf8[index + 2] & 0x3F)
                        ).map { ($0, 3) }
                    case 0xF3 where index + 3 < utf8.count:
                        // From U+C0000: the tag characters among them.
                        Self.unsafeScalar(
                            UInt32(byte & 0x07) << 18 | UInt32(utf8[index + 1] & 0x3F) << 12 | UInt32(
                                utf8[index + 2] & 0x3F) << 6 | UInt32(utf8[index + 3] & 0x3F)
                        ).map { ($0, 4) }
                    default: nil
                    }
                guard let escaped else {
                    index += 1
                    continue
                }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run..<index]))
                appendEscape(escaped.scalar)
                index += escaped.length
                run = index
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static func unsafeScalar(_ value: UInt32) -> UInt32? {
        Unicode.Scalar(value).flatMap { TerminalText.isUnsafe($0) ? value : nil }
    }

    private mutating func appendEscape(_ scalar: UInt32) {
        if scalar > 0xFFFF {
            // Past U+FFFF, JSON writes its two UTF-16 halves.
            appendEscape(0xD800 | (scalar - 0x10000) >> 10)
            return appendEscape(0xDC00 | (scalar - 0x10000) & 0x3FF)
        }
        bytes.append(UInt8(ascii: "\\"))
        switch scalar {
        case 0x22, 0x5C: bytes.append(UInt8(scalar))
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        case 0x08: bytes.append(UInt8(ascii: "b"))
        case 0x0C: bytes.append(UInt8(ascii: "f"))
        default:
            let hex = Array("0123456789abcdef".utf8)
            bytes.append(UInt8(ascii: "u"))
            for shift in stride(from: 12, through: 0, by: -4) { bytes.append(hex[Int(scalar >> UInt32(shift) & 0xF)]) }
        }
    }
}
