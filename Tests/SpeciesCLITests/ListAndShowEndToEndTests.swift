import Foundation
import SpeciesKit
import Testing
import TestSupport

@testable import species

/// The built `species` binary against `Tests/Tools/swapi_server.py`, which
/// serves the recorded SWAPI responses on 127.0.0.1.
@Suite("list and show, end to end")
struct ListAndShowEndToEndTests {
    let server = ServerSession()

    /// Runs `species --base-url <this test's session> arguments...`.
    private var species: SpeciesRunner { SpeciesRunner(server) }

    /// The recorded species `id`, for its name.
    private static func recordedName(_ id: Int) throws -> String {
        let object = try JSONSerialization.jsonObject(with: Fixtures.data("swapi/species-\(id).json")) as? [String: Any]
        return try #require(object?["name"] as? String)
    }

    @Test func listPrintsTheFirstPageAndAHint() async throws {
        let result = try await species(["list"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == (try Fixtures.text("golden/list/page-1.txt")))
        #expect(result.stderr == "")
    }

    /// species names itself to the services, where the library would
    /// name the library.
    @Test func itsUserAgentIsItsOwn() async throws {
        #expect(try await species(["--no-cache", "show", "3"]).status == 0)
        #expect(try await server.requests(agents: true) == ["species/\(SpeciesRelease.version)"])
    }

    @Test func listPageFour() async throws {
        let result = try await species(["list", "--page", "4"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == (try Fixtures.text("golden/list/page-4.txt")))
        #expect(result.stderr == "")
    }

    @Test func listAllPagesFollowsNextToTheEndInAPIOrder() async throws {
        let result = try await species(["list", "--all-pages"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr == "")
        #expect(result.stdout == (try Fixtures.text("golden/list/all-pages.txt")))
        let names = result.stdout.split(separator: "\n").dropFirst().map {
            String($0.prefix(14)).trimmingCharacters(in: .whitespaces)
        }
        #expect(names == (try (1...37).map(Self.recordedName)))
        let log = try await server.requests()
        #expect(
            Set(log)
                == Set(["/\(server.name)/api/species/"] + (2...4).map { "/\(server.name)/api/species/?page=\($0)" }))
        #expect(log.count == 4)
    }

    /// The server's `gate=4` answers requests only four at a time: a run
    /// that asked for page 1 alone first would get 504 (`GATE_SECONDS`).
    @Test(arguments: ["drf", "tech"])
    func allPagesComeInOneRoundTripColdAndStale(dialect: String) async throws {
        let root = try await server.root(gate: 4, dialect: dialect)
        let environment = ["XDG_CACHE_HOME": Fixtures.temporaryFolder("cache").path]
        let expected = try Fixtures.text("golden/list/all-pages.txt")
        // A tech service at an address species has not heard from is first
        // asked in swapi.dev's dialect: one round trip more, once.
        if dialect == "tech" {
            let first = try await SpeciesRunner()(
                ["--base-url", root, "--retries", "0", "list", "--all-pages"], environment: environment)
            #expect(first.status == 0 && first.stdout == expected, "\(first)")
        }
        for maxAge in ["86400", "0"] {
            let result = try await SpeciesRunner()(
                ["--base-url", root, "--retries", "0", "--no-fallback", "--max-age", maxAge, "list", "--all-pages"],
                environment: environment)
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout == expected)
        }
        let log = try await server.requests(gate: 4, dialect: dialect)
        // drf: cold, then stale. tech: 4 pages in each dialect, then none
        // (a fresh cache), then stale.
        #expect(log.count == (dialect == "drf" ? 8 : 12), "4 pages a round trip: \(log)")
    }

    @Test(arguments: [
        ["--all-pages"], ["--all-pages", "--json"], ["--all-pages", "--jsonl"],
        ["--search", "an", "--all-pages", "--json"],
    ])
    func serialAndConcurrentPagesPrintTheSame(arguments: [String]) async throws {
        let concurrent = try await species(["list"] + arguments)
        let serialServer = ServerSession()
        let serial = try await SpeciesRunner()(
            ["--base-url", try await serialServer.root(), "list", "--serial"] + arguments)
        #expect(concurrent.status == 0 && serial.status == 0)
        #expect(concurrent.stdout.replacingOccurrences(of: server.name, with: serialServer.name) == serial.stdout)
        #expect(concurrent.stderr == serial.stderr)
        let log = try await serialServer.requests()
        #expect(
            log == log.sorted { $0.count < $1.count || ($0.count == $1.count && $0 < $1) }, "one page after another")
    }

    @Test func listSearchAllPages() async throws {
        let result = try await species(["list", "--search", "an", "--all-pages"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr == "")
        #expect(result.stdout == (try Fixtures.text("golden/list/search-an-all-pages.txt")))
        #expect(result.stdout.split(separator: "\n").count == 18)
    }

    @Test(arguments: 1...37)
    func showEverySpeciesByName(id: Int) async throws {
        let result = try await species(["show", try Self.recordedName(id)])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == (try Fixtures.text("golden/show/\(id).txt")))
        #expect(result.stderr == "")
    }

