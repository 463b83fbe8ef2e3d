import Foundation
import Testing
import TestSupport

@testable import SpeciesKit

@Suite("StarWarsSpecies decoding")
struct StarWarsSpeciesTests {
    private func decode(_ json: String) throws -> StarWarsSpecies {
        try SpeciesDocument.species(Data(json.utf8))
    }

    /// A species object holding one field, as JSON text.
    private func species(_ key: String, _ value: String) throws -> StarWarsSpecies {
        try decode(#"{"name": "Test", "\#(key)": \#(value)}"#)
    }

    @Test func decodesTheRecordedWookie() throws {
        let wookie = try SpeciesDocument.species(Fixtures.data("swapi/species-3.json"))
        #expect(wookie.id == 3)
        #expect(wookie.url == "https://swapi.dev/api/species/3/")
        #expect(wookie.name == "Wookie")
        #expect(wookie.classification == "mammal")
        #expect(wookie.designation == "sentient")
        #expect(wookie.averageHeight == 210)
        #expect(wookie.skinColors == ["gray"])
        #expect(wookie.hairColors == ["black", "brown"])
        #expect(wookie.eyeColors == ["blue", "green", "yellow", "brown", "golden", "red"])
        #expect(wookie.averageLifespan == "400")
        #expect(wookie.homeworld == "https://swapi.dev/api/planets/14/")
        #expect(wookie.language == "Shyriiwook")
        #expect(wookie.people == ["https://swapi.dev/api/people/13/", "https://swapi.dev/api/people/80/"])
        #expect(wookie.films.count == 4)
        #expect(wookie.created.map(Timestamp.format) == "2014-12-10T16:44:31.486000Z")
        #expect(wookie.edited.map(Timestamp.format) == "2014-12-20T21:36:42.142000Z")
        #expect(wookie.invalidFields.isEmpty)
    }

    @Test func decodesEveryRecordedPage() throws {
        var names: [String] = []
        for number in 1...4 {
            let page = try SpeciesDocument.page(Fixtures.data("swapi/species-page-\(number).json"))
            #expect(page.count == 37)
            #expect(page.results.allSatisfy { $0.invalidFields.isEmpty })
            names += page.results.compactMap(\.name)
        }
        #expect(names.count == 37)
        #expect(names.prefix(3) == ["Human", "Droid", "Wookie"])
        #expect(names.last == "Pau'an")
    }

    @Test(
        "average_height: a numeric string or a JSON integer, anything else absent",
        arguments: [
            (#""210""#, 210), ("180", 180), (#""+5""#, 5), (#""-5""#, -5), (#""n/a""#, nil), (#""unknown""#, nil),
            (#""""#, nil), (#""1.5""#, nil), (#"" 210""#, nil), ("null", nil),
        ] as [(String, Int?)])
    func averageHeight(json: String, expected: Int?) throws {
        let decoded = try species("average_height", json)
        #expect(decoded.averageHeight == expected)
        #expect(decoded.invalidFields.isEmpty)
    }

    @Test(
        "colour lists: split on commas, trim spaces and tabs, keep every part",
        arguments: [
            ("n/a", ["n/a"]), ("", [""]), ("blue, green, yellow", ["blue", "green", "yellow"]),
            (" blue ,\\tgreen\\t, ", ["blue", "green", ""]), ("a,,b", ["a", "", "b"]), ("pale pink", ["pale pink"]),
        ])
    func colourLists(text: String, expected: [String]) throws {
        let json = #"{"skin_colors": "\#(text)", "hair_colors": "\#(text)", "eye_colors": "\#(text)"}"#
        let decoded = try decode(json)
        #expect(decoded.skinColors == expected)
        #expect(decoded.hairColors == expected)
        #expect(decoded.eyeColors == expected)
    }

    @Test(arguments: ["indefinite", "unknown", "400", "4.5", "+5", ""])
    func lifespanIsKeptAsText(text: String) throws {
        #expect(try species("average_lifespan", "\"\(text)\"").averageLifespan == text)
    }

    @Test func nullHomeworldIsAbsentWithoutComplaint() throws {
        let droid = try species("homeworld", "null")
        #expect(droid.homeworld == nil)
        #expect(droid.invalidFields.isEmpty)
    }

    @Test func missingKeysAreAbsent() throws {
        let empty = try decode("{}")
        #expect(empty == StarWarsSpecies())
        #expect(empty.people == [] && empty.films == [])
        #expect(empty.id == nil)
    }

    @Test(
        "id is the last number path component of the URL",
        arguments: [
            ("https://swapi.dev/api/species/3/", 3), ("https://swapi.dev/api/species/37", 37),
            ("http://127.0.0.1:8080/api/species/12/?format=json", 12), ("https://swapi.dev/api/species/", nil),
            ("http://2130706433/api/species/", nil), ("/api/species/5/", 5), ("not a url", nil),
        ] as [(String, Int?)])
    func idFromURL(url: String, expected: Int?) {
        #expect(ResourceID.from(url: url) == expected)
        #expect(StarWarsSpecies(url: url).id == expected)
    }

    @Test func datesWithThreeDigitsOrNoFractionParse() throws {
        let decoded = try decode(#"{"created": "2014-12-20T21:36:42.136Z", "edited": "2014-12-20T21:36:42Z"}"#)
        #expect(decoded.created.map(Timestamp.format) == "2014-12-20T21:36:42.136000Z")
        #expect(decoded.edited.map(Timestamp.format) == "2014-12-20T21:36:42.000000Z")
    }

    @Test func wrongTypesBecomeAbsentAndAreRecorded() throws {
        let page = try SpeciesDocument.page(Fixtures.data("bad/wrong-types.json"))
        let wookie = page.results[0]
        #expect(wookie.name == "Wookie")
        #expect(
            wookie.invalidFields == [
                "classification", "average_height", "skin_colors", "eye_colors", "average_lifespan", "homeworld",
                "people", "films", "created", "edited",
            ])
        #expect(wookie.classification == nil && wookie.averageHeight == nil && wookie.skinColors == nil)
        #expect(wookie.eyeColors == nil && wookie.averageLifespan == nil && wookie.homeworld == nil)
        #expect(wookie.people == [] && wookie.films == [] && wookie.created == nil && wookie.edited == nil)
        #expect(wookie.hairColors == ["black", "brown"])
        #expect(wookie.language == "Shyriiwook")

        let unnamed = page.results[1]
        #expect(unnamed.name == nil)
        #expect(unnamed.invalidFields == ["name"])
        #expect(unnamed.id == 1)
        #expect(unnamed.averageHeight == 180)
    }

    @Test func aSpeciesThatIsNotAnObjectFailsToDecode() {
        #expect(throws: SpeciesDocument.Problem("the body is not a JSON object")) { _ = try decode("42") }
        #expect(throws: SpeciesDocument.Problem("the body is not a JSON object")) { _ = try decode(#"["Wookie"]"#) }
    }

    @Test func unknownKeysOfAnyShapeAreSkipped() throws {
        let decoded = try decode(#"{"extra": {"a": [1, {"b": null}, "x"]}, "name": "Wookie", "more": [[[]]], "n": -1.5e3}"#)
        #expect(decoded.name == "Wookie")
        #expect(decoded.invalidFields.isEmpty)
    }
}

@Suite("Timestamps")
struct TimestampTests {
    @Test(
        "parsed as UTC and written back with six fraction digits",
        arguments: [
            ("2014-12-10T16:44:31.486000Z", "2014-12-10T16:44:31.486000Z"),
            ("2014-12-20T21:36:42.136Z", "2014-12-20T21:36:42.136000Z"),
            ("2014-12-20T21:36:42Z", "2014-12-20T21:36:42.000000Z"),
            ("2014-12-10T16:44:31.123456Z", "2014-12-10T16:44:31.123456Z"),
            ("2016-02-29T23:59:59.999999Z", "2016-02-29T23:59:59.999999Z"),
            ("1969-12-31T23:59:59.500000Z", "1969-12-31T23:59:59.500000Z"),
            ("2014-12-20T23:36:42.136+02:00", "2014-12-20T21:36:42.136000Z"),
        ])
    func roundTrip(text: String, expected: String) throws {
        let date = try #require(Timestamp.parse(text))
        #expect(Timestamp.format(date) == expected)
    }

    @Test func theInstantIsExact() throws {
        let date = try #require(Timestamp.parse("2014-12-10T16:44:31.486000Z"))
        #expect(abs(date.timeIntervalSince1970 - 1_418_229_871.486) < 0.000_001)
        #expect(Timestamp.format(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00.000000Z")
    }

    @Test(arguments: ["yesterday", "", "2014-12-20 21:36:42Z", "2014-13-01T00:00:00Z", "20141220"])
    func rejectsWhatIsNotATimestamp(text: String) {
        #expect(Timestamp.parse(text) == nil)
    }
}
