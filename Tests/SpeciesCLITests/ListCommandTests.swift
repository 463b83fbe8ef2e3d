import Foundation
import SpeciesKit
import Testing
import TestSupport

@testable import species

@Suite("Sorting through list, in every format")
struct SortedListTests {
    let output = CapturedOutput()
    let diagnostics = RecordingDiagnostics()

    private func run(_ command: ListCommand) async throws {
        try await command.run(.stubbed(try StubTransport.recordedSWAPI(), output: output, diagnostics: diagnostics))
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
        try await run(ListCommand(format: .tsv, order: .lifespan, fields: [.name, .averageLifespan]))
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

    /// Names stay whole; of the default columns, what does not fit is left
    /// out, said once; a column --fields names stays, its cells cut.
    @Test func theTableFollowsTheTerminal() async throws {
        try await run(ListCommand(terminal: Terminal(width: 20, color: true)))
        let lines = output.text.split(separator: "\n")
        #expect(lines.first == "\u{1B}[1mNAME\u{1B}[0m")
        #expect(lines.contains("Yoda's species"))
        #expect(
            diagnostics.notes.first
                == "the table leaves out classification, designation, height, lifespan and language to fit in 20 columns; --fields chooses them"
        )
        let named = CapturedOutput()
        try await ListCommand(fields: [.name, .language], terminal: Terminal(width: 20)).run(
            .stubbed(try StubTransport.recordedSWAPI(), output: named, diagnostics: RecordingDiagnostics()))
        #expect(named.text.split(separator: "\n").prefix(2) == ["NAME            LANGU…", "Human           Galac…"])
    }
}

@Suite("What the terminal allows")
struct TerminalTests {
    /// Decides as `detect` would with a terminal 100 columns wide on stdout
    /// and one on stderr.
    private func atTerminal(_ environment: [String: String], _ colorMode: ColorMode = .auto, quiet: Bool = false)
        -> Terminal
    {
        Terminal.decide(
            environment: environment, colorMode: colorMode, quiet: quiet, stdout: .init(width: 100),
            stderrIsTerminal: true)
    }

    /// As `detect` would in a pipe, with stderr a pipe too.
    private func piped(_ environment: [String: String], _ colorMode: ColorMode = .auto) -> Terminal {
        Terminal.decide(
            environment: environment, colorMode: colorMode, quiet: false, stdout: nil, stderrIsTerminal: false)
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
