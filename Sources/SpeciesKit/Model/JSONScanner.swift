/// A strict JSON scanner (RFC 8259) over bytes in memory: it reads strings
/// and whole numbers, and skips any value, checking its syntax, without
/// building a tree. Nesting deeper than `maxDepth` is refused. The bytes are
/// UTF-8, checked before with `isUTF8`.
struct JSONScanner {
    struct Invalid: Error {}

    static let maxDepth = 512

    let bytes: UnsafeRawBufferPointer
    private(set) var index: Int

    init(_ bytes: UnsafeRawBufferPointer, at index: Int = 0) {
        self.bytes = bytes
        self.index = index
    }

    var atEnd: Bool { index >= bytes.count }

    /// The next byte that is not white space, without consuming it.
    mutating func peek() -> UInt8? {
        skipWhitespace()
        return index < bytes.count ? bytes[index] : nil
    }

    /// Consumes `byte` if it comes next (after white space).
    mutating func consume(_ byte: UInt8) -> Bool {
        guard peek() == byte else { return false }
        index += 1
        return true
    }

    mutating func expect(_ byte: UInt8) throws(Invalid) {
        guard consume(byte) else { throw Invalid() }
    }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    /// Consumes `null` if it comes next.
    mutating func consumeNull() throws(Invalid) -> Bool {
        guard peek() == UInt8(ascii: "n") else { return false }
        try literal("null")
        return true
    }

    // MARK: Strings

