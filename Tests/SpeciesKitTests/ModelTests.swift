import Foundation
import Testing
import TestSupport

@testable import SpeciesKit

@Suite("StarWarsSpecies decoding")
struct StarWarsSpeciesTests {
    /// A species object holding one field, as JSON text.
    private func species(_ key: String, _ value: String) throws -> StarWarsSpecies.Decoded {
        try Decode.species(#"{"url": "https://swapi.dev/api/species/1/", "name": "Test", "\#(key)": \#(value)}"#)
    }

    @Test func decodesTheRecordedWookie() throws {
        let decoded = try Decode.species(Fixtures.data("swapi/species-3.json"))
        let wookie = decoded.species
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
        #expect(wookie.createdTimestamp?.text == "2014-12-10T16:44:31.486000Z")
        #expect(wookie.editedTimestamp?.text == "2014-12-20T21:36:42.142000Z")
        #expect(decoded.invalidFields.isEmpty)
    }

    @Test func decodesEveryRecordedPage() throws {
        var names: [String] = []
        for number in 1...4 {
            let page = try listing(Fixtures.data("swapi/species-page-\(number).json"))
            #expect(page.count == 37)
            #expect(page.issues.isEmpty)
            names += page.species.compactMap(\.name)
        }
        #expect(names.count == 37)
        #expect(names.prefix(3) == ["Human", "Droid", "Wookie"])
        #expect(names.last == "Pau'an")
    }

    @Test(
        "average_height: a numeric string or a JSON integer, anything else absent",
        arguments: [
            (#""210""#, 210), ("180", 180), (#""+5""#, nil), (#""-5""#, nil), (#""n/a""#, nil), (#""unknown""#, nil),
            (#""""#, nil), (#""1.5""#, nil), (#"" 210""#, nil), ("null", nil),
        ] as [(String, Int?)])
    func averageHeight(json: String, expected: Int?) throws {
        let decoded = try species("average_height", json)
        #expect(decoded.species.averageHeight == expected)
        #expect(decoded.invalidFields.isEmpty)
    }

    @Test(arguments: ["1.5", "true", "[210]", "1e400", "99999999999999999999"])
    func aHeightOfAnotherTypeIsAbsentAndReported(json: String) throws {
        let decoded = try species("average_height", json)
        #expect(decoded.species.averageHeight == nil)
        #expect(decoded.invalidFields == [.init(key: "average_height", problem: .wrongType)])
    }

    @Test(
        "colour lists: split on commas, trim spaces and tabs, keep every part",
        arguments: [
            ("n/a", ["n/a"]), ("", [""]), ("blue, green, yellow", ["blue", "green", "yellow"]),
            (" blue ,\\tgreen\\t, ", ["blue", "green", ""]), ("a,,b", ["a", "", "b"]), ("pale pink", ["pale pink"]),
        ])
    func colourLists(text: String, expected: [String]) throws {
        let json =
            #"{"url": "https://swapi.dev/api/species/1/", "skin_colors": "\#(text)", "hair_colors": "\#(text)", "eye_colors": "\#(text)"}"#
        let decoded = try Decode.species(json).species
        #expect(decoded.skinColors == expected)
        #expect(decoded.hairColors == expected)
        #expect(decoded.eyeColors == expected)
    }

    @Test(arguments: ["indefinite", "unknown", "400", "4.5", "+5", ""])
    func lifespanIsKeptAsText(text: String) throws {
        #expect(try species("average_lifespan", "\"\(text)\"").species.averageLifespan == text)
    }

    @Test(arguments: ["null", #""https://www.swapi.tech/api/planets/null""#])
    func noHomeworldIsAbsentWithoutComplaint(json: String) throws {
        let droid = try species("homeworld", json)
        #expect(droid.species.homeworld == nil)
        #expect(droid.invalidFields.isEmpty)
    }

    @Test func missingKeysAreAbsentButTheURL() throws {
        let empty = try Decode.species(#"{"url": "https://swapi.dev/api/species/1/"}"#).species
        #expect(empty == StarWarsSpecies(url: Fixtures.speciesURL, name: ""))
        #expect(empty.people == [] && empty.films == [])
        #expect(empty.id == 1)
        #expect(throws: DecodingError.self) { _ = try Decode.species("{}") }
        #expect(throws: DecodingError.self) { _ = try Decode.species(#"{"url": 3}"#) }
    }

    @Test(
        "id is the number a species URL names it by (ResourceReference), else 0",
        arguments: [
            ("https://swapi.dev/api/species/3/", 3), ("https://swapi.dev/api/species/37", 37),
            ("http://127.0.0.1:8080/api/species/12/?format=json", 0), ("https://swapi.dev/api/species/", 0),
            ("https://swapi.dev/api/planets/5/", 0), ("/api/species/5/", 5), ("not a url", 0),
            ("https://swapi.dev/api/species/99999999999999999999/", 0),
        ] as [(String, Int)])
    func idFromURL(url: String, expected: Int) {
        #expect(StarWarsSpecies(url: url, name: "").id == expected)
    }

    @Test func datesWithThreeDigitsOrNoFractionParse() throws {
        let decoded = try Decode.species(
            #"{"url": "https://swapi.dev/api/species/1/", "created": "2014-12-20T21:36:42.136Z", "edited": "2014-12-20T21:36:42Z"}"#
        )
        .species
        #expect(decoded.createdTimestamp?.text == "2014-12-20T21:36:42.136000Z")
        #expect(decoded.editedTimestamp?.text == "2014-12-20T21:36:42.000000Z")
    }

    @Test func wrongTypesBecomeAbsentAndAreReportedBesideTheValue() throws {
        let page = try listing(Fixtures.data("bad/wrong-types.json"))
        let wookie = page.species[0]
        #expect(wookie.name == "Wookie")
        #expect(wookie.classification == nil && wookie.averageHeight == nil && wookie.eyeColors == nil)
        #expect(wookie.averageLifespan == nil && wookie.homeworld == nil)
        #expect(wookie.people == [] && wookie.films == [] && wookie.created == nil && wookie.edited == nil)
        // A list of strings is the --json form of a colour list.
        #expect(wookie.skinColors == ["gray"])
        #expect(wookie.hairColors == ["black", "brown"])
        #expect(wookie.language == "Shyriiwook")
        let wrongType = [
            "classification", "average_height", "eye_colors", "average_lifespan", "homeworld", "people", "films",
            "edited",
        ]
        #expect(
            page.issues.map(\.description)
                == wrongType.prefix(7).map {
                    "species 'Wookie': field '\($0)' has the wrong JSON type; treated as absent"
                }
                + [
                    "species 'Wookie': field 'created' is not a valid UTC timestamp; treated as absent",
                    "species 'Wookie': field 'edited' has the wrong JSON type; treated as absent",
                    "species 'Human': field 'language' has the wrong JSON type; treated as absent",
                ])
        let human = page.species[1]
        #expect(human.language == nil && human.id == 1 && human.averageHeight == 180)
    }

    @Test func aSpeciesThatIsNotAnObjectFailsToDecode() {
        #expect(throws: DecodingError.self) { _ = try Decode.species("42") }
        #expect(throws: DecodingError.self) { _ = try Decode.species(#"["Wookie"]"#) }
    }

    @Test func unknownKeysOfAnyShapeAreSkipped() throws {
        let decoded = try Decode.species(
            #"{"url": "https://swapi.dev/api/species/1/", "extra": {"a": [1, {"b": null}, "x"]}, "name": "Wookie", "more": [[[]]], "n": -1.5e3}"#
        )
        #expect(decoded.species.name == "Wookie")
        #expect(decoded.invalidFields.isEmpty)
    }

    @Test func swapiTechPropertiesDecodeToo() throws {
        let properties = #"""
            {"created":"2025-03-17T10:34:01.234Z","edited":"2025-03-17T10:34:01.234Z","classification":"artificial",
             "designation":"sentient","average_height":"n/a","average_lifespan":"indefinite","hair_colors":"n/a",
             "skin_colors":"n/a","eye_colors":"n/a","homeworld":"https://www.swapi.tech/api/planets/null",
             "language":"n/a","people":["https://www.swapi.tech/api/people/2"],"name":"Droid",
             "url":"https://www.swapi.tech/api/species/2"}
            """#
        let droid = try Decode.species(properties)
        #expect(droid.invalidFields.isEmpty)
        #expect(droid.species.id == 2 && droid.species.homeworld == nil && droid.species.films == [])
        #expect(droid.species.createdTimestamp?.text == "2025-03-17T10:34:01.234000Z")
    }
}

@Suite("StarWarsSpecies is Codable, Hashable and Identifiable")
struct CodableTests {
    private static let recorded = try? (1...37).map {
        try Decode.species(Fixtures.data("swapi/species-\($0).json")).species
    }

    @Test func theJSONOfSpeciesDecodesBackToTheSameSpecies() throws {
        let species = try #require(Self.recorded)
        for item in species {
            var text: [UInt8] = []
            SpeciesJSON.writeLines([item]) { text += $0 }
            let decoded = try JSONDecoder().decode(StarWarsSpecies.self, from: Data(text))
            #expect(decoded == item)
        }
    }

    @Test func jsonEncoderWritesTheJSONObjectAndItDecodesBack() throws {
        let species = try #require(Self.recorded)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let data = try encoder.encode(species)
        let objects = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        #expect(objects[1]["id"] as? Int == 2)
        #expect(objects[1]["homeworld"] is NSNull)
        #expect(objects[2]["average_height"] as? Int == 210)
        #expect(objects[2]["skin_colors"] as? [String] == ["gray"])
        #expect(objects[2]["created"] as? String == "2014-12-10T16:44:31.486000Z")
        #expect(Set(objects[0].keys) == Set(SpeciesJSONTests.keys))
        #expect(try JSONDecoder().decode([StarWarsSpecies].self, from: data) == species)
    }

    /// The encoder and `--json` write the same object, but for the order of
    /// the keys (and the escapes `--json` adds for a terminal's sake).
    @Test func jsonEncoderAndTheJSONWriterAgree() throws {
        let species = try #require(Self.recorded)
        var written = Data()
        SpeciesJSON.writeArray(species) { written.append(contentsOf: $0) }
        let fromWriter = try #require(try JSONSerialization.jsonObject(with: written) as? NSArray)
        let fromEncoder = try #require(
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(species)) as? NSArray)
        #expect(fromWriter == fromEncoder)
    }

    @Test func speciesGoInASetByValue() throws {
        let species = try #require(Self.recorded)
        let doubled = Set(species + species)
        #expect(doubled.count == 37)
        #expect(Dictionary(grouping: species, by: \.id).count == 37)
    }

    @Test func whatWasInvalidTakesNoPartInEquality() throws {
        let wrong = try Decode.species(
            #"{"url": "https://swapi.dev/api/species/1/", "name": "Wookie", "average_height": true}"#)
        let right = try Decode.species(#"{"url": "https://swapi.dev/api/species/1/", "name": "Wookie"}"#)
        #expect(wrong.invalidFields.count == 1 && right.invalidFields.isEmpty)
        #expect(wrong.species == right.species)
        #expect(Set([wrong.species, right.species]).count == 1)
    }
}

@Suite("A page of species")
struct SpeciesPageTests {
    /// Nothing is skipped: the element that is no species object is named,
    /// for the reader to refuse the page.
    @Test func anElementThatIsNoSpeciesObjectIsNamed() throws {
        let page = try listing(Fixtures.data("bad/results-with-a-number.json"))
        #expect(page.species.map(\.name) == ["Wookie"] && page.notASpecies == "results[1]")
        #expect(page.issues.isEmpty)
    }

    @Test func aPreviousOfTheWrongTypeIsIgnored() throws {
        let page = try listing(Data(#"{"count":0,"previous":5,"next":null,"results":[]}"#.utf8))
        #expect(page.count == 0 && page.species.isEmpty)
    }

    /// A page without a whole count, 0 or more, is no SWAPI listing, in
    /// swapi.dev's shape and swapi.tech's alike.
    @Test(arguments: ["", #""count":null,"#, #""count":"25","#, #""count":-1,"#, #""count":1e400,"#, #""count":2.5,"#])
    func aPageWithoutAWholeCountIsNoListing(count: String) throws {
        let drf = "{\(count)\"next\":null,\"results\":[]}"
        let tech =
            "{\"message\":\"ok\",\(count.replacingOccurrences(of: "count", with: "total_records"))\"results\":[]}"
        for json in [drf, tech] {
            let url = URL(string: "https://swapi.dev/api/species/")!
            let key = json == drf ? "count" : "total_records"
            let expected: Fault =
                count.isEmpty
                ? .invalidResponse(url: url, .missing(path: key))
                : .invalidResponse(url: url, .wrongType(path: key, expected: "a whole number from 0 up"))
            #expect(throws: expected) { _ = try ResponseBody.decode(ListingBody.self, from: Data(json.utf8), url: url) }
        }
    }

    @Test(arguments: [#"{"count":1,"next":null}"#, #"{"next":null,"results":{}}"#, #"{"next":7,"results":[]}"#])
    func aPageWithoutItsResultsOrNextDoesNotDecode(json: String) {
        #expect(throws: Fault.self) { _ = try listing(Data(json.utf8)) }
    }
}

@Suite("Search terms")
struct SearchTermsTests {
    @Test(
        "swapi.dev's search: every term a case-insensitive part of the name",
        arguments: [
            ("dor kel", "Kel Dor", true), ("kel,dor", "Kel Dor", true), ("KEL  DOR", "Kel Dor", true),
            ("kel dorr", "Kel Dor", false), (",", "Kel Dor", true), ("", "Human", true), ("an", "Human", true),
            ("'s sp", "Yoda's species", true), ("\"yoda\"", "Yoda's species", false),
        ])
    func matching(text: String, name: String, matches: Bool) {
        #expect(SearchTerms(text).matches(name) == matches)
    }

    @Test func aNamelessSpeciesMatchesOnlyNoTerms() {
        #expect(SearchTerms("").matches(nil))
        #expect(!SearchTerms("a").matches(nil))
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
            ("0001-01-01T00:00:00Z", "0001-01-01T00:00:00.000000Z"),
            ("2014-12-20T23:36:42.136+02:00", "2014-12-20T21:36:42.136000Z"),
            ("2014-12-20T19:36:42.136-02:00", "2014-12-20T21:36:42.136000Z"),
            ("2014-12-20t21:36:42z", "2014-12-20T21:36:42.000000Z"),
            // One calendar, the proleptic Gregorian, whatever the zone says.
            ("1500-06-01T00:00:00+00:00", "1500-06-01T00:00:00.000000Z"),
            ("1500-06-01T00:00:00Z", "1500-06-01T00:00:00.000000Z"),
            ("1582-10-10T12:00:00+01:00", "1582-10-10T11:00:00.000000Z"),
            ("9999-12-31T23:59:59Z", "9999-12-31T23:59:59.000000Z"),
        ])
    func roundTrip(text: String, expected: String) throws {
        #expect(try #require(Timestamp(text)).text == expected)
    }

    @Test func theInstantIsExact() throws {
        let date = try #require(Timestamp("2014-12-10T16:44:31.486000Z")).date
        #expect(abs(date.timeIntervalSince1970 - 1_418_229_871.486) < 0.000_001)
        #expect(Timestamp(Date(timeIntervalSince1970: 0)).text == "1970-01-01T00:00:00.000000Z")
    }

    @Test(
        "what is not a timestamp, or names a moment that does not exist",
        arguments: [
            "yesterday", "", "2014-12-20 21:36:42Z", "2014-13-01T00:00:00Z", "20141220", "2014-02-30T00:00:00Z",
            "2015-02-29T00:00:00Z", "0000-01-01T00:00:00Z", "2014-12-20T24:00:00Z", "2014-12-20T21:60:00Z",
            "2014-12-20T21:36:61Z", "2014-04-31T00:00:00+01:00", "2014-12-20T21:36:42.Z",
            "2014-12-20T21:36:42.1234567890Z",
            // Anything after the zone, an offset minute over 59, an offset of
            // another form, and instants outside years 1 to 9999 in UTC.
            "2014-12-10T13:52:11Zjunk", "2014-12-10T13:52:11+01:00junk", "2014-12-10T13:52:11Z ",
            "2014-12-10T13:52:11+00:60",
            "2014-12-10T13:52:11+24:00", "2014-12-10T13:52:11+0100", "2014-12-10T13:52:11+01", "2014-12-10T13:52:11",
            "0001-01-01T00:30:00+01:00", "9999-12-31T23:30:00-01:00",
        ])
    func rejects(text: String) {
        #expect(Timestamp(text) == nil)
    }

    /// A Date holds every microsecond only until about 2138; a Timestamp
    /// every one in years 1 to 9999, as read, written and read again.
    @Test(
        arguments: [
            "9999-12-31T23:59:59.999999Z", "2255-06-01T00:00:00.000001Z", "2255-06-01T00:00:00.999999Z",
            "5000-01-01T00:00:00.123456Z", "1066-10-14T09:00:00.000001Z", "0001-01-01T00:00:00.000001Z",
            "2137-06-01T00:00:00.499999Z", "9999-12-31T23:59:59.000001Z",
        ])
    func everyMicrosecondIsKept(text: String) throws {
        let written = try #require(Timestamp(text)).text
        #expect(written == text)
        #expect(try #require(Timestamp(written)).text == written)
    }

    /// The species that holds one keeps it through its JSON, whatever the
    /// year; its `Date` is the nearest.
    @Test func aSpeciesKeepsItsMicrosecondsThroughJSON() throws {
        let json =
            #"{"name":"Far","url":"https://swapi.dev/api/species/1/","created":"9999-12-31T23:59:59.999999Z","edited":"0001-01-01T00:00:00.000001Z"}"#
        let far = try JSONDecoder().decode(StarWarsSpecies.self, from: Data(json.utf8))
        let written = SpeciesJSON.object(far, related: nil, colored: false)
        #expect(
            written.contains(#""created": "9999-12-31T23:59:59.999999Z""#)
                && written.contains(#""edited": "0001-01-01T00:00:00.000001Z""#))
        let again = try JSONDecoder().decode(StarWarsSpecies.self, from: JSONEncoder().encode(far))
        #expect(again == far && again.createdTimestamp?.text == "9999-12-31T23:59:59.999999Z")
        #expect(abs((far.created?.timeIntervalSince1970 ?? 0) - 253_402_300_799.999_999) < 0.000_1)
    }

    /// The second never changes: year 10000 would not read at all.
    @Test func aFractionPastTheMicrosecondIsCut() throws {
        #expect(try #require(Timestamp("2014-12-31T23:59:59.9999996Z")).text == "2014-12-31T23:59:59.999999Z")
        #expect(try #require(Timestamp("9999-12-31T23:59:59.999999999Z")).text == "9999-12-31T23:59:59.999999Z")
    }
}
