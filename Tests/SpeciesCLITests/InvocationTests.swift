import Foundation
import SpeciesKit
import Testing

@testable import species

@Suite("Command-line parsing")
struct InvocationTests {
    static let local = APIRoot("http://127.0.0.1:8000/api/")!
    static let localSettings = GlobalSettings(standingIn: .init(roots: [local]))

    private func parse(_ arguments: [String], environment: [String: String] = [:]) throws -> Invocation {
        try Invocation(arguments: arguments, environment: environment)
    }

    /// The usage error for `arguments`, as it would be printed.
    private func usageError(_ arguments: [String], environment: [String: String] = [:]) -> CommandError? {
        do {
            _ = try Invocation(arguments: arguments, environment: environment)
            return nil
        } catch {
            return error
        }
    }

    @Test func listDefaultsToTheFirstPageOfSWAPIAsATable() throws {
        #expect(try parse(["list"]) == .list(ListCommand(), GlobalSettings()))
    }

    /// Issue 39: getopt's short options, and the last spelling of a setting
    /// wins, as in git and curl.
    @Test(arguments: [
        (["list", "-n5"], ListCommand(limit: 5)), (["list", "-an", "5"], ListCommand(allPages: true, limit: 5)),
        (["list", "-ojson"], ListCommand(format: .json)),
        (["list", "-o", "tsv", "--json"], ListCommand(format: .json)),
        (["list", "--json", "-otsv"], ListCommand(format: .tsv)),
        (["list", "-n", "5", "-n", "6"], ListCommand(limit: 6)),
        (["list", "--jsonl", "--format=csv"], ListCommand(format: .csv)),
    ])
    func shortFormsJoinAndTheLastSpellingWins(arguments: [String], command: ListCommand) throws {
        #expect(try parse(arguments) == .list(command, GlobalSettings()))
    }

