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

extension Invocation {
    static let parser = ArgumentParser(
        root: Commands.root, subcommands: Commands.subcommands, globalExclusive: GlobalSettings.exclusive)

    /// `--help` and `--version` stand for the whole line, wherever they
    /// are; otherwise every option the command takes is read, and checked,
    /// whether or not the command needs its value.
    init(arguments: [String], environment: [String: String]) throws(UsageError) {
        let (command, _) = try Self.parser.subcommand(in: arguments)
        let beforeSeparator = arguments.prefix { $0 != "--" }
        // Asked only for help: other commands need no look at the terminal here.
        var helpWidth: Int { Terminal.width(environment: environment) ?? HelpFormatter.standardWidth }
        if arguments.isEmpty || beforeSeparator.contains(where: Options.help.names.contains) {
            self = .help(Self.helpText(for: command, width: helpWidth))
            return
        }
        if beforeSeparator.contains(where: Options.version.names.contains) {
            self = .version
            return
        }
        let parsed = try Self.parser.parse(arguments)
        let settings = try GlobalSettings.options.filter { command.globalOptions.contains($0.definition) }
            .read(parsed, environment, into: .defaults(environment: environment))
        switch command {
        case Commands.list:
            try Self.expectArguments(parsed, atMost: 0)
            self = .list(try ListCommand.options.read(parsed, environment, into: ListCommand()), settings)
        case Commands.show:
            let query = try Self.query(parsed, roots: settings.client.roots)
            self = .show(try ShowCommand.options.read(parsed, environment, into: ShowCommand(query: query)), settings)
        case Commands.cache:
            let directory = ResponseCache.defaultDirectory(environment: environment)
            self = .cache(CacheCommand(try Self.choice(of: parsed), directory: directory))
        case Commands.completions:
            self = .completions(try Self.choice(of: parsed))
        case Commands.completeNames:
            try Self.expectArguments(parsed, atMost: 0)
            self = .completeNames(settings)
        case Commands.manualPage:
            try Self.expectArguments(parsed, atMost: 0)
            self = .manualPage
        case Commands.selfCheck:
            try Self.expectArguments(parsed, atMost: 0)
            self = .selfCheck
        case Commands.helpCommand:
            self = .help(try Self.helpText(asked: parsed, width: helpWidth))
        default:
            throw UsageError(message: "missing subcommand", command: command)
        }
    }

    static func helpText(for command: CommandDefinition, width: Int = HelpFormatter.standardWidth) -> String {
        HelpFormatter(width: width).render(
            command, subcommands: command == Commands.root ? Commands.visibleSubcommands : [])
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

    /// The species `show` asks for: its words, joined.
    private static func query(_ parsed: ParsedArguments, roots: [APIRoot]) throws(UsageError) -> SpeciesQuery {
        let text = parsed.positionals.joined(separator: " ").trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else {
            throw UsageError(message: "missing argument '<name | id | url>'", command: parsed.command)
        }
        do {
            return try SpeciesQuery(text, roots: roots)
        } catch {
            throw UsageError(message: error.description, command: parsed.command)
        }
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

    private static func expectArguments(_ parsed: ParsedArguments, atMost count: Int) throws(UsageError) {
        guard parsed.positionals.count > count else { return }
        throw UsageError(
            message: "unexpected argument '\(Excerpt.of(parsed.positionals[count]))'", command: parsed.command)
    }
}
