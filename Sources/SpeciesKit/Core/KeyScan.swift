import Foundation

/// Whether a JSON text has any of some object keys, read from its bytes
/// before it is decoded. `StarWarsSpecies.Decoded` asks each object whether
/// it holds another kind's 40 marks (they alone took 0.37 s of the 2.67 s a
/// listing of 100,000 species took) and the camelCase spellings; a body
/// without any of those keys is decoded without asking
/// (`CodingUserInfoKey.plainKeys`; docs/performance.md).
struct KeyScan: Sendable {
    /// The keys' bytes, by their length.
    private let byLength: [[[UInt8]]]

    init(_ keys: [String]) {
        var byLength = [[[UInt8]]](repeating: [], count: (keys.map(\.utf8.count).max() ?? 0) + 1)
        for key in keys { byLength[key.utf8.count].append(Array(key.utf8)) }
        self.byLength = byLength
    }

    /// Whether an object key of `json`, at any depth, is one of the keys, or
    /// holds an escape or a byte past ASCII (which a decoder may read as one
    /// of them: `\u0068eight`, or a spelling that Unicode holds equal). A
    /// text that is not JSON answers anything: its decoder refuses it.
    func appears(in json: Data) -> Bool {
        json.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            var index = 0
            while index < bytes.count {
                guard bytes[index] == UInt8(ascii: "\"") else {
                    index += 1
                    continue
                }
                let start = index + 1
                var unusual = false
                index = start
                while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                    if bytes[index] >= 0x80 { unusual = true }
                    if bytes[index] == UInt8(ascii: "\\") { (unusual, index) = (true, index + 1) }
                    index += 1
                }
                let end = min(index, bytes.count)
                index += 1
                var after = index
                while after < bytes.count, bytes[after].isJSONWhitespace { after += 1 }
                guard after < bytes.count, bytes[after] == UInt8(ascii: ":") else { continue }
                if unusual { return true }
                let length = end - start
                if length < byLength.count, byLength[length].contains(where: { $0.elementsEqual(bytes[start..<end]) }) {
                    return true
                }
            }
            return false
        }
    }
}

extension CodingUserInfoKey {
    /// True when the body being decoded holds none of the keys that
    /// `StarWarsSpecies.Decoded` would ask each object for
    /// (`StarWarsSpecies.Decoded.askedKeys`).
    static let plainKeys = CodingUserInfoKey(rawValue: "SpeciesKit.plainKeys")
}
