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
    @Test func withoutAWidthNothingIsCut() {
        #expect(
            SpeciesTable.render([human, droid]) == """
                NAME   CLASSIFICATION  DESIGNATION  HEIGHT  LIFESPAN    LANGUAGE
                Human  mammal          sentient        180  120         Galactic Basic
                Droid  artificial      sentient          -  indefinite  n/a

                """)
    }

    @Test func headersWiderThanTheirValuesGiveWayFirst() {
        // CLASSIFICATION and DESIGNATION shrink to their values before any
        // value is cut.
        #expect(
            SpeciesTable.render([human, droid], width: 63) == """
                NAME   CLASSIFIC…  DESIGNA…  HEIGHT  LIFESPAN    LANGUAGE
                Human  mammal      sentient     180  120         Galactic Basic
                Droid  artificial  sentient       -  indefinite  n/a

                """)
    }

    @Test func theWidestColumnsGiveWayAndLongCellsEndInAnEllipsis() {
        let table = SpeciesTable.render([human, droid], width: 50)
        #expect(
            table == """
                NAME   CLASSI…  DESIGN…  HEIGHT  LIFESP…  LANGUAGE
                Human  mammal   sentie…     180  120      Galacti…
                Droid  artifi…  sentie…       -  indefi…  n/a

                """)
        #expect(table.split(separator: "\n").allSatisfy { DisplayWidth.of(String($0)) <= 50 })
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
        let table = SpeciesTable.render([StarWarsSpecies(name: "日本語"), human], fields: [.name, .height])
        #expect(table == "NAME    HEIGHT\n日本語       -\nHuman      180\n")
    }

    @Test func numbersAreNeverCut() {
        let table = SpeciesTable.render([hutt], fields: [.name, .height, .id], width: 8)
        #expect(table == "NAME  HEIGHT  ID\nHutt     300   5\n")
    }

    @Test func aNarrowTerminalKeepsFourColumnsACell() {
        let table = SpeciesTable.render([human], fields: [.name, .language], width: 5)
        #expect(table == "NAME  LAN…\nHum…  Gal…\n")
    }

    @Test func colourMakesTheHeaderBoldAndAbsentValuesDim() {
        let table = SpeciesTable.render([droid], fields: [.name, .height], color: true)
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
            SpeciesTSV.render([human, droid], fields: [.id, .name, .height, .skinColors]) == """
                id\tname\theight\tskin_colors
                1\tHuman\t180\t
                2\tDroid\t\t

                """)
    }

    @Test func tabsNewlinesAndBackslashesAreEscaped() {
        let odd = StarWarsSpecies(name: "a\tb\nc\\d\re\u{1B}[31m", eyeColors: ["red", "green"])
        #expect(SpeciesTSV.render([odd], fields: [.name, .eyeColors]) == "name\teye_colors\na\\tb\\nc\\\\d\\re\\u{1B}[31m\tred, green\n")
    }

    @Test func noSpeciesStillHasItsHeader() {
        #expect(SpeciesTSV.render([], fields: [.name]) == "name\n")
    }
}

@Suite("Sorting and fields")
struct SpeciesOrderTests {
    private func names(_ species: [StarWarsSpecies]) -> [String] { species.compactMap(\.name) }

    @Test func namesIgnoreCase() {
        #expect(names(SpeciesOrder.name.sorted([human, ewok, droid, hutt], reversed: false)) == ["Droid", "ewok", "Human", "Hutt"])
        #expect(names(SpeciesOrder.name.sorted([human, ewok, droid, hutt], reversed: true)) == ["Hutt", "Human", "ewok", "Droid"])
    }

    @Test func heightsAsNumbersUnknownLastEitherWay() {
        #expect(names(SpeciesOrder.height.sorted([human, droid, hutt, ewok], reversed: false)) == ["ewok", "Human", "Hutt", "Droid"])
        #expect(names(SpeciesOrder.height.sorted([human, droid, hutt, ewok], reversed: true)) == ["Hutt", "Human", "ewok", "Droid"])
    }

    @Test func lifespansAsNumbersNotText() {
        // As text, "1000" < "120"; "indefinite" and "unknown" are not numbers.
        #expect(names(SpeciesOrder.lifespan.sorted([droid, hutt, ewok, human], reversed: false)) == ["Human", "Hutt", "Droid", "ewok"])
        #expect(names(SpeciesOrder.lifespan.sorted([droid, hutt, ewok, human], reversed: true)) == ["Hutt", "Human", "Droid", "ewok"])
    }

    @Test func tiesKeepAPIOrder() {
        let twins = (1...5).map { StarWarsSpecies(name: "n\($0)", averageHeight: 100) }
        #expect(names(SpeciesOrder.height.sorted(twins, reversed: false)) == ["n1", "n2", "n3", "n4", "n5"])
        #expect(names(SpeciesOrder.height.sorted(twins, reversed: true)) == ["n1", "n2", "n3", "n4", "n5"])
    }

