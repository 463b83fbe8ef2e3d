import Foundation
import SpeciesKit

/// What a command line asks for, checked and typed.
enum Invocation: Equatable {
    case help(String)
    case version
    case list(ListCommand, GlobalSettings)
    case show(ShowCommand, GlobalSettings)
    case cache(CacheCommand)
    case completions(Shell)
    case completeNames(GlobalSettings)
    case manualPage
    case selfCheck
}

/// The global options, after the environment and the defaults.
struct GlobalSettings: Equatable {
    var client = SpeciesClient.Configuration()
    var colorMode = ColorMode.auto
    var quiet = false
    var verbose = false
}

extension Invocation {
    static let parser = ArgumentParser(
        root: Commands.root, subcommands: Commands.subcommands, globalOptions: Options.global,
        globalExclusive: Options.globalExclusive)

    init(arguments: [String], environment: [String: String]) throws(UsageError) {
        let (command, _) = try Self.parser.subcommand(in: arguments)
        let beforeSeparator = arguments.prefix { $0 != "--" }
        // Asked only for help: other commands need no look at the terminal here.
        var helpWidth: Int { Terminal.width(environment: environment) ?? HelpFormatter.standardWidth }
        if arguments.isEmpty || beforeSeparator.contains(where: Options.help.definition.names.contains) {
            self = .help(Self.helpText(for: command, width: helpWidth))
            return
        }
        let parsed = try Self.parser.parse(arguments)
        if parsed.has(Options.version.definition) {
            self = .version
            return
        }
        switch command {
        case Commands.list:
            self = .list(try Self.listCommand(parsed, environment), try Self.settings(parsed, environment))
        case Commands.show:
            let settings = try Self.settings(parsed, environment)
            self = .show(try Self.showCommand(parsed, roots: settings.client.roots), settings)
        case Commands.cache:
            self = .cache(
                CacheCommand(
                    try Self.choice(of: parsed), directory: ResponseCache.defaultDirectory(environment: environment)))
        case Commands.completions:
            self = .completions(try Self.choice(of: parsed))
        case Commands.completeNames:
            self = .completeNames(try Self.settings(parsed, environment))
        case Commands.manualPage:
            self = .manualPage
        case Commands.selfCheck:
            self = .selfCheck
        case Commands.helpCommand:
            self = .help(try Self.helpText(asked: parsed, width: helpWidth))
        default:
            throw UsageError(message: "missing subcommand", command: command)
        }
    }

    static func helpText(for command: CommandDefinition, width: Int = HelpFormatter.standardWidth) -> String {
        HelpFormatter(width: width).render(
            command,
            subcommands: command == Commands.root ? Commands.visibleSubcommands : [],
            globalOptions: Options.global)
    }

    /// `species help [<subcommand>]`.
    private static func helpText(asked parsed: ParsedArguments, width: Int) throws(UsageError) -> String {
        try expectArguments(parsed, atMost: 1)
        guard let name = parsed.positionals.first else { return helpText(for: Commands.root, width: width) }
        guard let command = Commands.visibleSubcommands.first(where: { $0.name == name }) else {
            let names = Commands.visibleSubcommands.map(\.name)
            throw UsageError(
                message: "unknown subcommand '\(Excerpt.of(name))'"
                    + ArgumentParser.suggestion(for: name, among: names),
                command: parsed.command)
        }
        return helpText(for: command, width: width)
    }

    private static func listCommand(_ parsed: ParsedArguments, _ environment: [String: String]) throws(UsageError)
        -> ListCommand
    {
        try expectArguments(parsed, atMost: 0)
        var command = ListCommand()
        command.page = try parsed.value(of: Options.page, environment: environment)
        command.allPages = parsed.has(Options.allPages.definition)
        command.search = try parsed.value(of: Options.search, environment: environment)
        command.format =
            parsed.has(Options.json.definition)
            ? .json
            : parsed.has(Options.jsonl.definition)
                ? .jsonl
                : try parsed.value(of: Options.format, environment: environment)
        command.order = try parsed.value(of: Options.sort, environment: environment)
        command.reversed = parsed.has(Options.reverse.definition)
        command.fields = try parsed.value(of: Options.fields, environment: environment)
        command.limit = try parsed.value(of: Options.limit, environment: environment)
        return command
    }

    private static func showCommand(_ parsed: ParsedArguments, roots: [APIRoot]) throws(UsageError) -> ShowCommand {
        let text = parsed.positionals.joined(separator: " ").trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else {
            throw UsageError(message: "missing argument '<name | id | url>'", command: parsed.command)
        }
        let query: SpeciesQuery
        do {
            query = try SpeciesQuery(text, roots: roots)
        } catch {
            throw UsageError(message: error.description, command: parsed.command)
        }
        return ShowCommand(
            query: query, json: parsed.has(Options.showJSON.definition), related: parsed.has(Options.related.definition)
        )
    }

    /// The one argument of `completions` and `cache`, among its choices.
    private static func choice<Choice: RawRepresentable<String>>(of parsed: ParsedArguments) throws(UsageError)
        -> Choice
    {
        let argument = parsed.command.arguments.first
        try expectArguments(parsed, atMost: 1)
        guard let name = parsed.positionals.first else {
            throw UsageError(message: "missing argument '\(argument?.label ?? "")'", command: parsed.command)
        }
        guard let choice = Choice(rawValue: name) else {
            let choices = argument?.choices ?? []
            throw UsageError(
                message:
                    "unknown argument '\(Excerpt.of(name))': expected \(SpeciesError.alternatives(choices.map { "'\($0)'" }))"
                    + ArgumentParser.suggestion(for: name, among: choices),
                command: parsed.command)
        }
        return choice
    }

    /// Each global option, else its environment variable, else its default.
    private static func settings(_ parsed: ParsedArguments, _ environment: [String: String]) throws(UsageError)
        -> GlobalSettings
    {
        var settings = GlobalSettings()
        // Each --base-url adds to the list.
        settings.client.roots = try parsed.values(of: Options.baseURL, environment: environment).flatMap { $0 }
        if settings.client.roots.isEmpty { settings.client.roots = Options.baseURL.defaultValue }
        settings.client.timeout = try parsed.value(of: Options.timeout, environment: environment)
        settings.client.retries = try parsed.value(of: Options.retries, environment: environment)
        settings.client.maxResponseSize = try parsed.value(of: Options.maxResponseSize, environment: environment)
        settings.client.serial = parsed.isSet(Options.serial, environment: environment)
        settings.client.fallback = !parsed.isSet(Options.noFallback, environment: environment)
        if !parsed.isSet(Options.noCache, environment: environment) {
            settings.client.cache.directory = ResponseCache.defaultDirectory(environment: environment)
        }
        settings.client.cache.maxAge = try parsed.value(of: Options.maxAge, environment: environment)
        settings.client.cache.mode =
            parsed.isSet(Options.offline, environment: environment)
            ? .offline
            : parsed.isSet(Options.refresh, environment: environment) ? .refresh : .normal
        settings.colorMode = try parsed.value(of: Options.color, environment: environment)
        settings.quiet = parsed.isSet(Options.quiet, environment: environment)
        settings.verbose = parsed.isSet(Options.verbose, environment: environment)
        return settings
    }

    private static func expectArguments(_ parsed: ParsedArguments, atMost count: Int) throws(UsageError) {
        guard parsed.positionals.count > count else { return }
        throw UsageError(
            message: "unexpected argument '\(Excerpt.of(parsed.positionals[count]))'", command: parsed.command)
    }
}