    @Test(
        "show by a partial, lower-case or multi-word name, an id, or a URL",
        arguments: [
            (["Yoda's species"], 6), (["kel dor"], 26), (["kel", "dor"], 26), (["WOOKIE"], 3), (["calamari"], 8),
            (["3"], 3), (["37"], 37),
        ])
    func showFinds(words: [String], id: Int) async throws {
        let result = try await species(["show"] + words)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == (try Fixtures.text("golden/show/\(id).txt")))
    }

    @Test func showByURL() async throws {
        let root = try await server.root()
        let result = try await SpeciesRunner()(["--base-url", root, "show", root + "species/3/"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == (try Fixtures.text("golden/show/3.txt")))
    }

    @Test func anExactNameTakesOneRequest() async throws {
        _ = try await species(["show", "Wookie"])
        #expect(try await server.requests() == ["/\(server.name)/api/species/?search=Wookie"])
    }

    @Test func showWookieeSuggestsWookie() async throws {
        let result = try await species(["show", "wookiee"])
        #expect(result.status == 1)
        #expect(result.stdout == "")
        #expect(result.stderr == "error: no species is named 'wookiee'; did you mean 'Wookie'?\n")
    }

    @Test func anAmbiguousNameListsTheCandidates() async throws {
        let result = try await species(["show", "an"])
        #expect(result.status == 1)
        #expect(result.stdout == "")
        #expect(result.stderr.hasPrefix("error: 'an' matches 17 species: Human, Rodian, Trandoshan,"))
        #expect(result.stderr.hasSuffix(", Skakoan, Pau'an; give one full name\n"))
    }

    @Test func anUnknownIdIsExitOne() async throws {
        let result = try await species(["show", "99"])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("error: species 99 does not exist ("))
    }

    @Test func listAllPagesAsJSONParsesBack() async throws {
        let result = try await species(["list", "--all-pages", "--json"])
        #expect(result.status == 0, "\(result)")
        let species = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        #expect(species.count == 37)
        #expect(species.map { $0["id"] as? Int } == Array(1...37))
        let droid = species[1]
        #expect(droid["name"] as? String == "Droid")
        #expect(droid["homeworld"] is NSNull)
        #expect(droid["average_height"] is NSNull)
        #expect(droid["eye_colors"] as? [String] == ["n/a"])
        #expect(species[2]["average_height"] as? Int == 210)
        #expect(species[2]["created"] as? String == "2014-12-10T16:44:31.486000Z")
    }

    @Test func showAsJSONParsesBack() async throws {
        let result = try await species(["show", "wookie", "--json"])
        #expect(result.status == 0, "\(result)")
        let wookie = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(wookie["id"] as? Int == 3)
        #expect(wookie["hair_colors"] as? [String] == ["black", "brown"])
        let root = try await server.root()
        #expect(wookie["url"] as? String == root + "species/3/")
    }

    @Test func jsonlPrintsOneObjectALine() async throws {
        let result = try await species(["list", "--all-pages", "--jsonl"])
        #expect(result.status == 0, "\(result)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 37)
        for line in lines {
            #expect((try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]) != nil)
        }
    }

    @Test func datesDoNotDependOnTheTimeZoneOrLocale() async throws {
        let utc = try await species(["show", "3", "--json"], environment: ["TZ": "UTC"])
        let tokyo = try await species(
            ["show", "3", "--json"], environment: ["TZ": "Asia/Tokyo", "LANG": "ja_JP.UTF-8"])
        #expect(utc.status == 0 && tokyo.status == 0)
        #expect(tokyo.stdout == utc.stdout)
        #expect(tokyo.stdout.contains(#""created": "2014-12-10T16:44:31.486000Z""#))
    }

    @Test func theEnvironmentSetsTheBaseURLWithoutATrailingSlash() async throws {
        var root = try await server.root()
        root.removeLast()
        let result = try await SpeciesRunner()(["list", "--page", "4"], environment: ["SWAPI_BASE_URL": root])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == (try Fixtures.text("golden/list/page-4.txt")))
    }

    @Test func aBadOptionIsAUsageError() async throws {
        let result = try await SpeciesRunner()(["list", "--foo"])
        #expect(result.status == 64)
        #expect(result.stdout == "")
        #expect(
            result.stderr == """
                error: unknown option '--foo'
                usage: species list [--page <n> | --all-pages] [--search <text>] [--format <format> | --json | --jsonl] \
                [--sort <key>] [--reverse] [--fields <a,b,...>] [--limit <n>]

                """)
    }

    @Test func aMistypedCommandSuggestsTheClosest() async throws {
        let result = try await SpeciesRunner()(["lsit"])
        #expect(result.status == 64)
        #expect(result.stdout == "")
        #expect(
            result.stderr == """
                error: unknown subcommand 'lsit'; did you mean 'list'?
                usage: species <subcommand> [<options>]

                """)
    }

    @Test func aServerThatIsNotThereIsExit69() async throws {
        let root = "http://127.0.0.1:\(SelfCheckCommand.closedPort() ?? 9)/api/"
        let result = try await SpeciesRunner()(["--base-url", root, "list"])
        #expect(result.status == 69)
        #expect(result.stdout == "")
        #expect(
            result.stderr
                == "error: could not reach \(root)species/: connection refused; the cache holds no answer from "
                + "\(root.dropFirst("http://".count).prefix { $0 != "/" })\n"
        )
    }

    @Test func helpAndVersionNeedNoServer() async throws {
        let help = try await SpeciesRunner()(["help", "list"])
        let flag = try await SpeciesRunner()(["list", "--help"])
        #expect(help.status == 0 && flag.status == 0)
        #expect(help.stdout == flag.stdout)
        #expect(help.stdout.hasPrefix("OVERVIEW: Print one page of species"))
        let version = try await SpeciesRunner()(["--version"])
        #expect(version.stdout.hasPrefix("species \(SpeciesRelease.version)"))
        let bare = try await SpeciesRunner()([])
        #expect(bare.status == 0 && bare.stderr == "")
        #expect(bare.stdout == (try await SpeciesRunner()(["--help"])).stdout)
    }
}
