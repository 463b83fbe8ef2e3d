import Foundation

/// How many values a JSON document holds, counted before it is decoded, so
/// that what decoding it costs stays in proportion to the size limit.
///
/// JSONDecoder maps every value of a document before it decodes any (about
/// 40 bytes a value), and each value decoded takes more: an 8 MiB page of
/// three million `{}` took 1.4 GB. A string longer than 15 bytes costs most,
/// as it is stored on its own (100 bytes and more). A body may hold one
/// value for every `bytesPerValue` bytes of the size limit, and one long
/// string for every `bytesPerLongString`: SWAPI's own shape passes (a page
/// of 100,000 species holds one value for every 35 bytes and one long
/// string for every 78), and the peak stays under four times the limit.
struct JSONValueCount {
    static let bytesPerValue = 48
    static let bytesPerLongString = 96
    /// Below these, a small size limit would refuse small answers.
    private static let smallestLimits = (values: 10_000, longStrings: 5_000)

    let maxValues: Int
    let maxLongStrings: Int

    /// Which limit `json` passes; nil when it is within them. Object keys are not values;
    /// every element of an array and every member's value is. Only the
    /// structure is read: what is not JSON is left to the decoder.
    func excess(in json: Data) -> Excess? {
        json.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            // Each open container: true for an array. Deeper than the
            // decoder goes (512) is left to it to refuse.
            var arrays: [Bool] = []
            var values = 0
            var longStrings = 0
            var expectsValue = true
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                let isValue = expectsValue && byte != UInt8(ascii: "]") && !byte.isJSONWhitespace
                if isValue {
                    values += 1
                    expectsValue = false
                    if values > maxValues { return .values(maxValues) }
                }
                switch byte {
                case UInt8(ascii: "\""):
                    let start = index
                    index += 1
                    while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                        index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
                    }
                    if isValue, index - start > 16 {
                        longStrings += 1
                        if longStrings > maxLongStrings { return .longStrings(maxLongStrings) }
                    }
                case UInt8(ascii: "["), UInt8(ascii: "{"):
                    guard arrays.count < 512 else { return nil }
                    arrays.append(byte == UInt8(ascii: "["))
                    expectsValue = byte == UInt8(ascii: "[")
                case UInt8(ascii: "]"), UInt8(ascii: "}"):
                    _ = arrays.popLast()
                    expectsValue = false
                case UInt8(ascii: ","): expectsValue = arrays.last == true
                case UInt8(ascii: ":"): expectsValue = true
                default: break
                }
                index += 1
            }
            return nil
        }
    }
}

extension JSONValueCount {
    /// The limits under a size limit of `maxSize` bytes.
    init(maxSize: Int) {
        self.init(
            maxValues: max(Self.smallestLimits.values, maxSize / Self.bytesPerValue),
            maxLongStrings: max(Self.smallestLimits.longStrings, maxSize / Self.bytesPerLongString))
    }
}

extension UInt8 {
    /// A byte of JSON's white space (RFC 8259): space, tab, LF, CR.
    var isJSONWhitespace: Bool { self == 0x20 || self == 0x09 || self == 0x0A || self == 0x0D }
}
