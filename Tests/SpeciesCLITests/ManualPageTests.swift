import Foundation
import Testing
import TestSupport

@testable import species

/// `Sources/species/species.1` is what `ManualPage` makes, and says
/// what `--help` says; docs/cli.md's tables of options and exit statuses
/// say what the model says.
@Suite("Manual page and the contract's tables")
struct ManualPageTests {
    static let committed = Fixtures.packageRoot.appendingPathComponent("Sources/species/species.1")

    /// The page's text with the roff escapes it uses undone.
    static func plain(_ roff: String) -> String {
        roff.replacingOccurrences(of: "\\-", with: "-").replacingOccurrences(of: "\\fB", with: "")
            .replacingOccurrences(of: "\\fI", with: "").replacingOccurrences(of: "\\fR", with: "")
            .replacingOccurrences(of: "\\[u2026]", with: "…").replacingOccurrences(of: "\\e", with: "\\")
    }

    /// With SPECIES_WRITE_MANUAL=1 (`make man`), it rewrites the page first.
    @Test func theCommittedPageIsUpToDate() throws {
        if ProcessInfo.processInfo.environment["SPECIES_WRITE_MANUAL"] == "1" {
            try Data(ManualPage.render().utf8).write(to: Self.committed)
        }
        let page = String(decoding: try Data(contentsOf: Self.committed), as: UTF8.self)
        #expect(page == ManualPage.render(), "Sources/species/species.1 is out of date: run make man")
    }

    @Test func itSaysWhatHelpSays() {
        let page = Self.plain(ManualPage.render())
        for command in Commands.visibleSubcommands + [Commands.root] {
            #expect(page.contains(command.path + " " + command.usage.joined(separator: " ")), "\(command.path)")
            // The root's abstract is the NAME line, "species - browse ...".
            #expect(page.contains(command == Commands.root ? "species - browse the species of" : command.abstract))
            for option in Invocation.parser.options(of: command) {
                #expect(
                    page.contains(option.names.joined(separator: ", ") + (option.valueName.map { " <\($0)>" } ?? "")))
                #expect(page.contains("\n" + option.help + "\n"), "\(option.key)")
            }
            for argument in command.arguments {
                #expect(page.contains(argument.help))
            }
            for example in command.examples {
                #expect(
                    page.contains("\n" + example.lines(width: ManualPage.exampleWidth).joined(separator: "\n") + "\n"))
                #expect(page.contains("\n" + example.description + "\n"))
            }
        }
        #expect(!page.contains("__"))
    }

    /// The rows of the table under `heading` in docs/cli.md, as cells.
    private static func contractTable(under heading: String) throws -> [[String]] {
        let page = try Fixtures.text("../docs/cli.md")
        let section = try #require(page.components(separatedBy: "\n## " + heading + "\n").dropFirst().first)
        return section.split(separator: "\n").drop { !$0.hasPrefix("|") }.prefix { $0.hasPrefix("|") }.dropFirst(2)
            .map { row in
                // Cells between the bars, but not `\|`, a bar inside a cell.
                row.replacingOccurrences(of: "\\|", with: "\u{0}").split(separator: "|").map {
                    $0.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "\u{0}", with: "\\|")
                }
            }
    }

    @Test func theContractsExitStatusesAreTheManualsInTheSameWords() throws {
        let rows = try Self.contractTable(under: "Exit status")
        #expect(rows == species.ExitStatus.allCases.map { [String($0.rawValue), $0.meaning] })
    }

    /// Each global option, with its variable and default as help shows them;
    /// the contract says more of what it does.
    @Test func theContractsOptionsAreTheModels() throws {
        let rows = try Self.contractTable(under: "Global options and environment").map { Array($0.prefix(3)) }
        let expected = GlobalSettings.options.map(\.definition).map { option in
            ["`\(option.label)`", option.environment.map { "`\($0)`" } ?? "", option.shownDefault ?? ""]
        }
        #expect(
            rows == expected, "\(expected.map { "| " + $0.joined(separator: " | ") + " |" }.joined(separator: "\n"))")
    }

    /// groff on the committed page, as man runs it.
    private func groffMan(_ options: [String]) async throws -> ProcessResult {
        try await ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/env"), ["groff", "-man", "-Tutf8"] + options + [Self.committed.path],
            environment: ChildProcess.environment())
    }

    @Test(.enabled(if: Capability.has("groff"), "groff is not installed"))
    func groffReadsItWithoutAWarning() async throws {
        let result = try await groffMan(["-ww", "-z"])
        #expect(result.status == 0)
        #expect(result.stderr == "")
    }

    @Test(.enabled(if: Capability.has("groff"), "groff is not installed"))
    func eightyColumnsHoldEveryLine() async throws {
        let result = try await groffMan(["-rLL=80n", "-P-cbou"])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count > 100)
        #expect(lines.filter { $0.count > 80 }.isEmpty, "\(result.stdout)")
    }
}
