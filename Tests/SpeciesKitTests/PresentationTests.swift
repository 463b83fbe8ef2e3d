import Foundation
import Testing
import TestSupport

@testable import SpeciesKit

private let human = StarWarsSpecies(
    url: "https://swapi.dev/api/species/1/", name: "Human", classification: "mammal", designation: "sentient",
    averageHeight: 180, averageLifespan: "120", language: "Galactic Basic")
private let droid = StarWarsSpecies(
    url: "https://swapi.dev/api/species/2/", name: "Droid", classification: "artificial", designation: "sentient",
    averageLifespan: "indefinite", language: "n/a")
private let hutt = StarWarsSpecies(
    url: "https://swapi.dev/api/species/5/", name: "Hutt", classification: "gastropod", designation: "sentient",
    averageHeight: 300, averageLifespan: "1000", language: "Huttese")
private let ewok = StarWarsSpecies(
    url: "https://swapi.dev/api/species/9/", name: "ewok", classification: "mammal", designation: "sentient",
    averageHeight: 100, averageLifespan: "unknown", language: "Ewokese")

@Suite("The table, fitted and coloured")
struct FittedTableTests {
    private struct TestPage: Decodable {
        let results: [StarWarsSpecies]
    }

    @Test func withoutAWidthNothingIsCut() {
        #expect(
            SpeciesTable.render([human, droid]) == """
                NAME   CLASSIFICATION  DESIGNATION  HEIGHT  LIFESPAN    LANGUAGE
                Human  mammal          sentient        180  120         Galactic Basic
                Droid  artificial      sentient          -  indefinite  n/a

                """)
    }

    /// Columns are left out whole, from the last, until the rest fits;
    /// the name stays whole (issue 23: `Hum…` at 50 columns before).
    @Test func columnsAreLeftOutWholeFromTheLast() throws {
        let page = try JSONDecoder().decode(TestPage.self, from: Fixtures.data("swapi/species-page-1.json")).results
        let table = SpeciesTable.render(page, width: 50)
        #expect(
            table.hasPrefix("NAME            CLASSIFICATION  DESIGNATION\nHuman           mammal          sentient\n"),
            "\(table)")
        #expect(table.contains("\nYoda's species  mammal          sentient\n"))
        #expect(table.split(separator: "\n").allSatisfy { DisplayWidth.of(String($0)) <= 50 })
        #expect(
            SpeciesTable.columns(page, fields: SpeciesField.defaults, width: 50) == [
                .name, .classification, .designation,
            ])
        #expect(SpeciesTable.columns(page, fields: SpeciesField.defaults, width: 81) == SpeciesField.defaults)
        #expect(SpeciesTable.columns(page, fields: [.language, .averageHeight, .name], width: 20) == [.name])
    }

    /// Issue 44: columns that `--fields` names all stay; the widest text
    /// cells are cut to fit, the name and numbers whole, and no column goes
    /// below six, even when the line then runs past the edge.
    @Test func namedColumnsStayTheirCellsCut() throws {
        let page = try JSONDecoder().decode(TestPage.self, from: Fixtures.data("swapi/species-page-1.json")).results
        let fields: [SpeciesField] = [.name, .eyeColors, .language]
        let table = SpeciesTable.render(Array(page.prefix(2)), fields: fields, width: 40, cutsCells: true)
        #expect(
            table == """
                NAME   EYE COLORS         LANGUAGE
                Human  brown, blue, gre…  Galactic Basic
                Droid  n/a                n/a

                """)
        let narrow = SpeciesTable.render(
            page, fields: [.name, .averageHeight, .eyeColors, .language], width: 10, cutsCells: true)
        #expect(narrow.hasPrefix("NAME            HEIGHT  EYE C…  LANGU…\n"), "\(narrow)")
        #expect(narrow.contains("\nYoda's species      66  brown…  Galac…\n"), "\(narrow)")
    }

    /// The first column left out comes back cut when what is left shows a
    /// useful part of it: as wide as its header, six columns at least.
    @Test func theFirstLeftOutComesBackCutWhenAUsefulPartFits() {
        #expect(
            SpeciesTable.render([human, droid], width: 64) == """
                NAME   CLASSIFICATION  DESIGNATION  HEIGHT  LIFESPAN    LANGUAGE
                Human  mammal          sentient        180  120         Galacti…
                Droid  artificial      sentient          -  indefinite  n/a

                """)
        #expect(
            SpeciesTable.render([human, droid], width: 63) == """
                NAME   CLASSIFICATION  DESIGNATION  HEIGHT  LIFESPAN
                Human  mammal          sentient        180  120
                Droid  artificial      sentient          -  indefinite

                """)
    }

    /// Issue 29: at any width, even 1; a line runs past the terminal's
    /// edge rather than lose a name (before: `…` at 1, `Yoda's sp…` at 10).
    @Test(arguments: [1, 4, 10])
    func theNameIsNeverCut(width: Int) {
        let yoda = StarWarsSpecies(url: Fixtures.speciesURL, name: "Yoda's species", language: "Galactic basic")
        let table = SpeciesTable.render([human, droid, yoda], fields: [.name, .language], width: width)
        #expect(table == "NAME\nHuman\nDroid\nYoda's species\n")
    }

    @Test func noSpaceBeforeTheEllipsis() {
        #expect(DisplayWidth.truncate("Galactic Basic", to: 10) == "Galactic…")
        #expect(DisplayWidth.truncate("Galactic Basic", to: 14) == "Galactic Basic")
        #expect(DisplayWidth.truncate("Galactic", to: 1) == "…")
    }

    @Test func wideCharactersTakeTwoColumns() {
        #expect(DisplayWidth.of("日本語") == 6)
        #expect(DisplayWidth.of("e\u{301}") == 1)
        #expect(DisplayWidth.truncate("日本語", to: 5) == "日本…")
        let table = SpeciesTable.render(
            [StarWarsSpecies(url: Fixtures.speciesURL, name: "日本語"), human], fields: [.name, .averageHeight])
        #expect(table == "NAME    HEIGHT\n日本語       -\nHuman      180\n")
    }

    /// An emoji takes two columns, one scalar (🚀) or a symbol with
    /// U+FE0F (❤️), as terminals show them.
    @Test func emojiTakeTwoColumns() {
        #expect(DisplayWidth.of("🚀") == 2)
        #expect(DisplayWidth.of("❤️") == 2)
        #expect(DisplayWidth.of("❤") == 1)
        #expect(DisplayWidth.of("👩‍🚀") == 2)
        let table = SpeciesTable.render(
            [StarWarsSpecies(url: Fixtures.speciesURL, name: "🚀❤️"), human], fields: [.name, .averageHeight])
        #expect(table == "NAME   HEIGHT\n🚀❤️        -\nHuman     180\n")
    }

    /// A cut number would read as another number: it is left out whole.
    @Test func numbersAreNeverCut() {
        let table = SpeciesTable.render([hutt], fields: [.name, .averageHeight, .id], width: 11)
        #expect(table == "NAME\nHutt\n")
        #expect(SpeciesTable.render([hutt], fields: [.id], width: 1) == "ID\n 5\n")
    }

    @Test func colourMakesTheHeaderBoldAndAbsentValuesDim() {
        let table = SpeciesTable.render([droid], fields: [.name, .averageHeight], color: true)
        #expect(table == "\u{1B}[1mNAME\u{1B}[0m   \u{1B}[1mHEIGHT\u{1B}[0m\nDroid       \u{1B}[2m-\u{1B}[0m\n")
    }

    @Test func chosenFieldsInTheirOrder() {
        let table = SpeciesTable.render([human], fields: [.id, .skinColors, .created, .url])
        #expect(table == "ID  SKIN COLORS  CREATED  URL\n 1  -            -        https://swapi.dev/api/species/1/\n")
    }
}

