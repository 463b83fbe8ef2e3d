import Foundation
import Testing
import TestSupport

/// `species` as a person sees it: under a pseudo-terminal made by `script`
/// (util-linux), where stdout and stderr are the terminal, and then piped,
/// where the same commands must print plain text with no escape sequences.
@Suite("species at a terminal", .enabled(if: Capability.has("script"), "needs script(1) from util-linux"))
struct TerminalEndToEndTests {
    /// Answers that come 1.5 s late, well after the 300 ms at which progress
    /// shows, even on a busy machine.
    let server = ServerSession()
    static let escape = "\u{1B}"

    private func root(slow: Bool = false) async throws -> String {
        try await server.root(delay: slow ? 1500 : nil)
    }

    private static func quoted(_ word: String) -> String {
        "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// What a terminal `columns` wide shows while `species arguments` runs
    /// (stdout and stderr together, line ends as `\n`), and its status.
    private func atTerminal(
        _ arguments: [String], columns: Int = 50, environment: [String: String] = [:]
    ) async throws -> (screen: String, status: Int32) {
        let line = arguments.map(Self.quoted).joined(separator: " ")
        let result = try await SpeciesRunner()(
            [], environment: ["TERM": "xterm-256color"].merging(environment) { $1 },
            through: { species in
                [
                    "script", "--quiet", "--return", "--command",
                    "stty cols \(columns) && exec \(Self.quoted(species)) \(line)", "/dev/null",
                ]
            })
        return (result.stdout.replacingOccurrences(of: "\r\n", with: "\n"), result.status)
    }

    /// The screen without a progress line, which a busy test runner can make
    /// appear even against the prompt server.
    private static func withoutProgress(_ screen: String) -> String {
        screen.replacingOccurrences(of: "[^\r\n]*…\r\u{1B}\\[2K", with: "", options: .regularExpression)
    }

    /// The screen's lines without escape sequences, as they take up columns.
    private static func visibleLines(_ screen: String) -> [String] {
        let plain = screen.replacingOccurrences(of: "\u{1B}\\[[0-9;]*[A-Za-z]", with: "", options: .regularExpression)
        return plain.split(separator: "\n").map(String.init)
    }

    @Test func aBoldHeaderAndATableThatFits() async throws {
        let (progressing, status) = try await atTerminal(["--base-url", try await root(), "list", "--page", "2"])
        let screen = Self.withoutProgress(progressing)
        #expect(status == 0, "\(screen)")
        #expect(screen.contains("\n\(Self.escape)[1mNAME\(Self.escape)[0m"))
        let lines = Self.visibleLines(screen)
        #expect(lines.count == 13)
        #expect(
            lines.first
                == "note: the table leaves out lifespan and language to fit in 50 columns; --fields chooses them")
        #expect(lines.dropFirst().dropLast().allSatisfy { $0.count <= 50 }, "\(lines)")
        #expect(lines.dropFirst().first == "NAME        CLASSIFICATION  DESIGNATION  HEIGHT")
        #expect(!lines.contains { $0.contains("…") })
        #expect(lines.last == "note: page 2 of 4, 37 species; use --page 3 or --all-pages")
    }

    @Test func columnsWinsOverTheTerminalsSize() async throws {
        let (screen, _) = try await atTerminal(
            ["--base-url", try await root(), "list", "-q"], environment: ["COLUMNS": "40"])
        #expect(Self.visibleLines(screen).allSatisfy { $0.count <= 40 })
        #expect(Self.visibleLines(screen).prefix(2) == ["NAME            CLASSIFICATION", "Human           mammal"])
    }

    @Test(arguments: [
        (["--color", "never"], [String: String]()), ([], ["NO_COLOR": "1"]), ([], ["TERM": "dumb"]),
    ])
    func noColourWhenAskedForNone(options: [String], environment: [String: String]) async throws {
        let (screen, status) = try await atTerminal(
            options + ["--base-url", try await root(), "list", "-q"], environment: environment)
        #expect(status == 0)
        #expect(!screen.contains(Self.escape))
        #expect(screen.hasPrefix("NAME  "))
        #expect(Self.visibleLines(screen).allSatisfy { $0.count <= 50 })
    }

    @Test func progressWhileASlowServerAnswersThenErased() async throws {
        let (screen, status) = try await atTerminal([
            "--no-cache", "--base-url", try await root(slow: true), "list", "--all-pages", "--fields", "name",
        ])
        #expect(status == 0, "\(screen)")
        // All four pages are asked at once; those that came while page 1
        // was awaited are not announced.
        #expect(screen.hasPrefix("fetching page 1 of 4 from 127.0.0.1:"))
        // The last progress line is erased before the table starts.
        #expect(screen.contains("…\r\(Self.escape)[2K\(Self.escape)[1mNAME\(Self.escape)[0m\nHuman\n"))
        #expect(Self.visibleLines(screen).filter { $0.contains("fetching") }.count == 1)
    }

    @Test func quietMeansNoProgressAndNoHint() async throws {
        let (screen, _) = try await atTerminal([
            "--no-cache", "--quiet", "--base-url", try await root(slow: true), "list", "--color=never",
        ])
        #expect(!screen.contains("fetching"))
        #expect(!screen.contains("page 1 of 4"))
        #expect(screen.hasPrefix("NAME"))
    }

    @Test func aUsageErrorPointsAtHelpOnlyAtATerminal() async throws {
        let (screen, status) = try await atTerminal(["lsit"])
        #expect(status == 64)
        let lines = [
            "error: unknown subcommand 'lsit'; did you mean 'list'?", "usage: species <subcommand> [<options>]",
        ]
        #expect(screen == (lines + ["note: see 'species --help'", ""]).joined(separator: "\n"))
        let piped = try await SpeciesRunner()(["lsit"])
        #expect(piped.status == 64 && piped.stderr == (lines + [""]).joined(separator: "\n"))
    }

    @Test func pipedTheSameCommandsPrintPlainTextAndNoProgress() async throws {
        let root = try await root(slow: true)
        let result = try await SpeciesRunner()(
            ["--no-cache", "--base-url", root, "list"], environment: ["TERM": "xterm-256color"])
        #expect(result.status == 0)
        #expect(result.stdout == (try Fixtures.text("golden/list/page-1.txt")))
        #expect(result.stderr == "")
    }

    @Test func colourAlwaysEvenInAPipe() async throws {
        let result = try await SpeciesRunner()([
            "--base-url", try await root(), "list", "--color", "always", "--fields", "name",
        ])
        #expect(result.stdout.hasPrefix("\(Self.escape)[1mNAME\(Self.escape)[0m\nHuman\n"))
    }

    @Test func relatedAtATerminal() async throws {
        let (progressing, status) = try await atTerminal(
            ["--base-url", try await root(), "show", "hutt", "--related"], columns: 80)
        let screen = Self.withoutProgress(progressing)
        #expect(status == 0)
        #expect(
            screen.hasSuffix(
                "\n\nHomeworld: Nal Hutta\nPeople: Jabba Desilijic Tiure\nFilms: A New Hope, Return of the Jedi\n"))
    }
}
