import Foundation
import Testing
import TestSupport

@testable import SpeciesKit

private let human = StarWarsSpecies(
    url: "https://swapi.dev/api/species/1/", name: "Human", classification: "mammal", designation: "sentient",
    averageHeight: 180, eyeColors: ["brown", "blue"], averageLifespan: "120", language: "Galactic Basic")
/// Every character CSV and Markdown must take care of.
private let awkward = StarWarsSpecies(
    url: "https://swapi.dev/api/species/2/", name: #"Say "hi", then | go"#, classification: "two\r\nlines",
    designation: #"back\slash"#, eyeColors: [], averageLifespan: "\u{1B}[31mred")

@Suite("CSV and Markdown")
struct TextFormatTests {
    @Test func csvIsRFC4180() {
        #expect(
            SpeciesCSV.render(
                [human, awkward],
                fields: [.name, .classification, .designation, .averageHeight, .eyeColors, .averageLifespan])
                == "name,classification,designation,height,eye_colors,lifespan\r\n"
                + "Human,mammal,sentient,180,\"brown, blue\",120\r\n"
                + "\"Say \"\"hi\"\", then | go\",\"two\r\nlines\",back\\slash,,,\\u{1B}[31mred\r\n")
    }

    /// Issue 29: spaces before a sign, and the fullwidth signs, make a
    /// formula too; a number stays one.
    @Test(arguments: [
        ("  =1+2", "'  =1+2"), ("＝1+2", "'＝1+2"), ("＋1", "'＋1"), ("－1", "'－1"), ("＠SUM(A1)", "'＠SUM(A1)"),
        (" -5", "' -5"), ("-5", "-5"), ("Wookie", "Wookie"),
    ])
    func csvNeutralisesEveryFormula(name: String, cell: String) {
        #expect(
            SpeciesCSV.render([StarWarsSpecies(url: Fixtures.speciesURL, name: name)], fields: [.name])
                == "name\r\n\(cell)\r\n")
    }

    /// Issue 29: no link, image or code of a server's reaches a renderer.
    @Test func markdownEscapesLinksAndCode() {
        let table = SpeciesMarkdown.render(
            [StarWarsSpecies(url: Fixtures.speciesURL, name: "[x](javascript:alert(1)) ![i](y) `code`")],
            fields: [.name])
        #expect(table.hasSuffix(#"| \[x\](javascript:alert(1)) !\[i\](y) \`code\` |"# + "\n"))
    }

    @Test func csvWithoutSpeciesIsItsHeader() {
        #expect(SpeciesCSV.render([]) == "name,classification,designation,height,lifespan,language\r\n")
    }

    @Test func markdownIsAGitHubTable() {
        #expect(
            SpeciesMarkdown.render(
                [human, awkward], fields: [.id, .name, .classification, .designation, .averageHeight])
                    == #"""
                    |  id | name                 | classification | designation | height |
                    | --: | -------------------- | -------------- | ----------- | -----: |
                    |   1 | Human                | mammal         | sentient    |    180 |
                    |   2 | Say "hi", then \| go | two<br>lines   | back\\slash |        |

                    """#)
    }

    @Test func markdownColumnsAreThreeWideAtLeast() {
        #expect(SpeciesMarkdown.render([human], fields: [.id]) == "|  id |\n| --: |\n|   1 |\n")
    }
}

@Suite("JSON: chosen keys and jq's colours")
struct JSONFieldsAndColourTests {
    private func lines(
        _ species: [StarWarsSpecies], fields: [SpeciesField] = SpeciesField.allCases, colored: Bool = false
    ) -> String {
        var bytes: [UInt8] = []
        SpeciesJSON.writeLines(species, fields: fields, colored: colored) { bytes += $0 }
        return String(decoding: bytes, as: UTF8.self)
    }

    private func array(
        _ species: [StarWarsSpecies], fields: [SpeciesField] = SpeciesField.allCases, colored: Bool = false
    ) -> String {
        var bytes: [UInt8] = []
        SpeciesJSON.writeArray(species, fields: fields, colored: colored) { bytes += $0 }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func fieldsKeepTheirKeysInTheOrderGiven() {
        #expect(
            lines([human], fields: [.averageHeight, .name, .eyeColors])
                == #"{"average_height":180,"name":"Human","eye_colors":["brown","blue"]}"# + "\n")
        #expect(
            array([human], fields: [.name, .averageLifespan]) == """
                [
                  {
                    "name": "Human",
                    "average_lifespan": "120"
                  }
                ]

                """)
    }

    /// jq 1.6's default colours (`jq -C`): null 1;30, false, true and numbers
    /// 0;39, strings 0;32, arrays and objects 1;39, keys 34;1.
    @Test func colouredAsJqColours() {
        let species = StarWarsSpecies(url: Fixtures.speciesURL, name: "A", averageHeight: 7, eyeColors: [])
        let colored = lines([species], fields: [.name, .averageHeight, .eyeColors, .language], colored: true)
        let punctuation = { (text: String) in "\u{1B}[1;39m\(text)\u{1B}[0m" }
        let key = { (text: String) in "\u{1B}[34;1m\"\(text)\"\u{1B}[0m" + punctuation(":") }
        #expect(
            colored == punctuation("{") + key("name") + "\u{1B}[0;32m\"A\"\u{1B}[0m" + punctuation(",")
                + key("average_height") + "\u{1B}[0;39m7\u{1B}[0m" + punctuation(",")
                + key("eye_colors") + punctuation("[") + punctuation("]") + punctuation(",")
                + key("language") + "\u{1B}[1;30mnull\u{1B}[0m" + punctuation("}") + "\n")
        let plain = colored.replacingOccurrences(of: #"\e\[[0-9;]*m"#, with: "", options: .regularExpression)
        #expect(plain == lines([species], fields: [.name, .averageHeight, .eyeColors, .language]))
    }

    @Test func colourLeavesTheIndentationAlone() {
        let colored = array([human], fields: [.name], colored: true)
        let plain = colored.replacingOccurrences(of: #"\e\[[0-9;]*m"#, with: "", options: .regularExpression)
        #expect(plain == array([human], fields: [.name]))
        #expect(
            colored.hasPrefix("\u{1B}[1;39m[\u{1B}[0m\n  \u{1B}[1;39m{\u{1B}[0m\n    \u{1B}[34;1m\"name\"\u{1B}[0m"))
    }
}
