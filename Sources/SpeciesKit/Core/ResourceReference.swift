/// What a SWAPI link names: the one grammar of a link (docs/species-model.md,
/// `url`), which the model, the reader of a listing, a pasted URL and the
/// related resources all read. `https://swapi.dev/api/species/3/` is species
/// 3 under the root `https://swapi.dev/api/`; `people/66` is person 66.
struct ResourceReference: Hashable, Sendable, CustomStringConvertible {
    /// SWAPI's six kinds, each with the fields its objects carry
    /// (docs/species-model.md, "Kinds"): a species' are the model's keys
    /// (`SpeciesField`). An object of a kind bears no field of another that
    /// its own kind lacks; a field no kind has is allowed.
    enum Kind: String, Sendable, CaseIterable {
        case species, planets, people, films, vehicles, starships

        private static let craft = [
            "model", "manufacturer", "cost_in_credits", "length", "max_atmosphering_speed", "crew", "passengers",
            "cargo_capacity", "consumables", "pilots", "films",
        ]
        private static let fields: [Kind: [String]] = [
            .species: SpeciesField.allCases.map(\.row.key).filter { $0 != "id" },
            .people: [
                "height", "mass", "hair_color", "skin_color", "eye_color", "birth_year", "gender", "homeworld", "films",
                "species", "vehicles", "starships",
            ],
            .planets: [
                "rotation_period", "orbital_period", "diameter", "climate", "gravity", "terrain", "surface_water",
                "population", "residents", "films",
            ],
            .films: [
                "title", "episode_id", "opening_crawl", "director", "producer", "release_date", "characters", "planets",
                "starships", "vehicles", "species",
            ], .vehicles: craft + ["vehicle_class"],
            .starships: craft + ["hyperdrive_rating", "MGLT", "starship_class"],
        ].mapValues { $0 + ["name", "created", "edited", "url"] }

        /// For each kind, the fields that mark an object as of another kind,
        /// with that kind, in the table's order: the mark named is the first
        /// in that order, whatever the order of an object's keys.
        private static let foreign: [Kind: [(key: String, kind: Kind)]] = Dictionary(
            uniqueKeysWithValues: allCases.map { kind in
                let own = Set(fields[kind, default: []])
                var marks: [(key: String, kind: Kind)] = []
                for other in allCases where other != kind {
                    for field in fields[other, default: []]
                    where !own.contains(field) && !marks.contains(where: { $0.key == field }) {
                        marks.append((field, other))
                    }
                }
                return (kind, marks)
            })

        /// `species`, `planet`, `person`, `film`, `vehicle`, `starship`.
        var noun: String {
            switch self {
            case .species: "species"
            case .planets: "planet"
            case .people: "person"
            case .films: "film"
            case .vehicles: "vehicle"
            case .starships: "starship"
            }
        }

        /// The first mark of another kind, in the table's order, that an
        /// object `has` among its keys, and that kind: nil when the object
        /// may be of this kind. A decoder's container answers `has` for a
        /// key without listing its keys (`allKeys` was a tenth of a
        /// listing's time).
        func foreignMark(has: (String) -> Bool) -> (key: String, kind: Kind)? {
            Self.foreign[self, default: []].first { has($0.key) }
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
        guard !utf8.contains(where: Self.isRefused) else { return nil }
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
    /// A switch, not a set: a listing reads every byte of every species' link
    /// (a set's hashing was 6 % of a 100,000-species listing).
    private static func isRefused(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "?"), UInt8(ascii: "#"), UInt8(ascii: "@"), UInt8(ascii: "\\"), UInt8(ascii: " "),
            UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
            true
        default: false
        }
    }

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
