import Foundation
import Testing
import TestSupport

@testable import species

/// Issue 44: every usage error of the contract's table (docs/cli.md, exit
/// status 64), whatever check finds it, the parser's or SpeciesKit's, is
/// one `error:` line and the usage line of the command model, through the
/// built executable, with nothing asked and nothing on stdout. A bad
/// environment variable's error stands alone, as the contract says: the
/// command line was not wrong.
@Suite("Usage errors, end to end")
struct UsageErrorTests {
    /// The usage line the model gives `command`.
    static func usage(_ command: CommandDefinition) -> String {
        "usage: " + ([command.path] + command.usage).joined(separator: " ")
    }

    static let long = String(repeating: "a", count: 101)

    @Test(
        arguments: [
            // unknown command or option
            (["lsit"], "unknown subcommand 'lsit'; did you mean 'list'?", Commands.root),
            (["list", "--pgae", "2"], "unknown option '--pgae'; did you mean '--page'?", Commands.list),
            // missing or malformed argument
            (["show"], "missing argument '<name | id | url>'", Commands.show),
            (
                ["list", "--page", "two"], "invalid value 'two' for '--page <n>': expected a whole number from 1 up",
                Commands.list
            ),
            // a value of an option that is not of its kind
            (
                ["list", "--timeout", "soon"],
                "invalid value 'soon' for '--timeout <seconds>': expected a decimal number of seconds from 0.001 to 86400",
                Commands.list
            ),
            // a URL that is no species URL of a service of the list
            (
                ["show", "https://swapi.dev/api/planets/1/"],
                "'https://swapi.dev/api/planets/1/' is not a species URL of this API (expected https://swapi.dev/api/species/<id>/)",
                Commands.show
            ),
            // a number that is no id: one sentence, however it is written
            (["show", "0"], "'0' is no species id: an id is a whole number from 1", Commands.show),
            (["show", "--", "-1"], "'-1' is no species id: an id is a whole number from 1", Commands.show),
            (["show", "1.5"], "'1.5' is no species id: an id is a whole number from 1", Commands.show),
            (["show", "+2"], "'+2' is no species id: an id is a whole number from 1", Commands.show),
            // a name or search with no word, for show and --search alike
            (["show", ","], "',' holds no word, so it names no species", Commands.show),
            (["list", "--search", ","], "',' holds no word, so it names no species", Commands.list),
            (["-q", "list", "--search", " "], "' ' holds no word, so it names no species", Commands.list),
            // a name or search of more than 100 characters
            (["show", long], "a name or search is at most 100 characters, not 101", Commands.show),
            (["-q", "list", "--search", long], "a name or search is at most 100 characters, not 101", Commands.list),
        ] as [([String], String, CommandDefinition)])
    func aUsageErrorIsItsLineAndItsUsage(arguments: [String], error: String, command: CommandDefinition)
        async throws
    {
        // A service that refuses every connection: any request would show.
        let result = try await SpeciesRunner(environment: ["SWAPI_BASE_URL": "https://swapi.dev/api/"])(
            ["--timeout", "1"] + arguments, environment: ["XDG_CACHE_HOME": "/nonexistent"])
        #expect(result.status == 64 && result.stdout == "", "\(arguments): \(result)")
        #expect(result.stderr == "error: \(error)\n\(Self.usage(command))\n", "\(arguments)")
    }

    /// A variable's error stands alone; so does a certificate variable's.
    @Test(arguments: [
        (
            ["SWAPI_TIMEOUT": "soon"],
            "invalid value 'soon' for SWAPI_TIMEOUT: expected a decimal number of seconds from 0.001 to 86400"
        ),
        (
            ["SSL_CERT_FILE": "/dev/null", "CURL_CA_BUNDLE": "", "SSL_CERT_DIR": ""],
            "SSL_CERT_FILE names /dev/null, a device, not a file of certificates"
        ),
    ])
    func aVariablesErrorStandsAlone(environment: [String: String], error: String) async throws {
        let result = try await SpeciesRunner()(["list"], environment: environment)
        #expect(result.status == 64 && result.stdout == "", "\(result)")
        #expect(result.stderr == "error: \(error)\n")
    }

    /// A bare word that is no command, but names a species with the words
    /// after it, suggests `show` with all of them.
    @Test(arguments: [
        (["kel", "dor"], "unknown subcommand 'kel'; did you mean 'species show kel dor'?"),
        (["hutt"], "unknown subcommand 'hutt'; did you mean 'species show hutt'?"),
        (["yoda's", "species", "--json"], "unknown subcommand 'yoda's'; did you mean 'species show yoda's species'?"),
        (["kel", "lsit"], "unknown subcommand 'kel'; did you mean 'help'?"),
    ])
    func aSpeciesNameSuggestsShow(arguments: [String], error: String) async throws {
        let result = try await SpeciesRunner()(arguments)
        #expect(result.status == 64 && result.stderr == "error: \(error)\n\(Self.usage(Commands.root))\n", "\(result)")
    }

    /// `species cache` alone is its group's help, as gh's and kubectl's are.
    @Test func aGroupAloneIsItsHelp() async throws {
        let result = try await SpeciesRunner()(["cache"])
        #expect(result.status == 0 && result.stderr == "", "\(result)")
        #expect(
            result.stdout == Invocation.helpText(for: Commands.cache, width: HelpFormatter.standardWidth), "\(result)")
    }
}
