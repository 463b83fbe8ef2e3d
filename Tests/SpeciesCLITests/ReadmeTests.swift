import Foundation
import Testing
import TestSupport

/// Every `console` block of README.md is real: each `$ command` runs, with
/// `species` on the PATH and the test server as SWAPI, and prints what the
/// README shows (stdout and stderr together).
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

    @Test func theReadmeHasExamples() {
        #expect(Self.examples.count >= 10)
    }

    @Test(.enabled(if: hasJq, "the jq recipes need jq"), arguments: examples)
    func example(_ example: Example) async throws {
        let server = try await FixtureServer.shared.value
        let root = server.root(session: FixtureServer.newSession())
        let path = SpeciesBinary.url.deletingLastPathComponent().path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let result = try await ChildProcess.run(
            URL(fileURLWithPath: "/bin/bash"), ["-c", example.command + " 2>&1"],
            environment: SpeciesBinary.environment(["PATH": path, "SWAPI_BASE_URL": root]))
        #expect(result.stdout == example.output.replacingOccurrences(of: Self.readmeRoot, with: root))
    }
}
