import Foundation
import Synchronization

/// A listing of species as any dialect answers it, and which dialect that
/// is (docs/swapi-dialects.md): swapi.dev's page (`count`, `next`,
/// `previous`, `results`), swapi.tech's page (`message`, `total_records`,
/// `results`) or search (`result`), or swapi.info's array of every species.
/// A page carries its count as a whole number, 0 or more, or it is no SWAPI
/// listing. No element is skipped: `notASpecies` names the first that is no
/// species object, and `ListingReader` says what that makes of the page.
struct ListingBody: Decodable, Sendable {
    var dialect: Dialect
    /// Species in the whole listing: the page's count (swapi.dev's `count`,
    /// swapi.tech's `total_records`), or the length of a listing that comes
    /// whole in one answer (swapi.info's, swapi.tech's search).
    var count: Int
    /// The next page's URL as the server wrote it; nil on the last page.
    var next: String?
    var species: [StarWarsSpecies] = []
    /// What could not be read of the species' fields.
    var issues: [SpeciesIssue] = []
    /// `results[3]`: the first element that is no species object.
    var notASpecies: String?
    /// swapi.tech's search, whole in one answer (`result`).
    var isSearch = false
    /// False for a page of swapi.tech asked without `expanded=true`: its
    /// results are names only.
    var expanded = true

    private enum Keys: String, CodingKey {
        case count, next, results, message, result
        case totalRecords = "total_records"
    }
}

extension ListingBody {
    /// swapi.dev's or swapi.tech's listing, an object; swapi.info's array
    /// is `read(_:url:)`'s.
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        // Without a readable `next`, the pages after this one are out of reach.
        next = try container.decodeIfPresent(String.self, forKey: .next)
        guard container.contains(.message) || container.contains(.totalRecords) || container.contains(.result) else {
            dialect = .drf
            count = try Self.count(container, .count)
            try decodeElements(of: container.nestedUnkeyedContainer(forKey: .results), at: "results") {
                (decoded: StarWarsSpecies.Decoded) in decoded
            }
            return
        }
        dialect = .tech
        isSearch = !container.contains(.results)
        // A search answers with all its species at once, and no count.
        count = isSearch ? 0 : try Self.count(container, .totalRecords)
        var summaries = 0
        try decodeElements(
            of: container.nestedUnkeyedContainer(forKey: isSearch ? .result : .results),
            at: isSearch ? "result" : "results"
        ) { (document: TechDocument) in
            if document.isSummary { summaries += 1 }
            return document.species
        }
        if summaries > 0 {
            expanded = false
            issues = []
            notASpecies = nil
        }
        if isSearch { count = species.count }
    }

    private static func count(_ container: KeyedDecodingContainer<Keys>, _ key: Keys) throws -> Int {
        guard let count = try? container.decode(Int.self, forKey: key), count >= 0 else {
            if !container.contains(key) { _ = try container.decode(Int.self, forKey: key) }
            throw DecodingError.dataCorruptedError(
                forKey: key, in: container, debugDescription: "a whole number from 0 up")
        }
        return count
    }

    /// The species of `list`, whose elements decode as `Element`, and what
    /// could not be read of their fields; `species` finds the species in an
    /// element. The first element that is none is noted.
    private mutating func decodeElements<Element: Decodable>(
        of list: UnkeyedDecodingContainer, at path: String, _ species: (Element) -> StarWarsSpecies.Decoded?
    ) throws {
        var list = list
        if let count = list.count { self.species.reserveCapacity(count) }
        while !list.isAtEnd {
            let position = list.currentIndex
            add(try list.decode(Lenient<Element>.self).value.flatMap(species), at: "\(path)[\(position)]")
        }
    }

    /// Takes an element's species and what could not be read of it; an
    /// element that is none is noted, the first of them by its place.
    private mutating func add(_ decoded: StarWarsSpecies.Decoded?, at place: String) {
        guard let decoded else {
            notASpecies = notASpecies ?? place
            return
        }
        species.append(decoded.species)
        issues += decoded.invalidFields.map { SpeciesIssue(species: decoded.species.displayName, field: $0) }
    }
}

extension ListingBody {
    /// Elements decoded at once from swapi.info's array.
    static let batch = 1000
    /// Batches decoded side by side at most, whatever the cores: what a
    /// round holds beyond the listing stays four batches' decoding.
    static let round = 4

