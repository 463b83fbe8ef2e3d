import Foundation
import Testing
import TestSupport

@testable import species

/// `Sources/species/species.1` is what `species __manpage` prints, and says
/// what `--help` says.
@Suite("Manual page")
struct ManualPageTests {
    static let committed = Fixtures.packageRoot.appendingPathComponent("Sources/species/species.1")

    /// The page's text with the roff escapes it uses undone.
    static func plain(_ roff: String) -> String {
        roff.replacingOccurrences(of: "\\-", with: "-").replacingOccurrences(of: "\\fB", with: "")
            .replacingOccurrences(of: "\\fI", with: "").replacingOccurrences(of: "\\fR", with: "")
            .replacingOccurrences(of: "\\[u2026]", with: "…").replacingOccurrences(of: "\\e", with: "\\")
    }

    @Test func theCommittedPageIsUpToDate() throws {
        let page = String(decoding: try Data(contentsOf: Self.committed), as: UTF8.self)
        #expect(page == ManualPage.render(), "Sources/species/species.1 is out of date: run make man")
    }

    @Test func itSaysWhatHelpSays() {
        let page = Self.plain(ManualPage.render())
        for command in Commands.visibleSubcommands + [Commands.root] {
            #expect(page.contains(command.path + (command.usage.isEmpty ? "" : " " + command.usage)), "\(command.path)")
            // The root's abstract is the NAME line, "species - browse ...".
            #expect(page.contains(command == Commands.root ? "species - browse the species of" : command.abstract))
            for option in command.options + command.globalOptions {
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

    @Test func everyExitStatusOfTroubleshooting() throws {
        let page = try Fixtures.text("../docs/troubleshooting.md")
        let statuses = page.split(separator: "\n").compactMap { line -> Int? in
            guard line.hasPrefix("| ") else { return nil }
            return Int(line.dropFirst(2).prefix { $0 != " " })
        }
        #expect(statuses == species.ExitStatus.allCases.map { Int($0.rawValue) })
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
