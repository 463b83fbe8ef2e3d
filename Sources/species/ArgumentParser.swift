import SpeciesKit

/// The words of a command line, sorted once: the command they name, each
/// option's values in the order given, the flags, the positional arguments,
/// and whether `--help` or `--version` was asked for.
struct ParsedArguments: Equatable {
    fileprivate(set) var command: CommandDefinition
    /// `Options.help` or `Options.version`, which stand for the whole line.
    fileprivate(set) var asked: OptionDefinition?
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
/// `--name=value`, flags, and `--` before arguments that begin with a dash.
/// The command is the first word that is neither an option nor an option's
/// value. Before it stand the global options, which every command takes
/// there, as git's, docker's and kubectl's do; after it, the command's own
/// and the global ones it takes (a global one it does not take is said not
/// to apply to it). Every value of a repeated option is kept; of options
/// declared exclusive, at most one may be given. `--help` and `--version`
/// are options of every command, and stand for the whole line: the first
/// mistake is said only when neither is given.
struct ArgumentParser {
    let root: CommandDefinition
    let subcommands: [CommandDefinition]
    /// Global options of which at most one may be given.
    let globalExclusive: [[OptionDefinition]]

    func parse(_ arguments: [String]) throws(CommandError) -> ParsedArguments {
        var parsed = ParsedArguments(command: root)
        var index = 0
        var onlyArguments = false
        // The first mistake, said unless `--help` or `--version` follows it.
        var mistake: CommandError?
        while index < arguments.count {
            let word = arguments[index]
            index += 1
            if !onlyArguments, word == "--" {
                onlyArguments = true
            } else if onlyArguments || !Self.isOption(word) {
                guard parsed.command == root, !onlyArguments else {
                    if parsed.asked == nil { parsed.append(word) }
                    continue
                }
                guard let command = subcommands.first(where: { $0.name == word }) else {
                    mistake = mistake ?? .unknownSubcommand(word, among: subcommands, of: root)
                    continue
                }
                parsed.command = command
            } else if parsed.asked == nil {
                do {
                    index = try option(word, at: index, of: arguments, into: &parsed)
                } catch {
                    mistake = mistake ?? error
                }
            }
        }
        guard parsed.asked == nil else { return parsed }
        if let mistake { throw mistake }
        for group in parsed.command.exclusive + globalExclusive {
            let given = group.filter(parsed.has)
            if given.count > 1 {
                throw .usage("'\(given[0].key)' and '\(given[1].key)' cannot be used together", of: parsed.command)
            }
        }
        return parsed
    }

    /// Reads the option `word` (and its value, from the next word unless it
    /// is inline) into `parsed`; the index of the word after it.
    private func option(_ word: String, at index: Int, of arguments: [String], into parsed: inout ParsedArguments)
        throws(CommandError) -> Int
    {
        let command = parsed.command
        let options = command == root ? root.options : command.options + command.globalOptions
        let (name, inlineValue) = Self.splitInlineValue(word)
        guard let option = options.first(where: { $0.names.contains(name) }) else {
            if let global = root.options.first(where: { $0.names.contains(name) }) {
                throw .usage("'\(global.key)' does not apply to '\(command.path)'", of: command)
            }
            let names = options.flatMap(\.names).filter { $0.hasPrefix("--") }
            throw .usage(
                "unknown option '\(Excerpt.of(name))'" + CommandError.suggestion(for: name, among: names), of: command)
        }
        if option == Options.help || option == Options.version {
            parsed.asked = option
            return index
        }
        switch (option.takesValue, inlineValue) {
        case (true, let value?):
            parsed.set(option, to: value)
            return index
        case (true, nil):
            guard index < arguments.count, Self.canBeValue(arguments[index]) else {
                throw .usage("missing value for '\(option.synopsis)'", of: command)
            }
            parsed.set(option, to: arguments[index])
            return index + 1
        case (false, nil):
            parsed.set(option)
            return index
        case (false, _?):
            throw .usage("option '\(Excerpt.of(name))' does not take a value", of: command)
        }
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