    mutating func readString() throws(Invalid) -> String {
        guard peek() == UInt8(ascii: "\"") else { throw Invalid() }
        index += 1
        let start = index
        skipPlainBytes()
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                index += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { return try readEscapedString(from: start) }
            guard byte >= 0x20 else { throw Invalid() }
            index += 1
        }
        throw Invalid()
    }

    /// The bytes of a string without escapes, without making a String; nil
    /// (and nothing consumed) for a string with escapes.
    mutating func readPlainString() throws(Invalid) -> UnsafeRawBufferPointer? {
        guard peek() == UInt8(ascii: "\"") else { throw Invalid() }
        let start = index + 1
        var end = start
        while end < bytes.count {
            switch bytes[end] {
            case UInt8(ascii: "\""):
                index = end + 1
                return UnsafeRawBufferPointer(rebasing: bytes[start..<end])
            case UInt8(ascii: "\\"):
                return nil
            case ..<0x20:
                throw Invalid()
            default:
                end += 1
            }
        }
        throw Invalid()
    }

    private mutating func readEscapedString(from start: Int) throws(Invalid) -> String {
        var utf8 = [UInt8](UnsafeRawBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(decoding: utf8, as: UTF8.self)
            case UInt8(ascii: "\\"):
                try readEscape(into: &utf8)
            case ..<0x20:
                throw Invalid()
            default:
                utf8.append(byte)
            }
        }
        throw Invalid()
    }

    private mutating func readEscape(into utf8: inout [UInt8]) throws(Invalid) {
        guard index < bytes.count else { throw Invalid() }
        let escape = bytes[index]
        index += 1
        switch escape {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escape)
        case UInt8(ascii: "b"): utf8.append(0x08)
        case UInt8(ascii: "f"): utf8.append(0x0C)
        case UInt8(ascii: "n"): utf8.append(0x0A)
        case UInt8(ascii: "r"): utf8.append(0x0D)
        case UInt8(ascii: "t"): utf8.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try readHex4()
            if (0xD800..<0xDC00).contains(scalar) {
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                else { throw Invalid() }
                index += 2
                let low = try readHex4()
                guard (0xDC00..<0xE000).contains(low) else { throw Invalid() }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw Invalid() }
            utf8.append(contentsOf: String(Character(unicode)).utf8)
        default:
            throw Invalid()
        }
    }

    private mutating func readHex4() throws(Invalid) -> UInt32 {
        guard index + 4 <= bytes.count else { throw Invalid() }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            index += 1
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw Invalid()
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// Whether all of `bytes` is well-formed UTF-8 (no overlong forms, no
    /// surrogates, nothing past U+10FFFF), eight ASCII bytes at a time where
    /// it can.
    static func isUTF8(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var index = 0
        let count = bytes.count
        while index < count {
            if index + 8 <= count, bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                index += 8
                continue
            }
            let lead = bytes[index]
            let length: Int
            let minimum: UInt32
            switch lead {
            case 0x00...0x7F:
                index += 1
                continue
            case 0xC2...0xDF: (length, minimum) = (2, 0x80)
            case 0xE0...0xEF: (length, minimum) = (3, 0x800)
            case 0xF0...0xF4: (length, minimum) = (4, 0x10000)
            default: return false
            }
            guard index + length <= count else { return false }
            var scalar = UInt32(lead) & (0xFF >> (length + 1))
            for offset in 1..<length {
                let byte = bytes[index + offset]
                guard byte & 0xC0 == 0x80 else { return false }
                scalar = scalar << 6 | UInt32(byte & 0x3F)
            }
            guard scalar >= minimum, scalar <= 0x10FFFF, !(0xD800...0xDFFF).contains(scalar) else { return false }
            index += length
        }
        return true
    }

    // MARK: Numbers and literals

    /// Reads a number; its value when it is a whole number that fits an Int
    /// (no fraction, no exponent), else nil.
    mutating func readWholeNumber() throws(Invalid) -> Int? {
        guard let first = peek() else { throw Invalid() }
        let negative = first == UInt8(ascii: "-")
        if negative { index += 1 }
        guard index < bytes.count, Self.isDigit(bytes[index]) else { throw Invalid() }
        var value = 0
        var fits = true
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            while index < bytes.count, Self.isDigit(bytes[index]) {
                let digit = Int(bytes[index] - UInt8(ascii: "0"))
                let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
                let (next, overflow2) = negative ? times10.subtractingReportingOverflow(digit) : times10.addingReportingOverflow(digit)
                fits = fits && !overflow1 && !overflow2
                value = next
                index += 1
            }
        }
        var whole = true
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            try digits()
            whole = false
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            try digits()
            whole = false
        }
        return whole && fits ? value : nil
    }

    private mutating func digits() throws(Invalid) {
        guard index < bytes.count, Self.isDigit(bytes[index]) else { throw Invalid() }
        while index < bytes.count, Self.isDigit(bytes[index]) { index += 1 }
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private mutating func literal(_ word: StaticString) throws(Invalid) {
        let length = word.utf8CodeUnitCount
        guard index + length <= bytes.count else { throw Invalid() }
        for offset in 0..<length where bytes[index + offset] != word.utf8Start[offset] {
            throw Invalid()
        }
        index += length
    }

    // MARK: Any value

    /// Skips one value of any kind, checking its syntax; iterative, so that
    /// deep nesting cannot exhaust the stack.
    mutating func skipValue() throws(Invalid) {
        var open: [UInt8] = []
        while true {
            guard let first = peek() else { throw Invalid() }
            switch first {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                guard open.count < Self.maxDepth else { throw Invalid() }
                index += 1
                let close = first == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
                if consume(close) { break }
                open.append(first)
                if first == UInt8(ascii: "{") { try memberName() }
                continue
            case UInt8(ascii: "\""):
                try skipString()
            case UInt8(ascii: "t"):
                try literal("true")
            case UInt8(ascii: "f"):
                try literal("false")
            case UInt8(ascii: "n"):
                try literal("null")
            default:
                _ = try readWholeNumber()
            }
            // A value is complete: close what it completes, or go on to the next.
            while let container = open.last {
                if consume(UInt8(ascii: ",")) {
                    if container == UInt8(ascii: "{") { try memberName() }
                    break
                }
                guard consume(container == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")) else { throw Invalid() }
                open.removeLast()
            }
            if open.isEmpty { return }
        }
    }

    /// Skips `"name":`.
    private mutating func memberName() throws(Invalid) {
        try skipString()
        try expect(UInt8(ascii: ":"))
    }

    private mutating func skipString() throws(Invalid) {
        guard peek() == UInt8(ascii: "\"") else { throw Invalid() }
        index += 1
        while index < bytes.count {
            skipPlainBytes()
            guard index < bytes.count else { break }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return
            }
            if byte == UInt8(ascii: "\\") {
                // Escapes and UTF-8 are checked where strings are read; a skipped
                // string is checked for its form only.
                index += 1
                guard index < bytes.count else { throw Invalid() }
                if bytes[index] == UInt8(ascii: "u") {
                    index += 1
                    try skipUnicodeEscape()
                    continue
                }
                guard Self.simpleEscapes.contains(bytes[index]) else { throw Invalid() }
            } else if byte < 0x20 {
                throw Invalid()
            }
            index += 1
        }
        throw Invalid()
    }

    /// Skips string bytes that need no attention (not `"`, `\\` or a control
    /// character) eight at a time: the usual bulk of a JSON document.
    private mutating func skipPlainBytes() {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        while index + 8 <= bytes.count {
            let word = bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            let quote = word ^ (ones &* 0x22)
            let backslash = word ^ (ones &* 0x5C)
            let special = ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash) | ((word &- ones &* 0x20) & ~word)
            guard special & highs == 0 else { return }
            index += 8
        }
    }

    /// The hex digits of a `\\u` escape, and its low half when it is the
    /// high half of a surrogate pair: reading it later must not fail.
    private mutating func skipUnicodeEscape() throws(Invalid) {
        let scalar = try readHex4()
        if (0xDC00..<0xE000).contains(scalar) { throw Invalid() }
        guard (0xD800..<0xDC00).contains(scalar) else { return }
        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
        else { throw Invalid() }
        index += 2
        guard (0xDC00..<0xE000).contains(try readHex4()) else { throw Invalid() }
    }

    private static let simpleEscapes: Set<UInt8> = Set("\"\\/bfnrt".utf8)
}
