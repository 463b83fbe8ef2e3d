import Foundation
import Testing
import TestSupport

@testable import SpeciesKit

@Suite("JSON scanner")
struct JSONScannerTests {
    /// Whether the scanner takes `text` as one JSON value and nothing more.
    private func isJSON(_ data: Data) -> Bool {
        data.withUnsafeBytes { raw in
            guard JSONScanner.isUTF8(raw) else { return false }
            var scanner = JSONScanner(raw)
            do {
                try scanner.skipValue()
            } catch {
                return false
            }
            return scanner.peek() == nil
        }
    }

    private func isJSON(_ text: String) -> Bool {
        isJSON(Data(text.utf8))
    }

    private func string(_ json: String) throws -> String {
        try Data(json.utf8).withUnsafeBytes { raw in
            var scanner = JSONScanner(raw)
            return try scanner.readString()
        }
    }

    @Test(
        arguments: [
            #"{}"#, #"[]"#, #"{"a":[1,-2,3.5,-0.25e-3,1E+2,true,false,null,"x"]}"#, " \n\t{ \"a\" : { } } \r\n", #""\u00e9\ud83d\udc3b""#,
            "0", "-0", #"[[[[[]]]]]"#, #""\"\\\/\b\f\n\r\t""#,
        ])
    func valid(text: String) {
        #expect(isJSON(text))
    }

    @Test(
        arguments: [
            "", "{", "}", "[1,]", #"{"a":1,}"#, #"{"a" 1}"#, "{'a':1}", "01", "1.", ".5", "-", "1e", "+1", "tru", "nul",
            #""unterminated"#, "\"tab\there\"", #""\x""#, #""\u12G4""#, #""\ud800""#, #""\udc00""#, #""\ud800\u0041""#,
            "{} {}", "[1] x", "NaN", "Infinity",
        ])
    func invalid(text: String) {
        #expect(!isJSON(text))
    }

    @Test func invalidUTF8IsRefused() {
        for bytes: [UInt8] in [[0x22, 0xFF, 0x22], [0x22, 0xC0, 0xAF, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22], [0x22, 0xE2, 0x82, 0x22]] {
            #expect(!isJSON(Data(bytes)))
        }
        #expect(isJSON(Data(#""é 🐻 ✓""#.utf8)))
    }

    @Test func nestingDeeperThan512IsRefusedWithoutExhaustingTheStack() {
        #expect(isJSON(String(repeating: "[", count: 512) + String(repeating: "]", count: 512)))
        #expect(!isJSON(String(repeating: "[", count: 513) + String(repeating: "]", count: 513)))
        #expect(!isJSON(String(repeating: "[", count: 1_000_000)))
    }

    @Test(
        arguments: [
            (#""plain""#, "plain"), (#""\u00e9t\u00e9""#, "été"), (#""\ud83d\udc3b""#, "🐻"), (#""a\"b\\c\/d""#, "a\"b\\c/d"),
            (#""\n\t\r\b\f""#, "\n\t\r\u{08}\u{0C}"), (#""\u001b[31m""#, "\u{1B}[31m"),
        ])
    func stringsAreDecoded(json: String, text: String) throws {
        #expect(try string(json) == text)
    }

    @Test(arguments: [("42", 42), ("-7", -7), ("0", 0), ("9223372036854775807", Int.max), ("-9223372036854775808", Int.min)] as [(String, Int)])
    func wholeNumbers(json: String, value: Int) throws {
        let read = try Data(json.utf8).withUnsafeBytes { raw in
            var scanner = JSONScanner(raw)
            return try scanner.readWholeNumber()
        }
        #expect(read == value)
    }

    @Test(arguments: ["9223372036854775808", "1.5", "1e3", "-0.0"])
    func numbersThatAreNotWholeOrDoNotFitReadAsNil(json: String) throws {
        let read = try Data(json.utf8).withUnsafeBytes { raw in
            var scanner = JSONScanner(raw)
            return try scanner.readWholeNumber()
        }
        #expect(read == nil)
    }

    /// The scanner and Foundation's JSONSerialization agree on which
    /// mutations of a recorded page are JSON, but for one known difference:
    /// Foundation accepts a trailing comma (`[1,]`, `{"a":1,}`), which
    /// RFC 8259 does not, and the scanner refuses.
    @Test func agreesWithJSONSerializationOnMutatedPages() throws {
        let page = try Fixtures.data("swapi/species-page-1.json")
        var random = SplitMix64(seed: 42)
        var disagreements: [String] = []
        for _ in 0..<3000 {
            var bytes = [UInt8](page)
            for _ in 0...random.below(3) {
                let at = random.below(bytes.count)
                switch random.below(3) {
                case 0: bytes[at] = Mutation.bytes[random.below(Mutation.bytes.count)]
                case 1: bytes.remove(at: at)
                default: bytes.insert(Mutation.bytes[random.below(Mutation.bytes.count)], at: at)
                }
            }
            let data = Data(bytes)
            let foundation = (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) != nil
            let trailingComma = Self.hasTrailingComma(bytes)
            if foundation != isJSON(data) && !(foundation && trailingComma) {
                disagreements.append("Foundation \(foundation): \(String(decoding: data, as: UTF8.self))")
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(3))")
        #expect(!isJSON("[1,]") && !isJSON(#"{"a":1,}"#))
    }

    /// A comma followed, after white space, by `]` or `}` outside strings.
    private static func hasTrailingComma(_ bytes: [UInt8]) -> Bool {
        var inString = false, escaped = false, comma = false
        for byte in bytes {
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true; comma = false
            case UInt8(ascii: ","): comma = true
            case UInt8(ascii: "]"), UInt8(ascii: "}"): if comma { return true }
            case 0x20, 0x0A, 0x0D, 0x09: continue
            default: comma = false
            }
        }
        return false
    }
}