    @Test func flagsJoinAndShowTakesListsFormats() throws {
        #expect(usageError(["-qa", "list"])?.message == "'-a' is an option of 'species list'; give it after 'list'")
        #expect(try parse(["list", "-qa"]) == .list(ListCommand(allPages: true), GlobalSettings(quiet: true)))
        #expect(
            try parse(["show", "3", "--jsonl"]) == .show(ShowCommand(query: .id(3), format: .jsonl), GlobalSettings()))
        #expect(
            try parse(["show", "3", "--json", "-o", "jsonl"])
                == .show(ShowCommand(query: .id(3), format: .jsonl), GlobalSettings()))
        // Issue 44: a number that is no id is no name either.
        #expect(usageError(["show", "+3"])?.message == "'+3' is no species id: an id is a whole number from 1")
    }

    /// Issue 29: every command takes every global option before its name,
    /// and checks its value, whether or not it means something to it;
    /// after its name, a command refuses those it does not take (issue 25).
    @Test(arguments: Commands.subcommands.filter { $0 != Commands.complete })
    func everyCommandTakesTheGlobalOptionsBeforeItAndChecksThem(command: CommandDefinition) {
        let arguments: [String] =
            switch command {
            case Commands.show: ["3"]
            case Commands.helpCommand: ["list"]
            default: Array(command.arguments.first?.choices.prefix(1) ?? [])
            }
        let valid = [["--base-url", "http://127.0.0.1:8000/api/"], ["--timeout", "5"], ["--no-cache"], ["-q"]]
        for option in valid {
            #expect(usageError(option + [command.name] + arguments) == nil, "\(option)")
        }
        for option in [["--color", "bogus"], ["--timeout", "abc"], ["--retries", "x"]] {
            let before = usageError(option + [command.name] + arguments)
            #expect(before?.message.hasPrefix("invalid value '\(option[1])' for '\(option[0]) <") == true)
            let after = usageError([command.name] + arguments + option)
            if Invocation.parser.options(of: command).contains(where: { $0.key == option[0] }) {
                #expect(after?.message == before?.message)
            } else {
                #expect(after?.message == "'\(option[0])' does not apply to '\(command.path)'")
            }
        }
        let variable = usageError([command.name] + arguments, environment: ["SWAPI_TIMEOUT": "abc"])
        #expect(variable?.message.hasPrefix("invalid value 'abc' for SWAPI_TIMEOUT: ") == true, "checked like options")
    }

    /// Issue 29: `SWAPI_NO_FALLBACK` takes what it documents, and refuses
    /// the rest (before, `on` and `2` silently meant off).
    @Test(arguments: [
        ("1", true), ("true", true), ("YES", true), ("0", false), ("false", false), ("no", false), ("", false),
    ])
    func noFallbackFromTheEnvironment(value: String, on: Bool) throws {
        let settings = GlobalSettings(client: .init(fallback: !on))
        #expect(try parse(["list"], environment: ["SWAPI_NO_FALLBACK": value]) == .list(ListCommand(), settings))
    }

    @Test(arguments: ["on", "2", "off"])
    func aNoFallbackThatIsNeitherOnNorOffIsAUsageError(value: String) {
        #expect(
            usageError(["cache", "info"], environment: ["SWAPI_NO_FALLBACK": value])?.message
                == "invalid value '\(value)' for SWAPI_NO_FALLBACK: expected 1, true or yes (on), or 0, false or no (off)"
        )
    }

    /// Issue 42: `SWAPI_OFFLINE` is `--offline` for a session, read as the
    /// other boolean variables are; `--refresh` on the line wins over it.
    @Test(arguments: [("1", true), ("TRUE", true), ("0", false), ("false", false), ("", false)])
    func offlineFromTheEnvironment(value: String, on: Bool) throws {
        var settings = GlobalSettings()
        settings.client.cache.mode = on ? .offline : .normal
        #expect(try parse(["list"], environment: ["SWAPI_OFFLINE": value]) == .list(ListCommand(), settings))
        settings.client.cache.mode = .refresh
        #expect(
            try parse(["--refresh", "list"], environment: ["SWAPI_OFFLINE": value]) == .list(ListCommand(), settings))
        #expect(
            usageError(["cache", "info"], environment: ["SWAPI_OFFLINE": "offline"])?.message
                == "invalid value 'offline' for SWAPI_OFFLINE: expected 1, true or yes (on), or 0, false or no (off)")
    }

    /// `--help` and `--version` are options of every command, which stand
    /// for the whole line wherever they are; after `--` they are arguments.
    @Test func helpAndVersionAreParsedAsOptions() throws {
        let listHelp = Invocation.helpText(for: Commands.list)
        for arguments in [
            ["list", "--help"], ["--help", "list"], ["list", "-h", "--bogus"], ["list", "--bogus", "--help"],
            ["help", "list"],
        ] {
            #expect(try parse(arguments) == .help(listHelp), "\(arguments)")
        }
        #expect(try parse(["--base-url", "x", "--version"]) == .version, "a bad value before it is not read")
        #expect(try parse(["cache", "info", "--version"]) == .version)
        #expect(usageError(["list", "--", "--help"])?.message == "unexpected argument '--help'")
        #expect(usageError(["list", "--bogus"])?.message == "unknown option '--bogus'")
    }

    /// A command's options are its bindings: none is listed that is not
    /// read into the command (`Binding`); and no two are the same.
    @Test func eachOptionListedIsReadIntoItsCommand() {
        #expect(Commands.list.options.dropLast() == ListCommand.options.map(\.definition)[...])
        #expect(Commands.show.options.dropLast() == ShowCommand.options.map(\.definition)[...])
        #expect(Commands.root.options.dropLast(2) == GlobalSettings.options.map(\.definition)[...])
        for command in [Commands.root] + Commands.subcommands {
            let names = Invocation.parser.options(of: command).flatMap(\.names)
            #expect(Set(names).count == names.count, "\(command.path)")
        }
        let timeout = GlobalSettings.options[2].definition
        #expect(
            timeout != OptionDefinition(names: timeout.names, valueName: "n", summary: "Another"), "all of it compared")
    }

    @Test(
        "global options stand before or after the subcommand, with a space or '='",
        arguments: [
            ["--base-url", "http://127.0.0.1:8000/api/", "list", "--page", "2"],
            ["list", "--page", "2", "--base-url", "http://127.0.0.1:8000/api"],
            ["list", "--base-url=http://127.0.0.1:8000/api/", "--page=2"],
        ])
    func globalOptionsAnywhere(arguments: [String]) throws {
        #expect(try parse(arguments) == .list(ListCommand(page: 2), Self.localSettings))
    }

    @Test func everyListOption() throws {
        let invocation = try parse(["list", "--search", "Yoda's species", "--all-pages", "--jsonl"])
        #expect(
            invocation == .list(ListCommand(allPages: true, search: "Yoda's species", format: .jsonl), GlobalSettings())
        )
        #expect(try parse(["list", "--json"]) == .list(ListCommand(format: .json), GlobalSettings()))
        let arranged = try parse([
            "list", "--sort", "lifespan", "--reverse", "--format", "tsv", "--fields", "name, average_height,ID",
        ])
        #expect(
            arranged
                == .list(
                    ListCommand(format: .tsv, order: .lifespan, reversed: true, fields: [.name, .averageHeight, .id]),
                    GlobalSettings()))
        #expect(
            try parse(["list", "--json", "--sort", "name"])
                == .list(ListCommand(format: .json, order: .name), GlobalSettings()))
        #expect(try parse(["list", "--format", "table"]) == .list(ListCommand(), GlobalSettings()))
        #expect(try parse(["list", "--format", "json"]) == .list(ListCommand(format: .json), GlobalSettings()))
        #expect(
            try parse(["list", "--format=jsonl", "--all-pages"])
                == .list(ListCommand(allPages: true, format: .jsonl), GlobalSettings()))
        #expect(try parse(["list", "--format", "csv"]) == .list(ListCommand(format: .csv), GlobalSettings()))
        #expect(try parse(["list", "--format", "markdown"]) == .list(ListCommand(format: .markdown), GlobalSettings()))
        #expect(try parse(["list", "--limit", "15"]) == .list(ListCommand(limit: 15), GlobalSettings()))
        #expect(
            try parse(["list", "--jsonl", "--fields", "name,height,name"])
                == .list(ListCommand(format: .jsonl, fields: [.name, .averageHeight]), GlobalSettings()),
            "a field named twice is kept once")
    }

    @Test func showRelated() throws {
        #expect(
            try parse(["show", "kel", "dor", "--related", "--json"])
                == .show(ShowCommand(query: .name("kel dor"), format: .json, related: true), GlobalSettings()))
    }

    @Test func colourAndQuiet() throws {
        #expect(
            try parse(["--color", "never", "list", "-q"])
                == .list(ListCommand(), GlobalSettings(colorMode: .never, quiet: true)))
        #expect(
            try parse(["show", "1", "--color=always", "--quiet"])
                == .show(ShowCommand(query: .id(1)), GlobalSettings(colorMode: .always, quiet: true)))
        #expect(try parse(["-v", "list"]) == .list(ListCommand(), GlobalSettings(verbose: true)))
        #expect(
            try parse(["show", "1", "--verbose"]) == .show(ShowCommand(query: .id(1)), GlobalSettings(verbose: true)))
    }

    @Test func completionsAndTheHiddenCommands() throws {
        #expect(try parse(["completions", "zsh"]) == .completions(.zsh))
        #expect(
            try parse(["__complete", "bash", "--base-url", "http://127.0.0.1:8000/api/", "show", "--wat"])
                == .complete(
                    CompleteCommand(shell: .bash, words: ["--base-url", "http://127.0.0.1:8000/api/", "show", "--wat"]))
        )
        #expect(!Invocation.helpText(for: Commands.root).contains("__"))
    }

    @Test func theEnvironmentGivesTheBaseURLAndTheOptionWins() throws {
        let environment = ["SWAPI_BASE_URL": "http://127.0.0.1:8000/api"]
        #expect(try parse(["list"], environment: environment) == .list(ListCommand(), Self.localSettings))
        let option = try parse(["list", "--base-url", "https://swapi.dev/api/"], environment: environment)
        #expect(option == .list(ListCommand(), GlobalSettings(standingIn: .init(roots: [.swapi]))))
        #expect(try parse(["list"], environment: ["SWAPI_BASE_URL": ""]) == .list(ListCommand(), GlobalSettings()))
    }

    @Test func severalRootsMakeAListInTheirOrder() throws {
        let local = ["http://127.0.0.1:8000/api/", "https://swapi.info/api/", "http://127.0.0.1:8001/api/"]
        let expected = GlobalSettings(standingIn: .init(roots: local.compactMap(APIRoot.init)))
        let options = try parse(["--base-url", local[0], "list", "--base-url", local[1], "--base-url", local[2]])
        #expect(options == .list(ListCommand(), expected))
        for separated in [
            "\(local[0]) \(local[1]) \(local[2])", "\(local[0]),\(local[1]),\(local[2])",
            " \(local[0]) ,  \(local[1]),\(local[2]) ",
        ] {
            #expect(try parse(["list"], environment: ["SWAPI_BASE_URL": separated]) == .list(ListCommand(), expected))
        }
        #expect(
            try parse(["list", "--base-url", "\(local[0]),\(local[1])", "--base-url", local[2]])
                == .list(ListCommand(), expected))
    }

    @Test func theDefaultIsSWAPIsPublicServicesInTurn() throws {
        #expect(
            try parse(["list"])
                == .list(ListCommand(), GlobalSettings(standingIn: .init(roots: APIRoot.publicServices))))
        #expect(
            APIRoot.publicServices.map(\.url.absoluteString) == [
                "https://swapi.dev/api/", "https://swapi.py4e.com/api/", "https://www.swapi.tech/api/",
                "https://swapi.info/api/",
            ])
    }

    @Test func connectionOptionsAndTheirEnvironment() throws {
        let parsed = try parse(["list", "--timeout", "2.5", "--retries", "0", "--max-response-size", "1000"])
        let expected = SpeciesClient.Configuration(timeout: 2.5, retries: 0, maxResponseSize: 1000)
        #expect(parsed == .list(ListCommand(), GlobalSettings(standingIn: expected)))
        let fromEnvironment = try parse(["list"], environment: ["SWAPI_TIMEOUT": "0.5"])
        #expect(fromEnvironment == .list(ListCommand(), GlobalSettings(standingIn: .init(timeout: 0.5))))
        let optionWins = try parse(["--timeout", "3", "list"], environment: ["SWAPI_TIMEOUT": "0.5"])
        #expect(optionWins == .list(ListCommand(), GlobalSettings(standingIn: .init(timeout: 3))))
    }

    @Test func showJoinsItsWords() throws {
        #expect(try parse(["show", "kel", "dor"]) == .show(ShowCommand(query: .name("kel dor")), GlobalSettings()))
        #expect(
            try parse(["show", "Yoda's species", "--json"])
                == .show(ShowCommand(query: .name("Yoda's species"), format: .json), GlobalSettings()))
        #expect(try parse(["show", "--", "-5th"]) == .show(ShowCommand(query: .name("-5th")), GlobalSettings()))
    }

    @Test func helpAndVersion() throws {
        let listHelp = Invocation.helpText(for: Commands.list)
        for arguments in [["list", "--help"], ["list", "-h"], ["help", "list"], ["list", "--bogus", "-h"]] {
            #expect(try parse(arguments) == .help(listHelp))
        }
        let rootHelp = Invocation.helpText(for: Commands.root)
        #expect(try parse(["--help"]) == .help(rootHelp))
        #expect(try parse(["help"]) == .help(rootHelp))
        #expect(try parse([]) == .help(rootHelp), "a bare species prints the help")
        #expect(try parse(["--version"]) == .version)
        #expect(try parse(["list", "--version"]) == .version)
    }

    @Test func aUsageErrorNamesTheProblemAndTheUsageInALineEach() {
        #expect(
            usageError(["list", "--foo"])?.rendered == """
                error: unknown option '--foo'
                usage: species list [--page <n> | --all-pages] [--search <text>] [--format <format> | --json | --jsonl] \
                [--sort <key>] [--reverse] [--fields <a,b,...>] [--limit <n>]

                """)
    }

    @Test(
        arguments: [
            (["lsit"], "unknown subcommand 'lsit'; did you mean 'list'?", "species"),
            (["shwo", "yoda"], "unknown subcommand 'shwo'; did you mean 'show'?", "species"),
            (["frobnicate"], "unknown subcommand 'frobnicate'", "species"),
            (["list", "--al-pages"], "unknown option '--al-pages'; did you mean '--all-pages'?", "species list"),
            (
                ["list", "--sort", "mass"],
                "invalid value 'mass' for '--sort <key>': expected name, height or lifespan", "species list"
            ),
            (
                ["list", "--format", "tvs"],
                "invalid value 'tvs' for '--format <format>': expected table, tsv, csv, markdown, json or jsonl; did you mean 'tsv'?",
                "species list"
            ),
            (
                ["list", "--format", "xml"],
                "invalid value 'xml' for '--format <format>': expected table, tsv, csv, markdown, json or jsonl",
                "species list"
            ),
            (
                ["list", "--sort", "hieght"],
                "invalid value 'hieght' for '--sort <key>': expected name, height or lifespan; did you mean 'height'?",
                "species list"
            ),
            (
                ["list", "--color", "alwys"],
                "invalid value 'alwys' for '--color <when>': expected auto, always or never; did you mean 'always'?",
                "species list"
            ),
            (
                ["list", "--fields", "nme"],
                "invalid value 'nme' for '--fields <a,b,...>': expected fields among id, name, classification, designation, height, skin_colors, hair_colors, eye_colors, lifespan, homeworld, language, people, films, created, edited or url; did you mean 'name'?",
                "species list"
            ),
            (
                ["list", "--limit", "0"], "invalid value '0' for '--limit <n>': expected a whole number from 1 up",
                "species list"
            ),
            (
                ["list", "--limit", "ten"], "invalid value 'ten' for '--limit <n>': expected a whole number from 1 up",
                "species list"
            ),
            (
                ["list", "--page", "2", "--limit", "3"], "'--page' and '--limit' cannot be used together",
                "species list"
            ),
            (
                ["cache", "inf"], "unknown argument 'inf': expected info or clear; did you mean 'info'?",
                "species cache"
            ),
            (
                ["list", "--fields", "name,mass"],
                "invalid value 'mass' for '--fields <a,b,...>': expected fields among id, name, classification, designation, height, skin_colors, hair_colors, eye_colors, lifespan, homeworld, language, people, films, created, edited or url",
                "species list"
            ),
            (
                ["list", "--fields", "name,,height"],
                "invalid value '' for '--fields <a,b,...>': expected fields among id, name, classification, designation, height, skin_colors, hair_colors, eye_colors, lifespan, homeworld, language, people, films, created, edited or url",
                "species list"
            ),
            (
                ["list", "--color", "sometimes"],
                "invalid value 'sometimes' for '--color <when>': expected auto, always or never", "species list"
            ),
            (["completions"], "missing argument 'bash | zsh | fish'", "species completions"),
            (
                ["completions", "tcsh"],
                "unknown argument 'tcsh': expected bash, zsh or fish; did you mean 'bash'?", "species completions"
            ),
            (["help", "lsit"], "unknown subcommand 'lsit'; did you mean 'list'?", "species help"),
            (["--foo", "list"], "unknown option '--foo'", "species"),
            (["list", "--page"], "missing value for '--page <n>'", "species list"),
            (["list", "--page", "--json"], "missing value for '--page <n>'", "species list"),
            (
                ["list", "--page", "0"], "invalid value '0' for '--page <n>': expected a whole number from 1 up",
                "species list"
            ),
            (
                ["list", "--page", "-1"], "invalid value '-1' for '--page <n>': expected a whole number from 1 up",
                "species list"
            ),
            (
                ["list", "--page", "two"], "invalid value 'two' for '--page <n>': expected a whole number from 1 up",
                "species list"
            ),
            (
                ["list", "--page", "2", "--all-pages"], "'--page' and '--all-pages' cannot be used together",
                "species list"
            ),
            (["list", "--json=yes"], "option '--json' does not take a value", "species list"),
            (["-V=1"], "option '-V' does not take a value", "species"),
            (["list", "-q=1"], "option '-q' does not take a value", "species list"),
            (
                ["list", "--page", "+2"], "invalid value '+2' for '--page <n>': expected a whole number from 1 up",
                "species list"
            ),
            (["list", "-x"], "unknown option '-x'", "species list"),
            (
                ["list", "-nx"], "invalid value 'x' for '--limit <n>': expected a whole number from 1 up",
                "species list"
            ),
            (["list", "-an"], "missing value for '--limit <n>'", "species list"),
            (["version"], "unknown subcommand 'version'; did you mean '--version'?", "species"),
            (["--json", "list"], "'--json' is an option of 'species list'; give it after 'list'", "species"),
            (
                ["list", "-o", "JSON"],
                "invalid value 'JSON' for '--format <format>': expected table, tsv, csv, markdown, json or jsonl; did you mean 'json'?",
                "species list"
            ),
            (["list", "extra"], "unexpected argument 'extra'", "species list"),
            (["list", "--related"], "unknown option '--related'", "species list"),
            (["show"], "missing argument '<name | id | url>'", "species show"),
            (["show", "wookie", "--page", "2"], "unknown option '--page'", "species show"),
            (
                ["show", "x", "--base-url", "ftp://x/"],
                "invalid value 'ftp://x/' for '--base-url <url>': expected an http or https URL", "species show"
            ),
            (
                ["list", "--base-url", "https://swapi.dev/api/ ftp://x/"],
                "invalid value 'ftp://x/' for '--base-url <url>': expected an http or https URL", "species list"
            ),
            (
                ["list", "--base-url", " , "],
                "invalid value ' , ' for '--base-url <url>': expected an http or https URL", "species list"
            ),
            (["list", "-q", "-v"], "'--quiet' and '--verbose' cannot be used together", "species list"),
            (
                ["list", "--timeout", "0"],
                "invalid value '0' for '--timeout <seconds>': expected a decimal number of seconds from 0.001 to 86400",
                "species list"
            ),
            (
                ["list", "--timeout", "soon"],
                "invalid value 'soon' for '--timeout <seconds>': expected a decimal number of seconds from 0.001 to 86400",
                "species list"
            ),
            (
                ["list", "--timeout", "0x10"],
                "invalid value '0x10' for '--timeout <seconds>': expected a decimal number of seconds from 0.001 to 86400",
                "species list"
            ),
            (
                ["list", "--timeout", "0x1p-2"],
                "invalid value '0x1p-2' for '--timeout <seconds>': expected a decimal number of seconds from 0.001 to 86400",
                "species list"
            ),
            (
                ["list", "--timeout", "1e1"],
                "invalid value '1e1' for '--timeout <seconds>': expected a decimal number of seconds from 0.001 to 86400",
                "species list"
            ),
            (
                ["list", "--max-age", "0x1p1000"],
                "invalid value '0x1p1000' for '--max-age <seconds>': expected a decimal number of seconds from 0 up",
                "species list"
            ),
            (
                ["list", "--max-age", "1_000"],
                "invalid value '1_000' for '--max-age <seconds>': expected a decimal number of seconds from 0 up",
                "species list"
            ),
            (
                ["list", "--base-url", #"http://127.0.0.1:8000\@evil.example/api/"#],
                #"invalid value 'http://***@evil.example/api/' for '--base-url <url>': expected a URL without a backslash in its host part"#,
                "species list"
            ),
            (
                ["list", "--base-url", "http://127.0.0.1:8000/api/species/"],
                "invalid value 'http://127.0.0.1:8000/api/species/' for '--base-url <url>': expected the API root, not its species list: http://127.0.0.1:8000/api/",
                "species list"
            ),
            (["list", "--all"], "unknown option '--all'; did you mean '--all-pages'?", "species list"),
            (["wookie"], "unknown subcommand 'wookie'; did you mean 'species show wookie'?", "species"),
            (
                ["list", "--retries", "-1"],
                "invalid value '-1' for '--retries <n>': expected a whole number from 0 to 100", "species list"
            ),
            (
                ["list", "--max-response-size", "1MB"],
                "invalid value '1MB' for '--max-response-size <bytes>': expected a whole number of bytes from 1 to 1099511627776 (1 TiB)",
                "species list"
            ),
            (
                ["list", "--max-response-size", "1099511627777"],
                "invalid value '1099511627777' for '--max-response-size <bytes>': expected a whole number of bytes from 1 to 1099511627776 (1 TiB)",
                "species list"
            ),
            (["help", "nope"], "unknown subcommand 'nope'", "species help"),
            (["help", "list", "show"], "unexpected argument 'show'", "species help"),
        ])
    func usageErrors(arguments: [String], message: String, command: String) {
        let error = usageError(arguments)
        #expect(error?.message == message)
        #expect(error?.usage?.path == command)
    }

    @Test func aMalformedEnvironmentVariableIsAUsageError() {
        let baseURL = usageError(["list"], environment: ["SWAPI_BASE_URL": "swapi.dev"])
        #expect(baseURL?.message == "invalid value 'swapi.dev' for SWAPI_BASE_URL: expected an http or https URL")
        let second = usageError(["list"], environment: ["SWAPI_BASE_URL": "https://swapi.dev/api/,http://[::1]/api/"])
        #expect(
            second?.message
                == "invalid value 'http://[::1]/api/' for SWAPI_BASE_URL: expected a host name or an IPv4 address "
                + "(FoundationNetworking cannot request an IPv6 address literal)")
        let timeout = usageError(["list"], environment: ["SWAPI_TIMEOUT": "-3"])
        #expect(
            timeout?.message
                == "invalid value '-3' for SWAPI_TIMEOUT: expected a decimal number of seconds from 0.001 to 86400")
        for (variable, value) in [("SWAPI_TIMEOUT", "0x10"), ("SWAPI_MAX_AGE", "0x10")] {
            #expect(
                usageError(["list"], environment: [variable: value])?.message.hasPrefix("invalid value '0x10'") == true)
        }
        // The command line was not wrong: no usage follows.
        #expect(timeout?.usage == nil && timeout?.rendered.split(separator: "\n").count == 1)
    }

    @Test func aBaseURLIsTrimmedOfItsNewline() throws {
        let invocation = try Invocation(
            arguments: ["--base-url", "http://127.0.0.1:8000/api/\n", "list"], environment: [:])
        guard case .list(_, let settings) = invocation else {
            Issue.record("\(invocation)")
            return
        }
        #expect(settings.client.roots.map(\.url.absoluteString) == ["http://127.0.0.1:8000/api/"])
    }

    @Test func shortFormsOfTheOptionsTypedMost() throws {
        let line = try Invocation(arguments: ["list", "-a", "-n", "3", "-o", "json"], environment: [:])
        #expect(line == .list(ListCommand(allPages: true, format: .json, limit: 3), GlobalSettings()))
        #expect(try Invocation(arguments: ["-V"], environment: [:]) == .version)
        #expect(
            try Invocation(arguments: ["show", "wookie", "-o", "json"], environment: [:])
                == .show(ShowCommand(query: .name("wookie"), format: .json), GlobalSettings()))
    }
}

