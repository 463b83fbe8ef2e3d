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
}

/// The global options, after the environment and the defaults.
struct GlobalSettings: Equatable {
    var client = SpeciesClient.Configuration()
    var colorMode = ColorMode.auto
    var quiet = false
}

extension Invocation {
    static let parser = ArgumentParser(
        root: Commands.root, subcommands: Commands.subcommands, globalOptions: Commands.global)

    init(arguments: [String], environment: [String: String]) throws(UsageError) {
        let (command, _) = try Self.parser.subcommand(in: arguments)
        let beforeSeparator = arguments.prefix { $0 != "--" }
        if arguments.isEmpty || beforeSeparator.contains(where: Commands.help.names.contains) {
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
            let settings = try Self.settings(parsed, environment)
            self = .show(try Self.showCommand(parsed, root: settings.client.root), settings)
        case Commands.cache:
            self = .cache(CacheCommand(try Self.choice(of: parsed), directory: ResponseCache.defaultDirectory(environment: environment)))
        case Commands.completions:
            self = .completions(try Self.choice(of: parsed))
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
                message: "unknown subcommand '\(Excerpt.of(name))'" + ArgumentParser.suggestion(for: name, among: names),
                command: parsed.command)
        }
        return helpText(for: command)
    }

    private static func listCommand(_ parsed: ParsedArguments) throws(UsageError) -> ListCommand {
        try expectArguments(parsed, atMost: 0)
        try exclusive(Commands.page, Commands.allPages, in: parsed)
        let formats = [Commands.format, Commands.listJSON, Commands.jsonl].filter(parsed.has)
        if formats.count > 1 {
            throw UsageError(message: "'\(formats[0].key)' and '\(formats[1].key)' cannot be used together", command: parsed.command)
        }
        var command = ListCommand()
        if let page = try value(of: Commands.page, parsed, expected: "a whole number from 1 up", { Int($0).flatMap { $0 >= 1 ? $0 : nil } }) {
            command.page = page
        }
        if let search = parsed.value(Commands.search) {
            guard !search.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw invalid(search, for: Commands.search, expected: "some text", in: parsed)
            }
            command.search = search
        }
        command.allPages = parsed.has(Commands.allPages)
        command.format =
            parsed.has(Commands.listJSON) ? .json : parsed.has(Commands.jsonl) ? .jsonl
            : try chosen(Commands.format, parsed) { OutputFormat(rawValue: $0) } ?? .table
        if command.format == .json || command.format == .jsonl, parsed.has(Commands.fields) {
            let option = formats.first ?? Commands.format
            throw UsageError(
                message: "'--fields' picks the columns of a table or TSV; '\(option.key)' prints every field",
                command: parsed.command)
        }
        command.order = try chosen(Commands.sort, parsed) { SpeciesOrder(rawValue: $0) }
        command.reversed = parsed.has(Commands.reverse)
        if let fields = try chosen(Commands.fields, parsed, { SpeciesField(named: $0) }, list: true) {
            command.fields = fields
        }
        return command
    }

    private static func showCommand(_ parsed: ParsedArguments, root: APIRoot) throws(UsageError) -> ShowCommand {
        let text = parsed.positionals.joined(separator: " ").trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else {
            throw UsageError(message: "missing argument '<name | id | url>'", command: parsed.command)
        }
        let query: SpeciesQuery
        do {
            query = try SpeciesQuery(text, root: root)
        } catch {
            throw UsageError(message: error.message, command: parsed.command)
        }
        return ShowCommand(query: query, json: parsed.has(Commands.showJSON), related: parsed.has(Commands.related))
    }

    /// The one argument of `completions` and `cache`, among its choices.
    private static func choice<Choice: RawRepresentable<String>>(of parsed: ParsedArguments) throws(UsageError) -> Choice {
        let argument = parsed.command.arguments.first
        try expectArguments(parsed, atMost: 1)
        guard let name = parsed.positionals.first else {
            throw UsageError(message: "missing argument '\(argument?.label ?? "")'", command: parsed.command)
        }
        guard let choice = Choice(rawValue: name) else {
            let quoted = (argument?.choices ?? []).map { "'\($0)'" }
            throw UsageError(
                message: "unknown argument '\(Excerpt.of(name))': expected \(OptionDefinition.listed(quoted))",
                command: parsed.command)
        }
        return choice
    }

    /// Each global option, else its environment variable, else its default.
    private static func settings(_ parsed: ParsedArguments, _ environment: [String: String]) throws(UsageError) -> GlobalSettings {
        var settings = GlobalSettings()
        if let root = try value(
            of: Commands.baseURL, or: "SWAPI_BASE_URL", parsed, environment, shown: Excerpt.redactingCredentials,
            expected: { APIRoot.problem(with: $0) ?? "" }, APIRoot.init)
        {
            settings.client.root = root
        }
        if let timeout = try value(of: Commands.timeout, or: "SWAPI_TIMEOUT", parsed, environment, expected: "a number of seconds from 0.001 to 86400", { text in
            Double(text).flatMap { (0.001...86400).contains($0) ? $0 : nil }
        }) {
            settings.client.timeout = timeout
        }
        if let retries = try value(of: Commands.retries, parsed, expected: "a whole number from 0 to 100", { text in
            Int(text).flatMap { (0...100).contains($0) ? $0 : nil }
        }) {
            settings.client.retries = retries
        }
        if let size = try value(of: Commands.maxResponseSize, parsed, expected: "a whole number of bytes from 1 to 1099511627776 (1 TiB)", { text in
            Int(text).flatMap { (1...1 << 40).contains($0) ? $0 : nil }
        }) {
            settings.client.maxResponseSize = size
        }
        settings.client.serial = parsed.has(Commands.serial)
        settings.client.fallback = !parsed.has(Commands.noFallback) && !["1", "true", "yes"].contains(environment["SWAPI_NO_FALLBACK"]?.lowercased() ?? "")
        try exclusive(Commands.refresh, Commands.offline, in: parsed)
        try exclusive(Commands.refresh, Commands.noCache, in: parsed)
        if !parsed.has(Commands.noCache) {
            settings.client.cache.directory = ResponseCache.defaultDirectory(environment: environment)
        }
        if let maxAge = try value(of: Commands.maxAge, or: "SWAPI_MAX_AGE", parsed, environment, expected: "a number of seconds from 0 up", { text in
            Double(text).flatMap { $0 >= 0 && $0.isFinite ? $0 : nil }
        }) {
            settings.client.cache.maxAge = maxAge
        }
        settings.client.cache.mode = parsed.has(Commands.offline) ? .offline : parsed.has(Commands.refresh) ? .refresh : .normal
        settings.colorMode = try chosen(Commands.color, parsed) { ColorMode(rawValue: $0) } ?? .auto
        settings.quiet = parsed.has(Commands.quiet)
        return settings
    }

    /// The value of an option with choices, made by `make` (which gives nil
    /// only where the choice is not one); a list when the option takes one.
    private static func chosen<Value>(
        _ option: OptionDefinition, _ parsed: ParsedArguments, _ make: (String) -> Value?
    ) throws(UsageError) -> Value? {
        try chosen(option, parsed, make, list: false)?.first
    }

    private static func chosen<Value>(
        _ option: OptionDefinition, _ parsed: ParsedArguments, _ make: (String) -> Value?, list: Bool
    ) throws(UsageError) -> [Value]? {
        guard let text = parsed.value(option) else { return nil }
        let words = list ? text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) } : [text]
        var values: [Value] = []
        for word in words {
            guard let value = make(word) else {
                let expected = (list ? "fields among " : "") + OptionDefinition.listed(option.choices)
                throw invalid(word, for: option, expected: expected, in: parsed)
            }
            values.append(value)
        }
        return values
    }

    /// The option's value, else the environment variable's (when it is set
    /// and not empty), converted by `convert`; a value it rejects is a usage
    /// error.
    private static func value<Value>(
        of option: OptionDefinition, or variable: String? = nil, _ parsed: ParsedArguments,
        _ environment: [String: String] = [:], expected: String, _ convert: (String) -> Value?
    ) throws(UsageError) -> Value? {
        try value(of: option, or: variable, parsed, environment, expected: { _ in expected }, convert)
    }

    /// `expected` says what a rejected text should have been; `shown`
    /// makes the text fit for a message.
    private static func value<Value>(
        of option: OptionDefinition, or variable: String? = nil, _ parsed: ParsedArguments,
        _ environment: [String: String] = [:], shown: (String) -> String = { $0 },
        expected: (String) -> String, _ convert: (String) -> Value?
    ) throws(UsageError) -> Value? {
        if let text = parsed.value(option) {
            guard let value = convert(text) else {
                throw invalid(shown(text), for: option, expected: expected(text), in: parsed)
            }
            return value
        }
        guard let variable, let text = environment[variable], !text.isEmpty else { return nil }
        guard let value = convert(text) else {
            throw UsageError(
                message: "invalid value '\(Excerpt.of(shown(text)))' for \(variable): expected \(expected(text))", command: parsed.command)
        }
        return value
    }

    private static func expectArguments(_ parsed: ParsedArguments, atMost count: Int) throws(UsageError) {
        guard parsed.positionals.count > count else { return }
        throw UsageError(message: "unexpected argument '\(Excerpt.of(parsed.positionals[count]))'", command: parsed.command)
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
        UsageError(message: "invalid value '\(Excerpt.of(value))' for '\(option.synopsis)': expected \(expected)", command: parsed.command)
    }
}
