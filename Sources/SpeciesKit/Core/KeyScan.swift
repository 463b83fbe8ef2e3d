import Foundation

/// Whether a JSON text has any of some object keys, read from its bytes
/// before it is decoded. `StarWarsSpecies.Decoded` asks each object whether
/// it holds another kind's marks and the camelCase spellings, the costliest
/// part of reading a large listing (docs/performance.md, "Reading 100,000
/// species"); a body without any of those keys is decoded without asking
/// (`CodingUserInfoKey.plainKeys`).
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
            while let open = Self.quote(in: raw, from: index) {
                // The closing quote is the first with an even run of
                // backslashes before it.
                var close = open
                repeat {
                    guard let found = Self.quote(in: raw, from: close + 1) else { return false }
                    close = found
                } while (open + 1..<close).reversed().prefix { bytes[$0] == UInt8(ascii: "\\") }.count % 2 == 1
                index = close + 1
                var after = index
                while after < bytes.count, bytes[after].isJSONWhitespace { after += 1 }
                guard after < bytes.count, bytes[after] == UInt8(ascii: ":") else { continue }
                let key = bytes[open + 1..<close]
                if key.contains(where: { $0 == UInt8(ascii: "\\") || $0 >= 0x80 }) { return true }
                if key.count < byLength.count, byLength[key.count].contains(where: { $0.elementsEqual(key) }) {
                    return true
                }
            }
            return false
        }
    }

    /// The place of the first quote at or after `index`: memchr, as a value
    /// may be megabytes long.
    private static func quote(in raw: UnsafeRawBufferPointer, from index: Int) -> Int? {
        guard index < raw.count, let base = raw.baseAddress,
            let found = memchr(base + index, Int32(UInt8(ascii: "\"")), raw.count - index)
        else { return nil }
        return base.distance(to: UnsafeRawPointer(found))
    }
}

extension CodingUserInfoKey {
    /// True when the body being decoded holds none of the keys that
    /// `StarWarsSpecies.Decoded` would ask each object for
    /// (`StarWarsSpecies.Decoded.askedKeys`).
    static let plainKeys = CodingUserInfoKey(rawValue: "SpeciesKit.plainKeys")
}
