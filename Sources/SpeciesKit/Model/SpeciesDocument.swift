import Foundation

/// SWAPI's JSON for a species, or a page of them, read from a response body.
/// The whole body is checked first (UTF-8, JSON syntax, the page's shape),
/// so that a broken response is refused before anything of it is used;
/// the species of a page are decoded later, one at a time, as they are
/// iterated (`SpeciesList`).
public enum SpeciesDocument {
    /// What is wrong with a body, in words for the user.
    public struct Problem: Error, Equatable, CustomStringConvertible {
        public let description: String

        init(_ description: String) {
            self.description = description
        }

        static let notJSON = Problem("the body is not valid JSON (it may be cut short)")
    }

    public static func page(_ body: Data) throws(Problem) -> SpeciesPage {
        let scan = try body.withUnsafeBytes { raw in Result { () throws(Problem) in try scanPage(raw) } }.get()
        return SpeciesPage(
            count: scan.count, next: scan.next, previous: scan.previous,
            species: SpeciesList(body: body, elements: scan.elements))
    }

    public static func species(_ body: Data) throws(Problem) -> StarWarsSpecies {
        try body.withUnsafeBytes { raw in
            Result { () throws(Problem) in
                try checkWhole(raw)
                var scanner = JSONScanner(raw)
                return StarWarsSpecies(reading: &scanner)
            }
        }.get()
    }

    /// The name or title, and episode, of a planet, person or film; a value
    /// of another type is taken as absent.
    static func resource(_ body: Data) throws(Problem) -> RelatedResource {
        try body.withUnsafeBytes { raw in
            Result { () throws(Problem) in
                try checkWhole(raw)
                var scanner = JSONScanner(raw)
                var resource = RelatedResource()
                do {
                    try scanner.expect(UInt8(ascii: "{"))
                    guard !scanner.consume(UInt8(ascii: "}")) else { return resource }
                    repeat {
                        let key = try scanner.readString()
                        try scanner.expect(UInt8(ascii: ":"))
                        switch (key, scanner.peek() ?? 0) {
                        case ("name", UInt8(ascii: "\"")): resource.name = try scanner.readString()
                        case ("title", UInt8(ascii: "\"")): resource.title = try scanner.readString()
                        case ("episode_id", UInt8(ascii: "0")...UInt8(ascii: "9")): resource.episode = try scanner.readWholeNumber()
                        default: try scanner.skipValue()
                        }
                    } while scanner.consume(UInt8(ascii: ","))
                } catch {
                    throw .notJSON
                }
                return resource
            }
        }.get()
    }

    /// Decodes the species at `range` of a body that `page` has checked.
    static func species(in body: Data, at range: Range<Int>) -> StarWarsSpecies {
        body.withUnsafeBytes { raw in
            var scanner = JSONScanner(UnsafeRawBufferPointer(rebasing: raw[range]))
            return StarWarsSpecies(reading: &scanner)
        }
    }

    /// UTF-8, one JSON object and nothing after it.
    private static func checkWhole(_ raw: UnsafeRawBufferPointer) throws(Problem) {
        guard JSONScanner.isUTF8(raw) else { throw Problem("the body is not UTF-8") }
        var scanner = JSONScanner(raw)
        guard scanner.peek() == UInt8(ascii: "{") else { throw Problem("the body is not a JSON object") }
        do {
            try scanner.skipValue()
        } catch {
            throw .notJSON
        }
        guard scanner.peek() == nil else { throw .notJSON }
    }

    private struct PageScan {
        var count: Int?
        var next: String?
        var previous: String?
        var elements: [Range<Int>] = []
    }

    /// The page's own members, and where each element of `results` lies.
    /// `count` and `previous` only inform, so a wrong type there makes them
    /// absent; without `results` as an array of objects, or with a `next`
    /// that is neither a string nor null, the page cannot be used.
    private static func scanPage(_ raw: UnsafeRawBufferPointer) throws(Problem) -> PageScan {
        try checkWhole(raw)
        var scanner = JSONScanner(raw)
        var scan = PageScan()
        var sawResults = false
        do {
            try scanner.expect(UInt8(ascii: "{"))
            guard !scanner.consume(UInt8(ascii: "}")) else { throw Problem("'results' is missing") }
            repeat {
                let key = try scanner.readString()
                try scanner.expect(UInt8(ascii: ":"))
                switch key {
                case "count":
                    scan.count = scanner.peek() == UInt8(ascii: "-") || scanner.peek().map(isDigit) == true
                        ? try scanner.readWholeNumber() : try skip(&scanner)
                case "next":
                    if scanner.peek() == UInt8(ascii: "\"") {
                        scan.next = try scanner.readString()
                    } else if try scanner.consumeNull() {
                        scan.next = nil
                    } else {
                        throw Problem("'next' is not a string or null")
                    }
                case "previous":
                    scan.previous = scanner.peek() == UInt8(ascii: "\"") ? try scanner.readString() : try skip(&scanner)
                case "results":
                    scan.elements = try elements(&scanner)
                    sawResults = true
                default:
                    try scanner.skipValue()
                }
            } while scanner.consume(UInt8(ascii: ","))
        } catch let problem as Problem {
            throw problem
        } catch {
            throw .notJSON
        }
        guard sawResults else { throw Problem("'results' is missing") }
        return scan
    }

    private static func elements(_ scanner: inout JSONScanner) throws -> [Range<Int>] {
        guard scanner.consume(UInt8(ascii: "[")) else { throw Problem("'results' is not an array") }
        var ranges: [Range<Int>] = []
        if scanner.consume(UInt8(ascii: "]")) { return ranges }
        repeat {
            guard scanner.peek() == UInt8(ascii: "{") else { throw Problem("'results[\(ranges.count)]' is not an object") }
            let start = scanner.index
            try scanner.skipValue()
            ranges.append(start..<scanner.index)
        } while scanner.consume(UInt8(ascii: ","))
        try scanner.expect(UInt8(ascii: "]"))
        return ranges
    }

    private static func skip<Value>(_ scanner: inout JSONScanner) throws(JSONScanner.Invalid) -> Value? {
        try scanner.skipValue()
        return nil
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
