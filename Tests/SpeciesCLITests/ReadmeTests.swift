import Foundation
import Testing
import TestSupport

/// Every `console` block of the README and of the user's pages in docs/ is
/// real: each `$ command` runs as the page shows it, with `species` on the
/// PATH and the test server standing in for the pages' SWAPI server at
/// `http://127.0.0.1:8000/` (a `fault=F/` segment of it too), and shows
/// at a terminal what the page shows (stdout and stderr together).
@Suite(
    "Examples of the README and the guides", .enabled(if: Capability.has("script"), "needs script(1) from util-linux"))
struct ReadmeTests {
    struct Example: Sendable, CustomTestStringConvertible {
        let page: String
        let command: String
        let output: String
        var testDescription: String { "\(page): \(command)" }
    }

    /// The pages' example server, which a test server of this suite's own
    /// stands in for: another test's huge page on the shared one would hold
    /// up a first service past the 3 s it has to begin its answer.
    static let pagesServer = "127.0.0.1:8000/"
    static let server = Task { try await FixtureServer.start() }

    static let pages = ["README.md", "docs/guide.md", "docs/troubleshooting.md", "docs/contributing.md"]

    static let examples: [Example] = pages.flatMap { page -> [Example] in
        guard let text = try? Fixtures.text("../" + page) else { return [] }
        var examples: [Example] = []
        var inConsole = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                inConsole = line == "```console"
            } else if inConsole, line.hasPrefix("$ ") {
                examples.append(Example(page: page, command: String(line.dropFirst(2)), output: ""))
            } else if inConsole, let last = examples.popLast() {
                examples.append(Example(page: page, command: last.command, output: last.output + line + "\n"))
            }
        }
        return examples
    }

    /// The examples that pipe into jq, and the others.
    static let jqRecipes = examples.filter { $0.command.contains("| jq") }
    static let plainExamples = examples.filter { !$0.command.contains("| jq") }

    @Test func everyPageHasExamples() {
        for page in Self.pages where page != "docs/contributing.md" {
            #expect(Self.examples.contains { $0.page == page }, "\(page)")
        }
        #expect(Self.plainExamples.count >= 20 && Self.jqRecipes.count >= 4)
    }

    @Test(arguments: plainExamples)
    func example(_ example: Example) async throws {
        try await check(example)
    }

    @Test(.enabled(if: Capability.has("jq"), "the jq recipes need jq"), arguments: jqRecipes)
    func jqRecipe(_ example: Example) async throws {
        try await check(example)
    }

    private func check(_ example: Example) async throws {
        let session = ServerSession(on: Self.server)
        // `127.0.0.1:PORT/<session>/`, before `api/` or a fault's segment.
        let server = try await session.root().replacingOccurrences(of: "http://", with: "").dropLast(4)
        let path =
            SpeciesBuild.debugFolder.path + ":"
            + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        // As a user types it: `species` by name, on the PATH.
        let command = example.command.replacingOccurrences(of: Self.pagesServer, with: String(server))
        // Offline, as on a fresh machine, SWAPI's public services are asked,
        // for which the data built in stands in.
        let offline = command.contains("--offline") ? ["SWAPI_BASE_URL": ""] : [:]
        // At a terminal 80 columns wide (script(1)'s pseudo-terminal), whose
        // TERM asks for no colour and no progress line, so what it shows is
        // the same on a busy machine.
        let result = try await SpeciesRunner(session)(
            [],
            environment: ["PATH": path, "TERM": "dumb", "COLUMNS": "80", "SHELL": "/bin/bash"].merging(offline) { $1 },
            through: { _ in ["script", "--quiet", "--return", "--command", "{ \(command); } 2>&1", "/dev/null"] })
        // Its text, without jq's colours.
        let screen = result.stdout.replacingOccurrences(of: "\r\n", with: "\n")
            .replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
        #expect(screen == example.output.replacingOccurrences(of: Self.pagesServer, with: String(server)))
    }
}
