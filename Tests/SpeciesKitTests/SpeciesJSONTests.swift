import Foundation
import Testing
import TestSupport

@testable import SpeciesKit

@Suite("JSON output")
struct SpeciesJSONTests {
    static let keys = [
        "id", "name", "classification", "designation", "average_height", "skin_colors", "hair_colors",
        "eye_colors", "average_lifespan", "homeworld", "language", "people", "films", "created", "edited", "url",
    ]

    private func recorded(_ name: String) throws -> StarWarsSpecies {
        try Decode.species(Fixtures.data("swapi/\(name).json")).species
    }

    private func lines(_ species: [StarWarsSpecies]) -> String {
        var bytes: [UInt8] = []
        SpeciesJSON.writeLines(species) { bytes += $0 }
        return String(decoding: bytes, as: UTF8.self)
    }

    private func array(_ species: [StarWarsSpecies]) -> String {
        var bytes: [UInt8] = []
        SpeciesJSON.writeArray(species) { bytes += $0 }
        return String(decoding: bytes, as: UTF8.self)
    }

    private func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// The keys of a compact object, in the order they were written.
    private func keyOrder(_ line: String) throws -> [String] {
        let pattern = try NSRegularExpression(pattern: #"[{,]"([a-z_]+)":"#)
        return pattern.matches(in: line, range: NSRange(line.startIndex..., in: line)).compactMap {
            Range($0.range(at: 1), in: line).map { String(line[$0]) }
        }
    }

    @Test func oneSpeciesParsesBackWithTypedValues() throws {
        let wookie = try object(SpeciesJSON.object(recorded("species-3")))
        #expect(wookie["id"] as? Int == 3)
        #expect(wookie["name"] as? String == "Wookie")
        #expect(wookie["average_height"] as? Int == 210)
        #expect(wookie["skin_colors"] as? [String] == ["gray"])
        #expect(wookie["hair_colors"] as? [String] == ["black", "brown"])
        #expect(wookie["average_lifespan"] as? String == "400")
        #expect(
            wookie["people"] as? [String] == ["https://swapi.dev/api/people/13/", "https://swapi.dev/api/people/80/"])
        #expect(wookie["created"] as? String == "2014-12-10T16:44:31.486000Z")
        #expect(wookie["edited"] as? String == "2014-12-20T21:36:42.142000Z")
        #expect(wookie["url"] as? String == "https://swapi.dev/api/species/3/")
        #expect(Set(wookie.keys) == Set(Self.keys))
    }

    @Test func keysComeInTheSchemaOrder() throws {
        let line = lines([try recorded("species-3")])
        #expect(try keyOrder(line) == Self.keys)
    }

    @Test func absentValuesAreNullNeverLeftOut() throws {
        let line = lines([StarWarsSpecies(url: Fixtures.speciesURL, name: "")])
        #expect(
            line == #"{"id":1,"name":"","classification":null,"designation":null,"average_height":null,"#
                + #""skin_colors":null,"hair_colors":null,"eye_colors":null,"average_lifespan":null,"homeworld":null,"#
                + #""language":null,"people":[],"films":[],"created":null,"edited":null,"url":"https://swapi.dev/api/species/1/"}"#
                + "\n")
    }

    @Test func prettyOutputIsLaidOutAsJqDoes() {
        let species = StarWarsSpecies(url: "https://swapi.dev/api/species/2/", name: "Droid", hairColors: ["n/a"])
        #expect(
            array([species]) == """
                [
                  {
                    "id": 2,
                    "name": "Droid",
                    "classification": null,
                    "designation": null,
                    "average_height": null,
                    "skin_colors": null,
                    "hair_colors": [
                      "n/a"
                    ],
                    "eye_colors": null,
                    "average_lifespan": null,
                    "homeworld": null,
                    "language": null,
                    "people": [],
                    "films": [],
                    "created": null,
                    "edited": null,
                    "url": "https://swapi.dev/api/species/2/"
                  }
                ]

                """)
        #expect(array([]) == "[]\n")
    }

    @Test func stringsAreEscapedAsJSONRequires() throws {
        let name = "Quote \" backslash \\ newline \n tab \t bell \u{07} escape \u{1B}[31m é 🐻"
        let text = lines([StarWarsSpecies(url: Fixtures.speciesURL, name: name)])
        #expect(text.contains(#"\u001b[31m"#))
        #expect(text.contains(#"\u0007"#))
        #expect(text.filter { $0 == "\n" }.count == 1)
        #expect(try object(text)["name"] as? String == name)
    }

    @Test func whatCouldFoolATerminalIsEscapedWhatCannotIsKept() throws {
        let name =
            "C1 \u{85}\u{9B} del \u{7F} separators \u{2028}\u{2029} bidi \u{202E}\u{2066} zero-width \u{200B}\u{FEFF} 日本 🚀 ❤️ kept"
        let text = lines([StarWarsSpecies(url: Fixtures.speciesURL, name: name)])
        #expect(
            text.contains(
                #"C1 \u0085\u009b del \u007f separators \u2028\u2029 bidi \u202e\u2066 zero-width \u200b\ufeff 日本 🚀 ❤️ kept"#
            ))
        #expect(try object(text)["name"] as? String == name)
    }

    /// Issue 29: invisible characters of two, three and four bytes too,
    /// the last as UTF-16 halves, as JSON writes what lies past U+FFFF.
    @Test func invisibleCharactersOfAnyLengthAreEscaped() throws {
        let name = "soft\u{AD} mark\u{61C} mongolian\u{180E} filler\u{3164}\u{FFA0} tags\u{E0001}\u{E007F} 🚀 é"
        let text = lines([StarWarsSpecies(url: Fixtures.speciesURL, name: name)])
        #expect(
            text.contains(
                #"soft\u00ad mark\u061c mongolian\u180e filler\u3164\uffa0 tags\udb40\udc01\udb40\udc7f 🚀 é"#))
        #expect(try object(text)["name"] as? String == name)
    }

    @Test func aLargeListIsHandedOverInPieces() {
        let species = (1...5000).map {
            StarWarsSpecies(url: "https://swapi.dev/api/species/\($0)/", name: "Species \($0)")
        }
        var pieces = 0
        var bytes: [UInt8] = []
        SpeciesJSON.writeLines(species) {
            pieces += 1
            bytes += $0
        }
        #expect(pieces > 1)
        #expect(String(decoding: bytes, as: UTF8.self).split(separator: "\n").count == 5000)
    }

    @Test func linesHoldOneCompactObjectEach() throws {
        let page = try listing(Fixtures.data("swapi/species-page-1.json"))
        let lines = lines(page.species).split(separator: "\n")
        #expect(lines.count == 10)
        let names = try lines.map { try object(String($0))["name"] as? String }
        #expect(names == page.species.map(\.name))
    }
}
