/// The numeric id of a SWAPI resource, read from its URL.
enum ResourceID {
    /// The last path component that is a number: `.../species/3/` gives 3.
    /// The scheme, host and port, the query and the fragment are never read.
    static func from(url: String) -> Int? {
        var url = url
        return url.withUTF8(id)
    }

    private static func id(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let slash = UInt8(ascii: "/")
        var start = 0
        // After "scheme://", the path starts at the next slash.
        for index in 0..<max(0, bytes.count - 2)
        where bytes[index] == UInt8(ascii: ":") && bytes[index + 1] == slash && bytes[index + 2] == slash {
            start = bytes[(index + 3)...].firstIndex(of: slash) ?? bytes.count
            break
        }
        var end = start
        while end < bytes.count, bytes[end] != UInt8(ascii: "?"), bytes[end] != UInt8(ascii: "#") { end += 1 }
        // Components from the last: each lies between two slashes.
        var componentEnd = end
        var index = end
        while index > start {
            index -= 1
            guard bytes[index] == slash else { continue }
            if let id = number(bytes[(index + 1)..<componentEnd]) { return id }
            componentEnd = index
        }
        return number(bytes[start..<componentEnd])
    }

    /// The value of ASCII digits that fit an Int; nil for anything else, or nothing.
    private static func number(_ digits: Slice<UnsafeBufferPointer<UInt8>>) -> Int? {
        guard !digits.isEmpty else { return nil }
        var value = 0
        for byte in digits {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (next, overflow2) = times10.addingReportingOverflow(Int(byte - UInt8(ascii: "0")))
            guard !overflow1, !overflow2 else { return nil }
            value = next
        }
        return value
    }
}

/// What a SWAPI link names, whatever host or form it was written with:
/// `https://www.swapi.tech/api/people/66`, `https://swapi.dev/api/people/66/`
/// and `people/66/` are all person 66.
struct ResourceReference: Hashable, Sendable, CustomStringConvertible {
    enum Kind: String, Sendable, CaseIterable {
        case species, planets, people, films
    }

    let kind: Kind
    let id: Int

    /// `person 13`, `planet 14`, `film 3`, `species 3`.
    var description: String {
        let noun = switch kind {
        case .species: "species"
        case .planets: "planet"
        case .people: "person"
        case .films: "film"
        }
        return "\(noun) \(id)"
    }

    /// The last two path components: a kind, then a number (with an
    /// optional `.json`, as swapi.info also serves). Nil for anything else,
    /// such as swapi.tech's `planets/null`.
    init?(_ link: String) {
        var path = Substring(link)
        if let end = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = path[..<end] }
        if let scheme = path.range(of: "://") {
            path = path[scheme.upperBound...].drop { $0 != "/" }
        }
        let components = path.split(separator: "/")
        guard components.count >= 2 else { return nil }
        var last = components[components.count - 1]
        if last.hasSuffix(".json") { last = last.dropLast(5) }
        guard let kind = Kind(rawValue: components[components.count - 2].lowercased()),
            !last.isEmpty, last.allSatisfy({ $0.isASCII && $0.isNumber }), let id = Int(last)
        else { return nil }
        self.kind = kind
        self.id = id
    }

    init(_ kind: Kind, _ id: Int) {
        self.kind = kind
        self.id = id
    }

    /// `planets/9`.
    var path: String { "\(kind.rawValue)/\(id)" }
}
