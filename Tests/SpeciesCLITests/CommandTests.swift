import Foundation
import SpeciesKit
import Testing
import TestSupport

@testable import species

@Suite("list and show, in process")
struct CommandTests {
    let output = CapturedOutput()
    let diagnostics = RecordingDiagnostics()

    private func context(_ transport: StubTransport) -> CommandContext {
        .stubbed(transport, output: output, diagnostics: diagnostics)
    }

    private func jsonArray(_ text: String) throws -> [[String: Any]] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
    }

    @Test func aPagePrintsItsTableAndAHintOnStderr() async throws {
        try await ListCommand().run(context(try StubTransport.recordedSWAPI()))
        #expect(output.text == (try Fixtures.text("golden/list/page-1.txt")))
        #expect(diagnostics.notes == ["page 1 of 4, 37 species; use --page 2 or --all-pages"])
    }

    @Test func theLastPageSaysWhereItStands() async throws {
        try await ListCommand(page: 4).run(context(try StubTransport.recordedSWAPI()))
        #expect(output.text == (try Fixtures.text("golden/list/page-4.txt")))
        #expect(diagnostics.notes == ["page 4 of 4, 37 species"])
    }

    @Test func aSearchThatFitsOnePageNeedsNoHint() async throws {
        try await ListCommand(search: "wook").run(context(try StubTransport.recordedSWAPI()))
        #expect(output.text.split(separator: "\n").count == 2)
        #expect(diagnostics.notes.isEmpty)
    }

    @Test func aSearchHintNamesTheSearch() async throws {
        try await ListCommand(search: "an").run(context(try StubTransport.recordedSWAPI()))
        #expect(diagnostics.notes == ["page 1 of 2, 17 species matching 'an'; use --page 2 or --all-pages"])
    }

    @Test func allPagesAsJSON() async throws {
        try await ListCommand(allPages: true, format: .json).run(context(try StubTransport.recordedSWAPI()))
        let species = try jsonArray(output.text)
        #expect(species.count == 37)
        #expect(species.map { $0["id"] as? Int } == Array(1...37))
        #expect(diagnostics.notes.isEmpty)
    }

    @Test func jsonPrintsNothingWhenALaterPageFails() async throws {
        let transport = try StubTransport.recordedSWAPI(overrides: [
            "https://swapi.dev/api/species/?page=3": .json(Data("{}".utf8), status: 503)
        ])
        for format in [OutputFormat.json, .table, .tsv] {
            let error = await speciesError {
                try await ListCommand(allPages: true, format: format).run(context(transport))
            }
            #expect(error.map { CommandError($0).status } == .unavailable)
        }
        #expect(output.text.isEmpty)
    }

    /// JSON lines are held until the listing is whole, as every format is.
    @Test func jsonlPrintsNothingWhenAPageFails() async throws {
        let transport = try StubTransport.recordedSWAPI(overrides: [
            "https://swapi.dev/api/species/?page=3": .json(Data("<html>".utf8))
        ])
        let error = await speciesError { try await ListCommand(allPages: true, format: .jsonl).run(context(transport)) }
        #expect(error.map { CommandError($0).status } == .badData)
        #expect(output.text.isEmpty)
    }

    @Test(arguments: OutputFormat.allCases)
    func aSearchWithNoResultsPrintsNothingAndIsExitOne(format: OutputFormat) async throws {
        let empty = StubTransport.Reply.json(Data(#"{"count":0,"next":null,"previous":null,"results":[]}"#.utf8))
        let transport = try StubTransport.recordedSWAPI(overrides: ["https://swapi.dev/api/species/?search=zzz": empty])
        for allPages in [false, true] {
            let error = await thrown {
                try await ListCommand(allPages: allPages, search: "zzz", format: format).run(context(transport))
            }
            let failure = try #require(error.map { CommandError($0) })
            #expect(failure.message == "no species matches 'zzz'" && failure.status == .nothingMatched)
        }
        #expect(output.text == (format == .json ? "[]\n[]\n" : ""), "JSON is an empty array, for jq")
    }

    @Test func aPageThatDoesNotExistIsExitOne() async throws {
        let error = await speciesError {
            try await ListCommand(page: 9).run(context(try StubTransport.recordedSWAPI()))
        }
        #expect(error.map { CommandError($0).status } == .nothingMatched)
        #expect(error?.description == "page 9 does not exist; there are 4 pages")
        #expect(output.text.isEmpty)
    }

    @Test func showPrintsTheDetailTextOrJSON() async throws {
        try await ShowCommand(query: .name("wook")).run(context(try StubTransport.recordedSWAPI()))
        #expect(output.text == (try Fixtures.text("golden/show/3.txt")))

        let json = CapturedOutput()
        try await ShowCommand(query: .id(3), format: .json).run(
            .stubbed(try StubTransport.recordedSWAPI(), output: json, diagnostics: diagnostics))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.text.utf8)) as? [String: Any])
        #expect(object["name"] as? String == "Wookie")
    }

    @Test func aFailedWriteIsExitSeventyFourWithOneErrorLine() async throws {
        let failing = CapturedOutput(failing: "No space left on device")
        let status = await species.ExitStatus.run({ failing.write("[]\n") }, output: failing, diagnostics: diagnostics)
        #expect(status == .ioError)
        #expect(diagnostics.errors == ["cannot write the output: No space left on device"])
    }

    @Test func progressSaysWhereItStandsThenEndsBeforeTheOutput() async throws {
        try await ListCommand(allPages: true).run(context(try StubTransport.recordedSWAPI()))
        let progress = diagnostics.progress
        // Every page is asked at once; one that arrived while an earlier one
        // was awaited is not announced.
        #expect(progress.first == "fetching page 1 of 4 from swapi.dev (15 s left)…")
        #expect(
            Set(progress.dropLast()).isSubset(
                of: (1...4).map { "fetching page \($0) of 4 from swapi.dev (15 s left)…" }))
        #expect(progress.last == "(ended)")
        let show = RecordingDiagnostics()
        try await ShowCommand(query: .id(3)).run(
            .stubbed(try StubTransport.recordedSWAPI(), output: output, diagnostics: show))
        #expect(show.progress.prefix(1) == ["looking up species 3…"])
        #expect(show.progress.last == "(ended)")
    }
}