@Suite("Help text")
struct HelpTests {
    @Test(arguments: [Commands.root] + Commands.subcommands)
    func everyHelpFollowsTheLayout(command: CommandDefinition) {
        let help = Invocation.helpText(for: command)
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(help.hasPrefix("OVERVIEW: "))
        #expect(help.contains("\nUSAGE: \(command.path)"))
        #expect(lines.allSatisfy { $0.count <= 80 })
        for option in command.options {
            #expect(help.contains("\n  \(option.label)"))
        }
        let headings = lines.filter { $0.hasSuffix(":") && $0 == $0.uppercased() && !$0.hasPrefix(" ") }
        let examples: [Substring] = command.hidden ? [] : ["EXAMPLES:"]
        if command == Commands.root {
            #expect(headings == ["SUBCOMMANDS:", "OPTIONS:", "MORE OPTIONS:"] + examples)
            #expect(help.contains("\n  --base-url <url>        The API root"))
            #expect(help.contains("\n  -v, --verbose           "))
            #expect(help.contains("\n  See 'species help <subcommand>' for detailed help.\n"))
        } else {
            #expect(headings.suffix(2 + examples.count) == ["OPTIONS:", "GLOBAL OPTIONS:"] + examples)
            if [Commands.list, Commands.show].contains(command) {
                #expect(help.contains("GLOBAL OPTIONS:\n  --base-url, --no-fallback, --timeout,"))
                #expect(help.contains(" -v/--verbose, -V/--version; see 'species --help'.\n"))
            } else {
                #expect(
                    help.contains(
                        "GLOBAL OPTIONS:\n  --color, -q/--quiet, -v/--verbose, -V/--version; see 'species --help'.\n"))
            }
            #expect(!help.contains("The API root"), "the global options are named, not explained")
        }
        if !command.hidden {
            #expect((2...3).contains(command.examples.count))
            #expect(help.hasSuffix("\n    \(command.examples.last?.command ?? "")\n"))
        }
    }

    @Test(arguments: [Commands.root] + Commands.subcommands)
    func everyExampleParses(command: CommandDefinition) throws {
        for example in command.examples {
            // The species command, up to a pipe or a redirection.
            let words = example.command.prefix { $0 != "|" && $0 != ">" }.split(separator: " ").map(String.init)
            guard words.first == "species" else { continue }
            let arguments = words.dropFirst().map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "'")) }
            #expect(throws: Never.self, "\(example.command)") {
                try Invocation(arguments: Array(arguments), environment: [:])
            }
        }
    }

    @Test func aSubcommandsHelpNamesTheGlobalOptionsInOneBlock() {
        let help = Invocation.helpText(for: Commands.show)
        #expect(help.split(separator: "\n", omittingEmptySubsequences: false).count <= 34, "\(help)")
        #expect(
            help.contains(
                """
                GLOBAL OPTIONS:
                  --base-url, --no-fallback, --timeout, --retries, --max-response-size,
                  --serial, --max-age, --refresh, --no-cache, --offline, --color, -q/--quiet,
                  -v/--verbose, -V/--version; see 'species --help'.
                """))
    }

    /// Help wraps to COLUMNS, between 40 and 100 columns.
    @Test(arguments: [40, 60, 72, 100])
    func helpWrapsToTheWidth(columns: Int) throws {
        for command in [Commands.root] + Commands.subcommands {
            let help = try #require(
                try? Invocation(
                    arguments: [command.name, "--help"].filter { $0 != "species" },
                    environment: ["COLUMNS": "\(columns)"]))
            guard case .help(let text) = help else {
                Issue.record("\(command.path) --help gives \(help)")
                continue
            }
            let lines = text.split(separator: "\n")
            // Only a word longer than a line, such as a path, may pass its end.
            let long = lines.filter {
                DisplayWidth.of(String($0)) > columns && $0.trimmingCharacters(in: .whitespaces).contains(" ")
            }
            #expect(long.isEmpty, "\(command.path) at \(columns):\n\(text)")
            if command == Commands.list {
                #expect(lines.contains { DisplayWidth.of(String($0)) > columns - 8 }, "it uses the width")
            }
        }
        let narrow = try Invocation(arguments: ["--help"], environment: ["COLUMNS": "20"])
        #expect(narrow == .help(Invocation.helpText(for: Commands.root, width: 40)))
        let wide = try Invocation(arguments: ["--help"], environment: ["COLUMNS": "300"])
        #expect(wide == .help(Invocation.helpText(for: Commands.root, width: 100)))
    }

    /// The one word wrapper of help, usage lines and examples, as a table:
    /// words, width, head, indent, end, and the lines.
    @Test(arguments: [
        (["a", "bb", "cc"], 5, "", "", "", ["a bb", "cc"]),
        (["toolongword", "a"], 4, "", "", "", ["toolongword", "a"]),
        ([String](), 10, "", "", "", [String]()),
        (["[-a]", "[-b]"], 12, "USAGE: x", "         ", "", ["USAGE: x", "         [-a]", "         [-b]"]),
        (["[-a]", "", "[--b", "<v>]"], 20, "USAGE: x", "    ", "", ["USAGE: x [-a]", "    [--b <v>]"]),
        (["", "w"], 20, "", "  ", "", ["w"]),
        (["species", "list", "--json"], 14, "", "  ", " \\", ["species list \\", "  --json"]),
    ])
    func theWrapperLaysWordsOnLines(
        words: [String], width: Int, head: String, indent: String, end: String, lines: [String]
    ) {
        #expect(HelpFormatter.wrap(words, width: width, head: head, indent: indent, end: end) == lines)
    }

    @Test func aLongUsageWrapsBetweenGroups() {
        #expect(
            Invocation.helpText(for: Commands.list).contains(
                """

                USAGE: species list [--page <n> | --all-pages] [--search <text>]
                                    [--format <format> | --json | --jsonl] [--sort <key>]
                                    [--reverse] [--fields <a,b,...>] [--limit <n>]

                """))
    }

    @Test func longHelpWrapsUnderItsLabel() {
        let help = Invocation.helpText(for: Commands.show)
        #expect(
            help.contains(
                """
                ARGUMENTS:
                  <name | id | url>       A species name, matched case-insensitively: an exact
                                          match wins, else the single species whose name holds
                """))
    }
}

extension GlobalSettings {
    /// The settings the command line starts from for `client`: it asks for
    /// the fallback, which SpeciesKit leaves off (issue 50).
    fileprivate init(standingIn client: SpeciesClient.Configuration) {
        var client = client
        client.fallback = true
        self.init(client: client)
    }
}
