import Foundation
import Testing
import TestSupport

/// CSV, Markdown, chosen JSON keys, --limit and coloured JSON, as the
/// built `species` prints them against the test server, read back by the
/// tools they are made for: Python's csv module, jq.
@Suite("Output formats and --limit, end to end")
struct FormatsEndToEndTests {
    let server = ServerSession()

    private var species: SpeciesRunner { SpeciesRunner(server, options: ["--no-cache"]) }

    /// The installed species, without the cache.
    private func installed(_ arguments: [String], environment: [String: String] = [:]) async throws -> ProcessResult {
        try await SpeciesRunner(build: .installed)(["--no-cache"] + arguments, environment: environment)
    }

    private func command(_ arguments: [String], stdin: String? = nil) async throws -> ProcessResult {
        try await ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/env"), arguments, environment: ChildProcess.environment(), stdin: stdin)
    }

    /// `text` in a file of its own, for a tool's stdin.
    private func file(_ text: String) throws -> String {
        let url = Fixtures.temporaryFolder("formats")
        try Data(text.utf8).write(to: url)
        return url.path
    }

    private func jsonObjects(_ text: String) throws -> [[String: Any]] {
        try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
    }

    @Test func csvReadsBackWithPythonsCSVModule() async throws {
        let result = try await species([
            "list", "--all-pages", "--format", "csv", "--fields", "id,name,eye_colors,height,homeworld",
        ])
        #expect(result.status == 0, "\(result)")
        let reader = "import csv, json, sys; print(json.dumps(list(csv.reader(open(sys.argv[1], newline='')))))"
        let parsed = try await command(["python3", "-c", reader, try file(result.stdout)])
        let rows = try #require(
            JSONSerialization.jsonObject(with: Data(parsed.stdout.utf8)) as? [[String]], "\(parsed)")
        #expect(rows.count == 38)
        #expect(rows.first == ["id", "name", "eye_colors", "height", "homeworld"])
        #expect(
            rows.dropFirst().first == [
                "1", "Human", "brown, blue, green, hazel, grey, amber", "180", "\(try await server.root())planets/9/",
            ])
        #expect(rows.dropFirst(2).first == ["2", "Droid", "n/a", "", ""], "absent values are empty")
        #expect(rows.allSatisfy { $0.count == 5 })
        #expect(
            result.stdout.hasSuffix("\r\n") && !result.stdout.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
    }

    @Test func markdownIsOneTableWithAnAlignedNumberColumn() async throws {
        let result = try await species(["list", "--all-pages", "--format", "markdown", "--fields", "name,height"])
        #expect(result.status == 0, "\(result)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 39, "a header, a separator and 37 rows")
        #expect(
            lines.prefix(3) == [
                "| name           | height |", "| -------------- | -----: |", "| Human          |    180 |",
            ])
        #expect(lines.allSatisfy { $0.count == lines[0].count })
    }

    @Test func markdownAndCSVFollowSortSearchAndLimit() async throws {
        let markdown = try await species([
            "list", "--search", "an", "--sort", "height", "--reverse", "--limit", "2", "--format", "markdown",
            "--fields", "name,height",
        ])
        #expect(
            markdown.stdout
                == "| name     | height |\n| -------- | -----: |\n| Quermian |    240 |\n| Kaminoan |    220 |\n",
            "\(markdown)")
        let csv = try await species([
            "list", "--search", "an", "--sort", "height", "--reverse", "--limit", "2", "--format", "csv", "--fields",
            "name",
        ])
        #expect(csv.stdout == "name\r\nQuermian\r\nKaminoan\r\n", "\(csv)")
    }

    @Test(arguments: ["--json", "--jsonl"])
    func jsonFieldsKeepOnlyThoseKeysInOrder(format: String) async throws {
        let result = try await species(["list", "--all-pages", format, "--fields", "name,height"])
        #expect(result.status == 0, "\(result)")
        let objects =
            format == "--json"
            ? try jsonObjects(result.stdout)
            : try result.stdout.split(separator: "\n").map { line in
                try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            }
        #expect(objects.count == 37)
        #expect(objects.allSatisfy { Set($0.keys) == ["name", "average_height"] })
        #expect(objects.first?["average_height"] as? Int == 180)
        #expect(
            result.stdout.contains(
                format == "--json"
                    ? "\"name\": \"Human\",\n    \"average_height\": 180\n" : #"{"name":"Human","average_height":180}"#)
        )
    }

    @Test func limitFetchesOnlyThePagesItFills() async throws {
        for arguments in [["list", "--limit", "15"], ["list", "--all-pages", "--limit", "15"]] {
            let session = ServerSession()
            let result = try await SpeciesRunner()(
                ["--no-cache", "--base-url", try await session.root()] + arguments + ["--jsonl", "--fields", "id"])
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout == (1...15).map { #"{"id":\#($0)}"# + "\n" }.joined(), "\(result)")
            #expect(
                try await session.requests().sorted() == [
                    "/\(session.name)/api/species/", "/\(session.name)/api/species/?page=2",
                ])
        }
    }

    @Test func limitAfterASortReadsEveryPage() async throws {
        let result = try await species([
            "list", "--sort", "height", "--reverse", "--limit", "3", "--fields", "name,height",
        ])
        #expect(
            result.stdout == "NAME      HEIGHT\nHutt         300\nQuermian     240\nKaminoan     220\n", "\(result)")
        #expect(try await server.requests().count == 4)
    }

    @Test func aLimitBeyondTheListPrintsEveryone() async throws {
        let result = try await species(["list", "--limit", "100", "--json"])
        #expect(try jsonObjects(result.stdout).count == 37)
    }

    /// Each token with the colour it is shown in, ignoring where whitespace
    /// and redundant escapes fall: jq 1.6 leaves some colours open across
    /// an array's commas, and species closes each.
    private static func colouredTokens(_ text: String) -> [String] {
        var tokens: [String] = []
        var colour = ""
        let scanner = text.replacingOccurrences(of: "\n", with: "")
        var rest = Substring(scanner)
        while !rest.isEmpty {
            if rest.hasPrefix("\u{1B}[") {
                let end = rest.firstIndex(of: "m") ?? rest.endIndex
                colour = String(rest[rest.index(rest.startIndex, offsetBy: 2)..<end])
                rest = rest[rest.index(after: end)...]
                continue
            }
            let end = rest.firstIndex(of: "\u{1B}") ?? rest.endIndex
            let token = rest[..<end].trimmingCharacters(in: .whitespaces)
            if !token.isEmpty { tokens.append(colour + " " + token) }
            rest = rest[end...]
        }
        return tokens
    }

    @Test(.enabled(if: Capability.has("jq"), "needs jq"))
    func colouredJSONUsesJqsColours() async throws {
        let plain = try await species(["show", "3", "--json"])
        let colored = try await species(["show", "3", "--json", "--color", "always"])
        let jq = try await command(["jq", "-C", "."], stdin: try file(plain.stdout))
        #expect(colored.stdout.contains("\u{1B}[34;1m\"name\"\u{1B}[0m"))
        #expect(Self.colouredTokens(colored.stdout) == Self.colouredTokens(jq.stdout))

        let lines = try await species(["list", "--jsonl", "--color", "always"])
        let plainLines = try await species(["list", "--jsonl"])
        let jqLines = try await command(["jq", "-cC", "."], stdin: try file(plainLines.stdout))
        #expect(
            lines.stdout.split(separator: "\n").map { Self.colouredTokens(String($0)) }
                == jqLines.stdout.split(separator: "\n").map { Self.colouredTokens(String($0)) })

        let array = try await species(["list", "--json", "--color", "always"])
        let jqArray = try await command(
            ["jq", "-C", "."], stdin: try file(try await species(["list", "--json"]).stdout))
        #expect(Self.colouredTokens(array.stdout) == Self.colouredTokens(jqArray.stdout))
    }

    @Test(arguments: [
        ([String](), [String: String]()), (["--color", "auto"], ["TERM": "xterm-256color"]),
        (["--color", "never"], [:]),
    ])
    func aPipeGetsNoColour(options: [String], environment: [String: String]) async throws {
        let result = try await species(options + ["show", "3", "--json"], environment: environment)
        #expect(!result.stdout.contains("\u{1B}"))
        #expect(result.stdout.hasPrefix("{\n  \"id\": 3,"))
    }

    @Test(
        .enabled(if: Capability.has("script"), "needs script(1) from util-linux"),
        arguments: [[String: String](), ["NO_COLOR": "1"]])
    func aTerminalGetsColourUnlessNoColor(environment: [String: String]) async throws {
        // -q: no progress line before the JSON on a slow machine.
        let result = try await SpeciesRunner(server)(
            [], environment: ["TERM": "xterm-256color"].merging(environment) { $1 },
            through: {
                ["script", "--quiet", "--return", "--command", "exec \($0) -q --no-cache show 3 --json", "/dev/null"]
            })
        #expect(result.status == 0, "\(result)")
        if environment["NO_COLOR"] == nil {
            #expect(result.stdout.hasPrefix("\u{1B}[1;39m{\u{1B}[0m\r\n  \u{1B}[34;1m\"id\"\u{1B}[0m"), "\(result)")
        } else {
            #expect(result.stdout.hasPrefix("{\r\n  \"id\": 3,"), "\(result)")
        }
    }

    @Test(arguments: ["table", "tsv", "json", "jsonl"])
    func aSearchWithoutResultsPrintsNothingAndExits1(format: String) async throws {
        for pages in [[], ["--all-pages"]] {
            let result = try await species(nil, ["list", "--search", "zzzz", "--format", format] + pages)
            #expect(result.status == 1)
            #expect(result.stdout == (format == "json" ? "[]\n" : ""), "JSON is an empty array, for jq")
            #expect(result.stderr == "error: no species matches 'zzzz'\n")
        }
    }

    @Test func atFiftyColumnsNamesAreWholeAndWhatDoesNotFitIsLeftOut() async throws {
        let result = try await installed(
            ["--base-url", try await server.root(), "list"], environment: ["COLUMNS": "50"])
        #expect(result.status == 0, "\(result)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "NAME            CLASSIFICATION  DESIGNATION")
        #expect(
            lines.contains("Human           mammal          sentient")
                && lines.contains("Yoda's species  mammal          sentient"))
        #expect(lines.allSatisfy { $0.count <= 50 && !$0.contains("…") })
        #expect(result.stderr == "")
    }

    /// Issue 44: a column that --fields names is never left out; its cells
    /// are cut, in a pipe as at a terminal, and no hint is needed.
    @Test func columnsNamedByFieldsStayTheirCellsCut() async throws {
        let result = try await installed(
            ["--base-url", try await server.root(), "list", "-n", "2", "--fields", "name,eye_colors,language"],
            environment: ["COLUMNS": "40"])
        #expect(result.status == 0 && result.stderr == "", "\(result)")
        #expect(
            result.stdout == """
                NAME   EYE COLORS         LANGUAGE
                Human  brown, blue, gre…  Galactic Basic
                Droid  n/a                n/a

                """)
    }

    @Test func csvNeutralisesFormulasAndKeepsNumbers() async throws {
        let root = try await server.root(fault: "spreadsheet-names")
        let csv = try await installed(["--base-url", root, "list", "--format", "csv", "--fields", "name"])
        #expect(csv.status == 0)
        #expect(
            csv.stdout.split(separator: "\r\n").prefix(7) == [
                "name", #""'=HYPERLINK(""http://evil.example/"",""x"")""#, "'+1+1", "'@SUM(A1)", "-5", #"'\u{9}Tabbed"#,
                "<script>alert(1)</script> & <img src=x onerror=alert(1)>",
            ])
        // TSV and JSON stay exact.
        let tsv = try await installed(["--base-url", root, "list", "--format", "tsv", "--fields", "name"])
        #expect(
            tsv.stdout.split(separator: "\n").dropFirst().prefix(4) == [
                #"=HYPERLINK("http://evil.example/","x")"#, "+1+1", "@SUM(A1)", "-5",
            ])
        let json = try await installed(["--base-url", root, "list", "--json", "--fields", "name"])
        let names = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: String]])
            .compactMap { $0["name"] }
        #expect(
            names.prefix(6) == [
                #"=HYPERLINK("http://evil.example/","x")"#, "+1+1", "@SUM(A1)", "-5", "\tTabbed",
                "<script>alert(1)</script> & <img src=x onerror=alert(1)>",
            ])
    }

    @Test func markdownEscapesHTML() async throws {
        let root = try await server.root(fault: "spreadsheet-names")
        let result = try await installed(["--base-url", root, "list", "--format", "markdown", "--fields", "name"])
        #expect(result.status == 0)
        #expect(
            result.stdout.contains(
                "| &lt;script&gt;alert(1)&lt;/script&gt; &amp; &lt;img src=x onerror=alert(1)&gt; |"),
            "\(result.stdout)")
        #expect(!result.stdout.contains("<script>") && !result.stdout.contains("<img"))
    }

    @Test func farDatesKeepTheirMicroseconds() async throws {
        let result = try await installed([
            "--base-url", try await server.root(fault: "far-dates"), "show", "1", "--json",
        ])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["edited"] as? String == "9999-12-31T23:59:59.999999Z")
        #expect(object["created"] as? String == "1500-06-01T00:00:00.000000Z")
    }
}
