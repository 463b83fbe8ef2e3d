import SpeciesKit

/// The words of a command line, sorted into option values, flags and
/// positional arguments for one command.
struct ParsedArguments: Equatable {
    let command: CommandDefinition
    /// Each option's values, in the order given.
    private var values: [String: [String]] = [:]
    private var flags: Set<String> = []
    private(set) var positionals: [String] = []

    init(command: CommandDefinition) {
        self.command = command
    }

    func values(_ option: OptionDefinition) -> [String] { values[option.key] ?? [] }
    func has(_ option: OptionDefinition) -> Bool { flags.contains(option.key) || values[option.key] != nil }

    fileprivate mutating func set(_ option: OptionDefinition, to value: String) {
        values[option.key, default: []].append(value)
    }
    fileprivate mutating func set(_ option: OptionDefinition) { flags.insert(option.key) }
    fileprivate mutating func append(_ positional: String) { positionals.append(positional) }
}

/// A small parser in swift-argument-parser's manner: `--name value`,
/// `--name=value`, flags, `--` before arguments that begin with a dash, and
/// options anywhere on the line. Every value of a repeated option is kept;
/// of options declared exclusive, at most one may be given. A command takes
/// its own options and the global ones it names; another is refused, and a
/// global option it does not take is said not to apply to it.
struct ArgumentParser {
    let root: CommandDefinition
    let subcommands: [CommandDefinition]
    /// Global options of which at most one may be given.
    let globalExclusive: [[OptionDefinition]]

    /// The subcommand named on the line (the first word that is neither an
    /// option nor an option's value) and where it stands; the root command
    /// when there is none.
    func subcommand(in arguments: [String]) throws(UsageError) -> (command: CommandDefinition, index: Int?) {
        let allOptions = root.options + subcommands.flatMap(\.options)
        let takingValues = Set(allOptions.filter(\.takesValue).flatMap(\.names))
        var index = 0
        while index < arguments.count {
            let word = arguments[index]
            if word == "--" { break }
            if Self.isOption(word) {
                index += takingValues.contains(word) ? 2 : 1
                continue
            }
            guard let command = subcommands.first(where: { $0.name == word }) else {
                let names = subcommands.filter { !$0.hidden }.map(\.name)
                throw UsageError(
                    message: "unknown subcommand '\(Excerpt.of(word))'" + Self.suggestion(for: word, among: names),
                    command: root)
            }
            return (command, index)
        }
        return (root, nil)
    }

    func parse(_ arguments: [String]) throws(UsageError) -> ParsedArguments {
        let (command, commandIndex) = try subcommand(in: arguments)
        let options = command.options + command.globalOptions
        var parsed = ParsedArguments(command: command)
        var index = 0
        var onlyArgumentsRemain = false
        while index < arguments.count {
            let word = arguments[index]
            defer { index += 1 }
            if index == commandIndex { continue }
            if onlyArgumentsRemain || !Self.isOption(word) {
                parsed.append(word)
                continue
            }
            if word == "--" {
                onlyArgumentsRemain = true
                continue
            }
            let (name, inlineValue) = Self.splitInlineValue(word)
            guard let option = options.first(where: { $0.names.contains(name) }) else {
                if let global = root.options.first(where: { $0.names.contains(name) }) {
                    throw UsageError(message: "'\(global.key)' does not apply to '\(command.path)'", command: command)
                }
                let names = options.flatMap(\.names).filter { $0.hasPrefix("--") }
                throw UsageError(
                    message: "unknown option '\(Excerpt.of(name))'" + Self.suggestion(for: name, among: names),
                    command: command)
            }
            switch (option.takesValue, inlineValue) {
            case (true, let value?):
                parsed.set(option, to: value)
            case (true, nil):
                guard index + 1 < arguments.count, Self.canBeValue(arguments[index + 1]) else {
                    throw UsageError(message: "missing value for '\(option.synopsis)'", command: command)
                }
                index += 1
                parsed.set(option, to: arguments[index])
            case (false, nil):
                parsed.set(option)
            case (false, _?):
                throw UsageError(message: "option '\(Excerpt.of(name))' does not take a value", command: command)
            }
        }
        for group in command.exclusive + globalExclusive {
            let given = group.filter(parsed.has)
            if given.count > 1 {
                throw UsageError(
                    message: "'\(given[0].key)' and '\(given[1].key)' cannot be used together", command: command)
            }
        }
        return parsed
    }

    /// "; did you mean 'list'?", for the closest name; nothing when none is close.
    static func suggestion(for word: String, among names: [String]) -> String {
        EditDistance.closest(to: word, among: names, limit: 1).first.map { "; did you mean '\($0)'?" } ?? ""
    }

    private static func isOption(_ word: String) -> Bool {
        word.hasPrefix("-") && word != "-"
    }

    /// A value may not look like an option, but may be a negative number,
    /// so that `--page -1` is reported as a bad value, not a missing one.
    private static func canBeValue(_ word: String) -> Bool {
        !isOption(word) || word.dropFirst().first?.isNumber == true
    }

    /// `--name=value` gives the name and the value; anything else is a name.
    private static func splitInlineValue(_ word: String) -> (String, String?) {
        guard word.hasPrefix("--"), let equals = word.firstIndex(of: "=") else { return (word, nil) }
        return (String(word[..<equals]), String(word[word.index(after: equals)...]))
    }
}
