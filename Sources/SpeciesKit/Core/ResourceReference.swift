/// What a SWAPI link names: the one grammar of a link (docs/species-model.md,
/// `url`), which the model, the reader of a listing, a pasted URL and the
/// related resources all read. `https://swapi.dev/api/species/3/` is species
/// 3 under the root `https://swapi.dev/api/`; `people/66` is person 66.
struct ResourceReference: Hashable, Sendable, CustomStringConvertible {
    enum Kind: String, Sendable, CaseIterable {
        case species, planets, people, films

        /// Keys that mark an object as of this kind: a species has no
        /// `mass`, a person no `climate`.
        var marks: [String] {
            switch self {
            case .species: ["classification", "designation", "average_height", "average_lifespan"]
            case .people: ["height", "mass", "gender", "birth_year"]
            case .planets: ["diameter", "climate", "terrain", "rotation_period"]
            case .films: ["title", "episode_id", "opening_crawl", "director"]
            }
        }

        /// `species`, `planet`, `person`, `film`.
        var noun: String {
            switch self {
            case .species: "species"
            case .planets: "planet"
            case .people: "person"
            case .films: "film"
            }
        }

        /// Whether an object whose keys `has` says is of this kind: it bears
        /// no mark of another.
        func owns(_ has: (String) -> Bool) -> Bool {
            foreignMark(has) == nil
        }

        /// A key of the object that marks another kind, and that kind.
        func foreignMark(_ has: (String) -> Bool) -> (key: String, kind: Kind)? {
            for kind in Self.allCases where kind != self {
                if let key = kind.marks.first(where: has) { return (key, kind) }
            }
            return nil
        }
    }

    let kind: Kind
    let id: Int

    init(_ kind: Kind, _ id: Int) {
        self.kind = kind
        self.id = id
    }

    /// The resource `link` names; nil when it names none.
    init?(_ link: String) {
        guard let (reference, _) = Self.parse(link) else { return nil }
        self = reference
    }

    /// The resource `link` names, and the root it is written under (empty
    /// for a relative link): an `http` or `https` URL, or a relative path,
    /// with no user, password, query, fragment, backslash or space, whose
    /// path ends in `<kind>/<id>` and then a slash, `.json` or nothing; the
    /// id is a whole number from 1. It reads the link's bytes from its end:
    /// a listing reads one link a species.
    static func parse(_ link: String) -> (reference: ResourceReference, root: Substring)? {
        let utf8 = link.utf8
        guard !utf8.contains(where: { Self.refused.contains($0) }) else { return nil }
        if let colon = utf8.firstIndex(of: UInt8(ascii: ":")) {
            let scheme = link[..<colon].lowercased()
            let authority = utf8[utf8.index(colon, offsetBy: 1)...]
            guard scheme == "http" || scheme == "https", authority.starts(with: "//".utf8),
                let path = authority.dropFirst(2).firstIndex(of: UInt8(ascii: "/")),
                authority.distance(from: authority.startIndex, to: path) > 2
            else { return nil }
        }
        var end = utf8.endIndex
        if link.hasSuffix(".json") {
            end = utf8.index(end, offsetBy: -5)
        } else if link.hasSuffix("/") {
            end = utf8.index(before: end)
        }
        let digits = utf8[..<end].reversed().prefix { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }.count
        let idStart = utf8.index(end, offsetBy: -digits)
        guard let id = SWAPINumber.whole(link[idStart..<end]), id >= 1, idStart > utf8.startIndex,
            utf8[utf8.index(before: idStart)] == UInt8(ascii: "/")
        else { return nil }
        let kindEnd = utf8.index(before: idStart)
        let kindStart = utf8[..<kindEnd].lastIndex(of: UInt8(ascii: "/")).map(utf8.index(after:)) ?? utf8.startIndex
        guard let kind = Kind(rawValue: String(link[kindStart..<kindEnd])) else { return nil }
        return (ResourceReference(kind, id), link[..<kindStart])
    }

    /// Bytes no link of SWAPI's holds: the query, the fragment, credentials,
    /// a backslash (which browsers and Foundation read apart), white space.
    private static let refused = Set("?#@\\ \t\n\r".utf8)

    /// `person 13`, `planet 14`, `film 3`, `species 3`.
    var description: String { "\(kind.noun) \(id)" }

    /// `planets/9`.
    var path: String { "\(kind.rawValue)/\(id)" }
}

/// SWAPI's numbers, read one way wherever SpeciesKit reads one: decimal
/// digits, with a fraction for a value (`1.5`); `+2`, `1e3`, `0x10` and
/// `٣` are none.
package enum SWAPINumber {
    /// A whole number: 1 to 18 ASCII digits.
    package static func whole(_ text: some StringProtocol) -> Int? {
        let digits = text.utf8
        guard (1...18).contains(digits.count),
            digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
        else { return nil }
        return digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
    }

    /// A number with or without a fraction: `400`, `1.5`.
    static func value(_ text: String) -> Double? {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let digits = { (part: Substring) in
            !part.isEmpty && part.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
        }
        guard parts.allSatisfy(digits) else { return nil }
        return Double(text)
    }
}