    @Test func fieldsByTheirNameOrJSONKey() {
        #expect(SpeciesField(named: "average_height") == .height)
        #expect(SpeciesField(named: "Average_Lifespan") == .lifespan)
        #expect(SpeciesField(named: "eye_colors") == .eyeColors)
        #expect(SpeciesField(named: "mass") == nil)
        #expect(SpeciesField.skinColors.header == "SKIN COLORS")
    }
}

@Suite("Sorting through list, in every format")
struct SortedListTests {
    let output = CapturedOutput()
    let diagnostics = RecordingDiagnostics()

    private func run(_ command: ListCommand) async throws {
        let client = SpeciesClient(root: .swapi, transport: try StubTransport.recordedSWAPI(), diagnostics: diagnostics)
        try await command.run(CommandContext(client: client, output: output, diagnostics: diagnostics))
    }

    @Test func theTallestFirstAsJSON() async throws {
        try await run(ListCommand(allPages: true, format: .json, order: .height, reversed: true))
        let species = try #require(try JSONSerialization.jsonObject(with: Data(output.text.utf8)) as? [[String: Any]])
        #expect(species.count == 37)
        let heights = species.map { $0["average_height"] as? Int }
        #expect(heights.prefix(3) == [300, 240, 220])
        let known = heights.compactMap { $0 }
        #expect(known == known.sorted(by: >))
        #expect(heights.suffix(from: known.count).allSatisfy { $0 == nil })
    }

    @Test func byNameAsJSONLines() async throws {
        try await run(ListCommand(allPages: true, format: .jsonl, order: .name))
        let names = try output.text.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])["name"] as? String
        }
        #expect(names.count == 37)
        #expect(names.first == "Aleena")
        #expect(names.compactMap { $0?.lowercased() } == names.compactMap { $0?.lowercased() }.sorted())
    }

    @Test func byLifespanAsTSVWithChosenFields() async throws {
        try await run(ListCommand(format: .tsv, order: .lifespan, fields: [.name, .lifespan]))
        #expect(
            output.text == """
                name\tlifespan
                Human\t120
                Wookie\t400
                Yoda's species\t900
                Hutt\t1000
                Droid\tindefinite
                Rodian\tunknown
                Trandoshan\tunknown
                Mon Calamari\tunknown
                Ewok\tunknown
                Sullustan\tunknown

                """)
    }

    @Test func reverseAloneReversesTheAPIOrder() async throws {
        try await run(ListCommand(page: 4, reversed: true, fields: [.id]))
        #expect(output.text == "ID\n37\n36\n35\n34\n33\n32\n31\n")
    }

    @Test func theTableFollowsTheTerminal() async throws {
        try await run(ListCommand(fields: [.name, .language], terminal: Terminal(width: 20, color: true)))
        let lines = output.text.split(separator: "\n")
        #expect(lines.first == "\u{1B}[1mNAME\u{1B}[0m       \u{1B}[1mLANGUAGE\u{1B}[0m")
        #expect(lines.contains("Yoda's s…  Galactic…"))
        #expect(lines.allSatisfy { DisplayWidth.of(String($0).replacingOccurrences(of: "\u{1B}[1m", with: "").replacingOccurrences(of: "\u{1B}[0m", with: "")) <= 20 })
    }
}

@Suite("What the terminal allows")
struct TerminalTests {
    /// Decides as `detect` would with a terminal 100 columns wide on stdout
    /// and one on stderr.
    private func atTerminal(_ environment: [String: String], _ colorMode: Terminal.ColorMode = .auto, quiet: Bool = false) -> Terminal {
        Terminal.decide(
            environment: environment, colorMode: colorMode, quiet: quiet, stdout: .init(width: 100), stderrIsTerminal: true)
    }

    /// As `detect` would in a pipe, with stderr a pipe too.
    private func piped(_ environment: [String: String], _ colorMode: Terminal.ColorMode = .auto) -> Terminal {
        Terminal.decide(environment: environment, colorMode: colorMode, quiet: false, stdout: nil, stderrIsTerminal: false)
    }

    @Test func columnsSetsTheWidth() {
        #expect(atTerminal([:]).width == 100)
        #expect(atTerminal(["COLUMNS": "72"]).width == 72)
        #expect(atTerminal(["COLUMNS": "0"]).width == 100)
        #expect(piped([:]).width == nil)
        #expect(piped(["COLUMNS": "72"]).width == 72)
    }

    @Test func colourAsAsked() {
        #expect(atTerminal([:]).color)
        #expect(atTerminal(["NO_COLOR": "1"], .always).color)
        #expect(!atTerminal([:], .never).color)
        #expect(!atTerminal(["NO_COLOR": "1"]).color)
        #expect(atTerminal(["NO_COLOR": ""]).color)
        #expect(!atTerminal(["TERM": "dumb"]).color)
        #expect(!piped([:]).color)
        #expect(piped([:], .always).color)
    }

    @Test func quietOrDumbMeansNoProgress() {
        #expect(atTerminal([:]).progress)
        #expect(!atTerminal([:], quiet: true).progress)
        #expect(!atTerminal(["TERM": "dumb"]).progress)
        #expect(!piped([:]).progress)
    }
}