@Suite("Tab-separated values")
struct SpeciesTSVTests {
    @Test func aHeaderOfFieldNamesThenOneLineASpecies() {
        #expect(
            SpeciesTSV.render([human, droid], fields: [.id, .name, .averageHeight, .skinColors]) == """
                id\tname\theight\tskin_colors
                1\tHuman\t180\t
                2\tDroid\t\t

                """)
    }

    @Test func tabsNewlinesAndBackslashesAreEscaped() {
        let odd = StarWarsSpecies(
            url: Fixtures.speciesURL, name: "a\tb\nc\\d\re\u{1B}[31m", eyeColors: ["red", "green"])
        #expect(
            SpeciesTSV.render([odd], fields: [.name, .eyeColors])
                == "name\teye_colors\na\\tb\\nc\\\\d\\re\\u{1B}[31m\tred, green\n")
    }

    @Test func noSpeciesStillHasItsHeader() {
        #expect(SpeciesTSV.render([], fields: [.name]) == "name\n")
    }
}

@Suite("Sorting and fields")
struct SpeciesOrderTests {
    private func names(_ species: [StarWarsSpecies]) -> [String] { species.compactMap(\.name) }

    @Test func namesIgnoreCase() {
        #expect(
            names(SpeciesOrder.name.sorted([human, ewok, droid, hutt], reversed: false)) == [
                "Droid", "ewok", "Human", "Hutt",
            ])
        #expect(
            names(SpeciesOrder.name.sorted([human, ewok, droid, hutt], reversed: true)) == [
                "Hutt", "Human", "ewok", "Droid",
            ])
    }

    @Test func heightsAsNumbersUnknownLastEitherWay() {
        #expect(
            names(SpeciesOrder.height.sorted([human, droid, hutt, ewok], reversed: false)) == [
                "ewok", "Human", "Hutt", "Droid",
            ])
        #expect(
            names(SpeciesOrder.height.sorted([human, droid, hutt, ewok], reversed: true)) == [
                "Hutt", "Human", "ewok", "Droid",
            ])
    }

    @Test func lifespansAsNumbersNotText() {
        // As text, "1000" < "120"; "indefinite" and "unknown" are not numbers.
        #expect(
            names(SpeciesOrder.lifespan.sorted([droid, hutt, ewok, human], reversed: false)) == [
                "Human", "Hutt", "Droid", "ewok",
            ])
        #expect(
            names(SpeciesOrder.lifespan.sorted([droid, hutt, ewok, human], reversed: true)) == [
                "Hutt", "Human", "Droid", "ewok",
            ])
    }

    /// A lifespan is a number as SWAPI writes one (`SWAPINumber`): digits,
    /// a fraction too; signs and exponents are words, last.
    @Test func lifespansWithFractionsOrPastIntAreNumbersToo() {
        let lifespans = ["1.5", "99999999999999999999", "2", "1e400", "nan", "-3"]
        let species = lifespans.map { StarWarsSpecies(url: Fixtures.speciesURL, name: $0, averageLifespan: $0) }
        #expect(
            names(SpeciesOrder.lifespan.sorted(species, reversed: false)) == [
                "1.5", "2", "99999999999999999999", "1e400", "nan", "-3",
            ])
    }

    @Test func tiesKeepAPIOrder() {
        let twins = (1...5).map { StarWarsSpecies(url: Fixtures.speciesURL, name: "n\($0)", averageHeight: 100) }
        #expect(names(SpeciesOrder.height.sorted(twins, reversed: false)) == ["n1", "n2", "n3", "n4", "n5"])
        #expect(names(SpeciesOrder.height.sorted(twins, reversed: true)) == ["n1", "n2", "n3", "n4", "n5"])
    }

    @Test func fieldsByTheirNameOrJSONKey() {
        #expect(SpeciesField(named: "average_height") == .averageHeight)
        #expect(SpeciesField(named: "Average_Lifespan") == .averageLifespan)
        #expect(SpeciesField(named: "eye_colors") == .eyeColors)
        #expect(SpeciesField(named: "mass") == nil)
        #expect(SpeciesField.skinColors.title == "SKIN COLORS")
    }
}
