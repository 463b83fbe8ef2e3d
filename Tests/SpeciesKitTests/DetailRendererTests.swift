import Foundation
import Testing
import TestSupport

@testable import SpeciesKit

@Suite("Detail text")
struct DetailRendererTests {
    private static let wookie = StarWarsSpecies(
        url: "https://swapi.dev/api/species/3/", name: "Wookie", averageHeight: 210, skinColors: ["gray"],
        hairColors: ["black", "brown"], eyeColors: ["blue", "green", "yellow", "brown", "golden", "red"],
        averageLifespan: "400", language: "Shyriiwook")

    private static let colouring =
        "\n\nTypical coloring includes eyes:\n\tblue, green, yellow, brown, golden, red\nhair:\n\tblack, brown\nand skin:\n\tgray"

    private func description(changing change: (inout StarWarsSpecies) -> Void) -> String {
        var species = Self.wookie
        change(&species)
        return DetailRenderer.description(of: species)
    }

    /// Worked example 1 of detail-view.md, copied from the spec.
    @Test func speciesThreeMatchesTheSpec() throws {
        let expected = """
            Wookie

            Members of the Wookie species speak Shyriiwook. The Wookie can be identified by their height, typically 210cm.

            Typical coloring includes eyes:
            \tblue, green, yellow, brown, golden, red
            hair:
            \tblack, brown
            and skin:
            \tgray

            Their average lifespan is 400 years.

            """
        #expect(DetailRenderer.render(Self.wookie) == expected)
        let recorded = try Decode.species(Fixtures.data("swapi/species-3.json")).species
        #expect(DetailRenderer.render(recorded) == expected)
    }

    /// Worked example 2: height "n/a", language "n/a", lifespan "indefinite".
    @Test func speciesTwoMatchesTheSpec() throws {
        let droid = try Decode.species(Fixtures.data("swapi/species-2.json")).species
        #expect(
            DetailRenderer.render(droid) == """
                Droid

                Members of the Droid species speak n/a. \n
                Typical coloring includes eyes:
                \tn/a
                hair:
                \tn/a
                and skin:
                \tn/a

                Their average lifespan is indefinite.

                """)
    }

    @Test func aMissingNameLeavesOnlyTheLifespan() {
        var unnamed = Self.wookie
        unnamed.name = ""
        #expect(DetailRenderer.description(of: unnamed) == "\n\nTheir average lifespan is 400 years.")
        #expect(DetailRenderer.render(unnamed) == "\n\n\n\nTheir average lifespan is 400 years.\n")
    }

    @Test func aMissingLifespanEndsAfterTheColouring() {
        let text = description { $0.averageLifespan = nil }
        #expect(
            text
                == "Members of the Wookie species speak Shyriiwook. The Wookie can be identified by their height, typically 210cm."
                + Self.colouring + ".")
    }

    @Test(arguments: ["eye", "hair", "skin"])
    func oneMissingColourListDropsTheColouring(list: String) {
        let text = description {
            switch list {
            case "eye": $0.eyeColors = nil
            case "hair": $0.hairColors = nil
            default: $0.skinColors = nil
            }
        }
        #expect(
            text
                == "Members of the Wookie species speak Shyriiwook. The Wookie can be identified by their height, typically 210cm."
                + "\n\nTheir average lifespan is 400 years.")
    }

    @Test func aMissingLanguageStartsWithTheHeight() {
        let text = description { $0.language = nil }
        #expect(text.hasPrefix("The Wookie can be identified by their height, typically 210cm.\n\nTypical"))
    }

    @Test func aMissingHeightKeepsTheTrailingSpace() {
        let text = description { $0.averageHeight = nil }
        #expect(text.hasPrefix("Members of the Wookie species speak Shyriiwook. \n\nTypical coloring"))
    }

    @Test func nothingButAFullStop() {
        #expect(DetailRenderer.description(of: StarWarsSpecies(url: Fixtures.speciesURL, name: "")) == ".")
        #expect(DetailRenderer.render(StarWarsSpecies(url: Fixtures.speciesURL, name: "")) == "\n\n.\n")
    }

    @Test(
        "' years' only when the lifespan is one of SWAPI's whole numbers",
        arguments: [
            ("400", "400 years."), ("indefinite", "indefinite."), ("unknown", "unknown."), (" 400", " 400."),
            ("4.5", "4.5."), ("+5", "+5."), ("-5", "-5."), ("", "."),
        ])
    func lifespanYears(lifespan: String, ending: String) {
        let text = description { $0.averageLifespan = lifespan }
        #expect(text.hasSuffix("\n\nTheir average lifespan is " + ending))
    }
}

@Suite("List table")
struct SpeciesTableTests {
    @Test func alignsColumnsAndRightAlignsHeight() throws {
        let page = try listing(Fixtures.data("swapi/species-page-1.json"))
        let table = SpeciesTable.render(Array(page.species.prefix(3)))
        #expect(
            table == """
                NAME    CLASSIFICATION  DESIGNATION  HEIGHT  LIFESPAN    LANGUAGE
                Human   mammal          sentient        180  120         Galactic Basic
                Droid   artificial      sentient          -  indefinite  n/a
                Wookie  mammal          sentient        210  400         Shyriiwook

                """)
    }

    @Test func absentValuesShowAsADash() {
        let table = SpeciesTable.render([StarWarsSpecies(url: Fixtures.speciesURL, name: "Nameless")])
        #expect(table.split(separator: "\n").last == "Nameless  -               -                 -  -         -")
    }

    @Test func noSpeciesPrintsNothing() {
        #expect(SpeciesTable.render([]) == "")
    }

    @Test func theRecordedPageMatchesItsGoldenFile() throws {
        let page = try listing(Fixtures.data("swapi/species-page-1.json"))
        #expect(SpeciesTable.render(page.species) == (try Fixtures.text("golden/list/page-1.txt")))
    }
}
