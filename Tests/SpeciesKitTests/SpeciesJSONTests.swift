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
        try SpeciesDocument.species(Fixtures.data("swapi/\(name).json"))
    }

    private func lines(_ species: [StarWarsSpecies]) -> String {
        let output = CapturedOutput()
        SpeciesJSON.writeLines(species, to: output)
        return output.text
    }

    private func array(_ species: [StarWarsSpecies]) -> String {
        let output = CapturedOutput()
        SpeciesJSON.writeArray(species, to: output)
        return output.text
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
        let wookie = try object(SpeciesJSON.document(recorded("species-3")))
        #expect(wookie["id"] as? Int == 3)
        #expect(wookie["name"] as? String == "Wookie")
        #expect(wookie["average_height"] as? Int == 210)
        #expect(wookie["skin_colors"] as? [String] == ["gray"])
        #expect(wookie["hair_colors"] as? [String] == ["black", "brown"])
        #expect(wookie["average_lifespan"] as? String == "400")
        #expect(wookie["people"] as? [String] == ["https://swapi.dev/api/people/13/", "https://swapi.dev/api/people/80/"])
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
        let line = lines([StarWarsSpecies()])
        #expect(
            line == #"{"id":null,"name":null,"classification":null,"designation":null,"average_height":null,"#
                + #""skin_colors":null,"hair_colors":null,"eye_colors":null,"average_lifespan":null,"homeworld":null,"#
                + #""language":null,"people":[],"films":[],"created":null,"edited":null,"url":null}"# + "\n")
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
        let text = lines([StarWarsSpecies(name: name)])
        #expect(text.contains(#"\u001b[31m"#))
        #expect(text.contains(#"\u0007"#))
        #expect(text.filter { $0 == "\n" }.count == 1)
        #expect(try object(text)["name"] as? String == name)
    }

    @Test func largePagesAreWrittenOnEveryCoreInTheSameOrder() async throws {
        let species = (1...5000).map { #"{"name":"Species \#($0)","url":"https://swapi.dev/api/species/\#($0)/","hair_colors":"a, b"}"# }
        let body = Data((#"{"count":5000,"next":null,"previous":null,"results":["# + species.joined(separator: ",") + "]}").utf8)
        let page = try SpeciesDocument.page(body)
        let together = CapturedOutput()
        let written = await SpeciesJSON.writeLines(page.species, to: together, speciesPerChunk: 7, cores: 3)
        #expect(written == 5000)
        #expect(together.text == lines(Array(page.species)))
        #expect(together.text.split(separator: "\n").last?.contains(#""name":"Species 5000""#) == true)
    }

    @Test func linesHoldOneCompactObjectEach() throws {
        let page = try SpeciesDocument.page(Fixtures.data("swapi/species-page-1.json"))
        let lines = lines(page.results).split(separator: "\n")
        #expect(lines.count == 10)
        let names = try lines.map { try object(String($0))["name"] as? String }
        #expect(names == page.results.map(\.name))
    }
}
