import Foundation
import Testing
import TestSupport

/// Every `console` block of README.md is real: each `$ command` runs as
/// the README shows it, with `species` on the PATH and the test server as
/// SWAPI (standing in for the README's at 127.0.0.1:8000), and prints what
/// the README shows (stdout and stderr together).
@Suite("README examples")
struct ReadmeTests {
    struct Example: Sendable, CustomTestStringConvertible {
        let command: String
        let output: String
        var testDescription: String { command }
    }

    /// The README's example server, which the test server stands in for.
    static let readmeRoot = "http://127.0.0.1:8000/api/"

    static let examples: [Example] = {
        guard let readme = try? Fixtures.text("../README.md") else { return [] }
        var examples: [Example] = []
        var inConsole = false
        for line in readme.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                inConsole = line == "```console"
            } else if inConsole, line.hasPrefix("$ ") {
                examples.append(Example(command: String(line.dropFirst(2)), output: ""))
            } else if inConsole, let last = examples.popLast() {
                examples.append(Example(command: last.command, output: last.output + line + "\n"))
            }
        }
        return examples
    }()

    static let hasJq = FileManager.default.isExecutableFile(atPath: "/usr/bin/jq")

    /// The examples that pipe into jq, and the others.
    static let jqRecipes = examples.filter { $0.command.contains("| jq") }
    static let plainExamples = examples.filter { !$0.command.contains("| jq") }

    @Test func theReadmeHasExamples() {
        #expect(Self.plainExamples.count >= 10 && Self.jqRecipes.count >= 4)
    }

    @Test(arguments: plainExamples)
    func example(_ example: Example) async throws {
        try await check(example)
    }

    @Test(.enabled(if: hasJq, "the jq recipes need jq"), arguments: jqRecipes)
    func jqRecipe(_ example: Example) async throws {
        try await check(example)
    }

    private func check(_ example: Example) async throws {
        let session = ServerSession()
        let root = try await session.root()
        let path =
            SpeciesBuild.debugFolder.path + ":"
            + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        // As a user types it: `species` by name, on the PATH.
        let command = example.command.replacingOccurrences(of: Self.readmeRoot, with: root)
        let result = try await SpeciesRunner(session)(
            [], environment: ["PATH": path], through: { _ in ["bash", "-c", command + " 2>&1"] })
        #expect(result.stdout == example.output.replacingOccurrences(of: Self.readmeRoot, with: root))
    }
}
