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
    case complete(CompleteCommand)
    case selfCheck
}

extension Invocation {
    static let parser = ArgumentParser(
        root: Commands.root, subcommands: Commands.subcommands, globalExclusive: GlobalSettings.exclusive)

    /// `--help` and `--version` stand for the whole line; otherwise every
    /// global option given, or set in the environment, is read, and so
    /// checked, whether or not the command needs its value, and then the
    /// command's own.
    init(arguments: [String], environment: [String: String]) throws(CommandError) {
        // The words after `__complete <shell>` are what a shell typed, not options.
        if arguments.first == Commands.complete.name, arguments.count > 1, let shell = Shell(rawValue: arguments[1]) {
            self = .complete(CompleteCommand(shell: shell, words: Array(arguments.dropFirst(2))))
            return
        }
        let parsed = try Self.parser.parse(arguments)
        let command = parsed.command
        // Asked only for help: other commands need no look at the terminal here.
        var helpWidth: Int { Terminal.width(environment: environment) ?? HelpFormatter.standardWidth }
        if arguments.isEmpty || parsed.asked == Options.help {
            self = .help(Self.helpText(for: command, width: helpWidth))
            return
        }
        if parsed.asked == Options.version {
            self = .version
            return
        }
        // Read for every command, so checked; those that ask no service
        // ignore them (docs/cli.md, "Global options and environment").
        let defaults = GlobalSettings.defaults(environment: environment)
        let settings = try GlobalSettings.options.read(parsed, environment, into: defaults)
        // `show` joins its words; the others take as many as they list.
        if command != Commands.show { try Self.expectArguments(parsed, atMost: command.arguments.count) }
        switch command {
        case Commands.list:
            self = .list(try ListCommand.options.read(parsed, environment, into: ListCommand()), settings)
        case Commands.show:
            let query = try Self.query(parsed, roots: settings.client.roots)
            self = .show(try ShowCommand.options.read(parsed, environment, into: ShowCommand(query: query)), settings)
        case Commands.cache where parsed.positionals.isEmpty:
            // A group alone is its help, as gh's and kubectl's are.
            self = .help(Self.helpText(for: command, width: helpWidth))
        case Commands.cache:
            // Its own folder, whatever `--no-cache` says.
            self = .cache(CacheCommand(action: try Self.choice(of: parsed), directory: defaults.client.cache.directory))
        case Commands.completions: self = .completions(try Self.choice(of: parsed))
        case Commands.selfCheck: self = .selfCheck
        case Commands.helpCommand: self = .help(try Self.helpText(asked: parsed, width: helpWidth))
        default: throw .usage(.missingSubcommand, of: command)
        }
    }

    static func helpText(for command: CommandDefinition, width: Int = HelpFormatter.standardWidth) -> String {
        HelpFormatter(width: width).render(HelpSection.help(for: command))
    }

    /// `species help [<subcommand>]`.
    private static func helpText(asked parsed: ParsedArguments, width: Int) throws(CommandError) -> String {
        guard let name = parsed.positionals.first else { return helpText(for: Commands.root, width: width) }
        guard let command = Commands.visibleSubcommands.first(where: { $0.name == name }) else {
            throw .usage(.unknownSubcommand(name, among: Commands.visibleSubcommands), of: parsed.command)
        }
        return helpText(for: command, width: width)
    }

    /// The species `show` asks for: its words, joined.
    private static func query(_ parsed: ParsedArguments, roots: [APIRoot]) throws(CommandError) -> SpeciesQuery {
        let text = parsed.positionals.joined(separator: " ").trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { throw .usage(.missingArgument("<name | id | url>"), of: parsed.command) }
        do { return try SpeciesQuery(text, roots: roots) } catch {
            throw CommandError(error.description, .usage, usage: parsed.command)
        }
    }

    /// The one argument of `completions` and `cache`, among its choices.
    private static func choice<Choice: RawRepresentable<String> & CaseIterable>(of parsed: ParsedArguments)
        throws(CommandError) -> Choice
    {
        guard let name = parsed.positionals.first else {
            throw .usage(.missingArgument(parsed.command.arguments.first?.label ?? ""), of: parsed.command)
        }
        do { return try Read.choice(name) } catch { throw .usage(.unknownArgument(name, error), of: parsed.command) }
    }

    private static func expectArguments(_ parsed: ParsedArguments, atMost count: Int) throws(CommandError) {
        guard parsed.positionals.count > count else { return }
        throw .usage(.unexpectedArgument(parsed.positionals[count]), of: parsed.command)
    }
}
