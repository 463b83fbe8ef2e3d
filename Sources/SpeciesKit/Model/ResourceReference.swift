/// What a SWAPI link names, whatever host or form it was written with:
/// `https://www.swapi.tech/api/people/66`, `https://swapi.dev/api/people/66/`
/// and `people/66/` are all person 66. It is the one reader of links: a
/// species' id is the number its own link ends with.
struct ResourceReference: Hashable, Sendable, CustomStringConvertible {
    enum Kind: String, Sendable, CaseIterable {
        case species, planets, people, films
    }

    let kind: Kind
    let id: Int

    init(_ kind: Kind, _ id: Int) {
        self.kind = kind
        self.id = id
    }

    /// The link's number and the word before it, for a kind of SWAPI's.
    /// Nil for anything else, such as swapi.tech's `planets/null`.
    init?(_ link: String) {
        guard let (word, id) = Self.parts(of: link), let word, let kind = Kind(rawValue: word.lowercased()) else {
            return nil
        }
        self.init(kind, id)
    }

    /// The id of the species `link` names; nil for any other link.
    static func species(in link: String) -> Int? {
        ResourceReference(link).flatMap { $0.kind == .species ? $0.id : nil }
    }

    /// The last path component of `link` that is a number (with an
    /// optional `.json`, as swapi.info also serves): `.../species/3/`
    /// gives 3. The scheme, host, port, query and fragment are not read.
    static func number(in link: String) -> Int? {
        parts(of: link)?.number
    }

    /// That number, and the path component before it. It reads the link's
    /// bytes from its end, without making a component it does not keep: a
    /// list of species reads one link a species.
    private static func parts(of link: String) -> (word: Substring?, number: Int)? {
        let utf8 = link.utf8
        var start = utf8.startIndex
        if let colon = utf8.firstIndex(of: UInt8(ascii: ":")), utf8[colon...].starts(with: "://".utf8) {
            // After "scheme://", the path starts at the next slash.
            let host = utf8.index(colon, offsetBy: 3)
            start = utf8[host...].firstIndex(of: UInt8(ascii: "/")) ?? utf8.endIndex
        }
        let end = utf8[start...].firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? utf8.endIndex
        var componentEnd = end
        while componentEnd > start {
            let componentStart =
                utf8[start..<componentEnd].lastIndex(of: UInt8(ascii: "/")).map(utf8.index(after:)) ?? start
            let component = utf8[componentStart..<componentEnd]
            let digitsEnd =
                component.count > 5 && component.suffix(5).elementsEqual(".json".utf8)
                ? utf8.index(componentEnd, offsetBy: -5) : componentEnd
            if let number = Self.number(utf8[componentStart..<digitsEnd]) {
                let wordEnd = componentStart > start ? utf8.index(before: componentStart) : start
                let wordStart = utf8[start..<wordEnd].lastIndex(of: UInt8(ascii: "/")).map(utf8.index(after:)) ?? start
                return (wordStart < wordEnd ? Substring(link[wordStart..<wordEnd]) : nil, number)
            }
            componentEnd = componentStart > start ? utf8.index(before: componentStart) : start
        }
        return nil
    }

    /// The value of ASCII digits that fit an Int; nil for anything else, or nothing.
    private static func number(_ digits: Substring.UTF8View) -> Int? {
        guard !digits.isEmpty else { return nil }
        var value = 0
        for byte in digits {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            let (times10, overflow) = value.multipliedReportingOverflow(by: 10)
            let (next, overflow2) = times10.addingReportingOverflow(Int(byte - UInt8(ascii: "0")))
            guard !overflow, !overflow2 else { return nil }
            value = next
        }
        return value
    }

    /// `person 13`, `planet 14`, `film 3`, `species 3`.
    var description: String {
        let noun =
            switch kind {
            case .species: "species"
            case .planets: "planet"
            case .people: "person"
            case .films: "film"
            }
        return "\(noun) \(id)"
    }

    /// `planets/9`.
    var path: String { "\(kind.rawValue)/\(id)" }
}