@Suite("Exit statuses")
struct ExitStatusTests {
    /// Each failure is one `error:` line and its status, whoever's it is:
    /// SpeciesKit's, with the option behind it, or the command line's own.
    @Test func eachFailureSaysItsLineAndStatusOnce() async throws {
        let url = URL(string: "https://swapi.dev/api/species/")!
        let timedOut = StubTransport([url.absoluteString: .failure(.timedOut)])
        let error = try #require(
            await speciesError {
                _ = try await SpeciesClient.stubbed(timedOut).page()
            })
        let failures: [(any Error, String, species.ExitStatus)] = [
            (
                error, "https://swapi.dev/api/species/ timed out: stubbed timed out (--timeout)",
                .unavailable
            ),
            (
                CommandError("not engaged: Content-Length bound", .internalError),
                "not engaged: Content-Length bound", .internalError
            ),
            (CancellationError(), "internal error: CancellationError()", .internalError),
        ]
        for (failure, line, status) in failures {
            let diagnostics = RecordingDiagnostics()
            let returned = await species.ExitStatus.run(
                { throw failure }, output: CapturedOutput(), diagnostics: diagnostics)
            #expect(returned == status)
            #expect(diagnostics.errors == [line])
        }
    }
}

@Suite("Message lines")
struct MessageLineTests {
    @Test func aMessageLineIsCutAt1000CharactersInItsMiddle() {
        let line = StandardError.line(
            "unknown option '--" + String(repeating: "a", count: 100_000) + "'; did you mean x?")
        #expect(line.count == 1000 && line.contains("a…a") && line.hasPrefix("unknown option '--aaa"))
        #expect(line.hasSuffix("aaa'; did you mean x?"))
        #expect(StandardError.line("short \u{7}") == #"short \u{7}"#)
    }
}
