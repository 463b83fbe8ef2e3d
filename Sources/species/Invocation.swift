import SpeciesKit

/// What a command line asks for, checked and typed.
enum Invocation: Equatable {
    case help(String)
    case version
    case list(ListCommand, root: APIRoot)
    case show(ShowCommand, root: APIRoot)
}

extension Invocation {
    static let parser = ArgumentParser(
        root: Commands.root, subcommands: Commands.subcommands, globalOptions: Commands.global)

    init(arguments: [String], environment: [String: String]) throws(UsageError) {
        let (command, _) = try Self.parser.subcommand(in: arguments)
        let beforeSeparator = arguments.prefix { $0 != "--" }
        if beforeSeparator.contains(where: Commands.help.names.contains) {
            self = .help(Self.helpText(for: command))
            return
        }
        let parsed = try Self.parser.parse(arguments)
        if parsed.has(Commands.version) {
            self = .version
            return
        }
        switch command {
        case Commands.list:
            self = .list(try Self.listCommand(parsed), root: try Self.root(parsed, environment))
        case Commands.show:
            self = .show(try Self.showCommand(parsed), root: try Self.root(parsed, environment))
        case Commands.helpCommand:
            self = .help(try Self.helpText(asked: parsed))
        default:
            throw UsageError(message: "missing subcommand", command: command)
        }
    }

    static func helpText(for command: CommandDefinition) -> String {
        HelpFormatter.render(
            command,
            subcommands: command == Commands.root ? Commands.subcommands : [],
            globalOptions: Commands.global)
    }

    /// `species help [<subcommand>]`.
    private static func helpText(asked parsed: ParsedArguments) throws(UsageError) -> String {
        try expectArguments(parsed, atMost: 1)
        guard let name = parsed.positionals.first else { return helpText(for: Commands.root) }
        guard let command = Commands.subcommands.first(where: { $0.name == name }) else {
            throw UsageError(message: "unknown subcommand '\(name)'", command: parsed.command)
        }
        return helpText(for: command)
    }

    private static func listCommand(_ parsed: ParsedArguments) throws(UsageError) -> ListCommand {
        try expectArguments(parsed, atMost: 0)
        try exclusive(Commands.page, Commands.allPages, in: parsed)
        try exclusive(Commands.json, Commands.jsonl, in: parsed)
        var command = ListCommand()
        if let text = parsed.value(Commands.page) {
            guard let page = Int(text), page >= 1 else {
                throw invalid(text, for: Commands.page, expected: "a whole number from 1 up", in: parsed)
            }
            command.page = page
        }
        if let search = parsed.value(Commands.search) {
            guard !search.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw invalid(search, for: Commands.search, expected: "some text", in: parsed)
            }
            command.search = search
        }
        command.allPages = parsed.has(Commands.allPages)
        command.format = parsed.has(Commands.json) ? .json : parsed.has(Commands.jsonl) ? .jsonl : .table
        return command
    }

    private static func showCommand(_ parsed: ParsedArguments) throws(UsageError) -> ShowCommand {
        let query = parsed.positionals.joined(separator: " ").trimmingCharacters(in: .whitespaces)
        guard !query.isEmpty else {
            throw UsageError(message: "missing argument '<name | id | url>'", command: parsed.command)
        }
        return ShowCommand(query: query, json: parsed.has(Commands.json))
    }

    /// `--base-url`, else `SWAPI_BASE_URL`, else SWAPI itself.
    private static func root(_ parsed: ParsedArguments, _ environment: [String: String]) throws(UsageError) -> APIRoot {
        if let text = parsed.value(Commands.baseURL) {
            guard let root = APIRoot(text) else {
                throw invalid(text, for: Commands.baseURL, expected: "an http or https URL", in: parsed)
            }
            return root
        }
        if let text = environment["SWAPI_BASE_URL"], !text.isEmpty {
            guard let root = APIRoot(text) else {
                throw UsageError(message: "SWAPI_BASE_URL is not an http or https URL: '\(text)'", command: parsed.command)
            }
            return root
        }
        return .swapi
    }

    private static func expectArguments(_ parsed: ParsedArguments, atMost count: Int) throws(UsageError) {
        guard parsed.positionals.count > count else { return }
        throw UsageError(message: "unexpected argument '\(parsed.positionals[count])'", command: parsed.command)
    }

    private static func exclusive(
        _ first: OptionDefinition, _ second: OptionDefinition, in parsed: ParsedArguments
    ) throws(UsageError) {
        guard parsed.has(first) && parsed.has(second) else { return }
        throw UsageError(message: "'\(first.key)' and '\(second.key)' cannot be used together", command: parsed.command)
    }

    private static func invalid(
        _ value: String, for option: OptionDefinition, expected: String, in parsed: ParsedArguments
    ) -> UsageError {
        UsageError(message: "invalid value '\(value)' for '\(option.synopsis)': expected \(expected)", command: parsed.command)
    }
}
