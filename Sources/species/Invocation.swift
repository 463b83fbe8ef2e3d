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
}

/// The global options, after the environment and the defaults.
struct GlobalSettings: Equatable {
    var root = APIRoot.swapi
    var connection = ConnectionSettings()
    var cache = CacheSettings(directory: nil)
    var colorMode = Terminal.ColorMode.auto
    var quiet = false
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
            self = .list(try Self.listCommand(parsed), try Self.settings(parsed, environment))
        case Commands.show:
            self = .show(try Self.showCommand(parsed), try Self.settings(parsed, environment))
        case Commands.cache:
            self = .cache(try Self.cacheCommand(parsed, environment))
        case Commands.completions:
            self = .completions(try Self.choice(of: parsed, named: "bash | zsh | fish"))
        case Commands.completeNames:
            self = .completeNames(try Self.settings(parsed, environment))
        case Commands.manualPage:
            self = .manualPage
        case Commands.helpCommand:
            self = .help(try Self.helpText(asked: parsed))
        default:
            throw UsageError(message: "missing subcommand", command: command)
        }
    }

    static func helpText(for command: CommandDefinition) -> String {
        HelpFormatter.render(
            command,
            subcommands: command == Commands.root ? Commands.visibleSubcommands : [],
            globalOptions: Commands.global)
    }

    /// `species help [<subcommand>]`.
    private static func helpText(asked parsed: ParsedArguments) throws(UsageError) -> String {
        try expectArguments(parsed, atMost: 1)
        guard let name = parsed.positionals.first else { return helpText(for: Commands.root) }
        guard let command = Commands.visibleSubcommands.first(where: { $0.name == name }) else {
            let names = Commands.visibleSubcommands.map(\.name)
            throw UsageError(
                message: "unknown subcommand '\(name)'" + ArgumentParser.suggestion(for: name, among: names), command: parsed.command)
        }
        return helpText(for: command)
    }

    private static func listCommand(_ parsed: ParsedArguments) throws(UsageError) -> ListCommand {
        try expectArguments(parsed, atMost: 0)
        try exclusive(Commands.page, Commands.allPages, in: parsed)
        try exclusive(Commands.listJSON, Commands.jsonl, in: parsed)
        try exclusive(Commands.listJSON, Commands.format, in: parsed)
        try exclusive(Commands.jsonl, Commands.format, in: parsed)
        for format in [Commands.listJSON, Commands.jsonl] {
            try exclusive(format, Commands.fields, in: parsed)
        }
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
        command.format = parsed.has(Commands.listJSON) ? .json : parsed.has(Commands.jsonl) ? .jsonl : .table
        if let text = parsed.value(Commands.format) {
            switch text {
            case "table": command.format = .table
            case "tsv": command.format = .tsv
            default: throw invalid(text, for: Commands.format, expected: "table or tsv", in: parsed)
            }
        }
        if let text = parsed.value(Commands.sort) {
            guard let order = SpeciesOrder(rawValue: text) else {
                throw invalid(text, for: Commands.sort, expected: "name, height or lifespan", in: parsed)
            }
            command.order = order
        }
        command.reversed = parsed.has(Commands.reverse)
        if let text = parsed.value(Commands.fields) {
            let names = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            let fields = names.compactMap(SpeciesField.init(named:))
            guard fields.count == names.count else {
                let unknown = names.first { SpeciesField(named: $0) == nil } ?? text
                throw invalid(
                    unknown, for: Commands.fields,
                    expected: "fields among \(SpeciesField.allCases.map(\.rawValue).joined(separator: ", "))", in: parsed)
            }
            command.fields = fields
        }
        return command
    }

    /// The one argument of `completions`, `cache`: one of `choices` ("a | b").
    private static func choice<Choice: RawRepresentable<String>>(
        of parsed: ParsedArguments, named choices: String
    ) throws(UsageError) -> Choice {
        try expectArguments(parsed, atMost: 1)
        guard let name = parsed.positionals.first else {
            throw UsageError(message: "missing argument '\(choices)'", command: parsed.command)
        }
        guard let choice = Choice(rawValue: name) else {
            let quoted = choices.split(separator: " | ").map { "'\($0)'" }
            throw UsageError(
                message: "unknown argument '\(name)': expected \(quoted.dropLast().joined(separator: ", ")) or \(quoted.last ?? "")",
                command: parsed.command)
        }
        return choice
    }

    private static func showCommand(_ parsed: ParsedArguments) throws(UsageError) -> ShowCommand {
        let query = parsed.positionals.joined(separator: " ").trimmingCharacters(in: .whitespaces)
        guard !query.isEmpty else {
            throw UsageError(message: "missing argument '<name | id | url>'", command: parsed.command)
        }
        return ShowCommand(query: query, json: parsed.has(Commands.showJSON), related: parsed.has(Commands.related))
    }

    private static func cacheCommand(_ parsed: ParsedArguments, _ environment: [String: String]) throws(UsageError) -> CacheCommand {
        let action: CacheCommand.Action = try choice(of: parsed, named: "info | clear")
        return CacheCommand(action, directory: ResponseCache.defaultDirectory(environment: environment))
    }

    /// Each global option, else its environment variable, else its default.
    private static func settings(_ parsed: ParsedArguments, _ environment: [String: String]) throws(UsageError) -> GlobalSettings {
        var settings = GlobalSettings()
        if let root = try value(of: Commands.baseURL, or: "SWAPI_BASE_URL", parsed, environment, expected: "an http or https URL", APIRoot.init) {
            settings.root = root
        }
        if let timeout = try value(of: Commands.timeout, or: "SWAPI_TIMEOUT", parsed, environment, expected: "a number of seconds from 0.001 to 86400", { text in
            Double(text).flatMap { (0.001...86400).contains($0) ? $0 : nil }
        }) {
            settings.connection.timeout = timeout
        }
        if let retries = try value(of: Commands.retries, parsed, environment, expected: "a whole number from 0 to 100", { text in
            Int(text).flatMap { (0...100).contains($0) ? $0 : nil }
        }) {
            settings.connection.retries = retries
        }
        if let size = try value(of: Commands.maxResponseSize, parsed, environment, expected: "a whole number of bytes from 1 up", { text in
            Int(text).flatMap { $0 >= 1 ? $0 : nil }
        }) {
            settings.connection.maxResponseSize = size
        }
        settings.connection.serial = parsed.has(Commands.serial)
        try exclusive(Commands.refresh, Commands.offline, in: parsed)
        try exclusive(Commands.refresh, Commands.noCache, in: parsed)
        if !parsed.has(Commands.noCache) {
            settings.cache.directory = ResponseCache.defaultDirectory(environment: environment)
        }
        if let maxAge = try value(of: Commands.maxAge, or: "SWAPI_MAX_AGE", parsed, environment, expected: "a number of seconds from 0 up", { text in
            Double(text).flatMap { $0 >= 0 && $0.isFinite ? $0 : nil }
        }) {
            settings.cache.maxAge = maxAge
        }
        settings.cache.mode = parsed.has(Commands.offline) ? .offline : parsed.has(Commands.refresh) ? .refresh : .normal
        if let text = parsed.value(Commands.color) {
            guard let mode = Terminal.ColorMode(rawValue: text) else {
                throw invalid(text, for: Commands.color, expected: "auto, always or never", in: parsed)
            }
            settings.colorMode = mode
        }
        settings.quiet = parsed.has(Commands.quiet)
        return settings
    }

    /// The option's value, else the environment variable's (when it is set
    /// and not empty), converted by `convert`; a value it rejects is a usage
    /// error.
    private static func value<Value>(
        of option: OptionDefinition, or variable: String? = nil, _ parsed: ParsedArguments,
        _ environment: [String: String], expected: String, _ convert: (String) -> Value?
    ) throws(UsageError) -> Value? {
        if let text = parsed.value(option) {
            guard let value = convert(text) else { throw invalid(text, for: option, expected: expected, in: parsed) }
            return value
        }
        guard let variable, let text = environment[variable], !text.isEmpty else { return nil }
        guard let value = convert(text) else {
            throw UsageError(message: "invalid value '\(text)' for \(variable): expected \(expected)", command: parsed.command)
        }
        return value
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