    /// The listing `body` holds. swapi.info's array, which may hold a
    /// service's every species, is decoded `batch` elements at a time:
    /// JSONDecoder maps a whole document before it decodes any of it, at
    /// three bytes and more a byte, so the memory decoding takes is a
    /// batch's, not the whole array's. A round of batches, one a core and
    /// `round` at most, decodes side by side (docs/performance.md).
    static func read(_ body: Data, url: URL) -> Result<ListingBody, Fault> {
        guard let elements = JSONArray.elements(of: body) else {
            return ResponseBody.decoded(ListingBody.self, from: body, url: url)
        }
        var listing = ListingBody(dialect: .info, count: elements.count)
        listing.species.reserveCapacity(elements.count)
        let decoder = JSONDecoder()
        let span = batch * min(max(1, ProcessInfo.processInfo.activeProcessorCount), round)
        for start in stride(from: 0, to: elements.count, by: span) {
            let starts = Array(stride(from: start, to: min(start + span, elements.count), by: batch))
            let decoded = Mutex([Int: [Lenient<StarWarsSpecies.Decoded>]]())
            DispatchQueue.concurrentPerform(iterations: starts.count) { index in
                let first = starts[index]
                let last = min(first + batch, elements.count) - 1
                var text = Data("[".utf8)
                text += body[body.startIndex + elements[first].lowerBound..<body.startIndex + elements[last].upperBound]
                text += Data("]".utf8)
                let species = try? decoder.decode([Lenient<StarWarsSpecies.Decoded>].self, from: text)
                decoded.withLock { $0[first] = species }
            }
            for first in starts {
                guard let species = decoded.withLock({ $0[first] }) else {
                    return .failure(.invalidResponse(url: url, .malformed))
                }
                for (offset, element) in species.enumerated() { listing.add(element.value, at: "[\(first + offset)]") }
            }
        }
        listing.count = listing.species.count
        return .success(listing)
    }
}

/// The elements of a JSON array, found by their bytes alone.
enum JSONArray {
    /// Whether `json` begins as an array does.
    static func begins(_ json: Data) -> Bool { json.first { !$0.isJSONWhitespace } == UInt8(ascii: "[") }

    /// The byte ranges of the elements of the array that `json` is, from
    /// its start; nil when it is no array, or its brackets, quotes or commas
    /// do not add up (the decoder then says what is wrong).
    static func elements(of json: Data) -> [Range<Int>]? {
        json.withUnsafeBytes { raw -> [Range<Int>]? in
            let bytes = raw.bindMemory(to: UInt8.self)
            var index = 0
            while index < bytes.count, bytes[index].isJSONWhitespace { index += 1 }
            guard index < bytes.count, bytes[index] == UInt8(ascii: "[") else { return nil }
            var elements: [Range<Int>] = []
            var depth = 0
            var start: Int?
            var end = index + 1
            index += 1
            while index < bytes.count {
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: "\""):
                    start = start ?? index
                    index += 1
                    while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                        index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
                    }
                    guard index < bytes.count else { return nil }
                case UInt8(ascii: "["), UInt8(ascii: "{"):
                    start = start ?? index
                    depth += 1
                case UInt8(ascii: "]") where depth == 0:
                    if let start { elements.append(start..<end) }
                    guard elements.isEmpty == (start == nil), bytes[(index + 1)...].allSatisfy(\.isJSONWhitespace)
                    else { return nil }
                    return elements
                case UInt8(ascii: "]"), UInt8(ascii: "}"):
                    guard depth > 0 else { return nil }
                    depth -= 1
                case UInt8(ascii: ",") where depth == 0:
                    guard let element = start else { return nil }
                    elements.append(element..<end)
                    start = nil
                case let byte where byte.isJSONWhitespace:
                    index += 1
                    continue
                default: start = start ?? index
                }
                index += 1
                end = index
            }
            return nil
        }
    }
}

/// An element decoded if it can be; nil if not, without failing its list.
private struct Lenient<Value: Decodable>: Decodable {
    let value: Value?

    init(from decoder: any Decoder) throws { value = try? Value(from: decoder) }
}

extension Lenient: Sendable where Value: Sendable {}

/// One resource of swapi.tech: `{"properties": {...}, "uid": ...}`, or, in a
/// page asked without `expanded=true`, only `uid`, `name` and `url`.
private struct TechDocument: Decodable {
    let species: StarWarsSpecies.Decoded?
    let isSummary: Bool

    private enum Keys: String, CodingKey { case properties, uid }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        species = try container.decodeIfPresent(StarWarsSpecies.Decoded.self, forKey: .properties)
        isSummary = species == nil && container.contains(.uid)
    }
}
