import SpeciesKit

/// The words of a command line, sorted once: the command they name, each
/// option given with its value, in the order given, the positional
/// arguments, and whether `--help` or `--version` was asked for.
struct ParsedArguments: Equatable {
    var command: CommandDefinition
    /// `Options.help` or `Options.version`, which stand for the whole line.
    var asked: OptionDefinition?
    /// Each option as it was given, in order, with its value (nil for a flag).
    var occurrences: [Occurrence] = []
    var positionals: [String] = []

    struct Occurrence: Equatable {
        let option: OptionDefinition
        let value: String?
    }

    func has(_ option: OptionDefinition) -> Bool { occurrences.contains { $0.option == option } }
}

/// The reading of a command line, in getopt's and swift-argument-parser's
/// manner: `--name value`, `--name=value`, flags, short forms that join
/// (`-qa`, `-n5`, `-ojson`, `-an 5`), and `--` before arguments that begin
/// with a dash. The command is the first word that is neither an option nor
/// an option's value. Before it stand the global options, which every
/// command takes there, as git's, docker's and kubectl's do; after it, the
/// command's own and the global ones it takes. Parsing and completion read
/// the line by one walk (`walk`).
struct ArgumentParser {
    let root: CommandDefinition
    let subcommands: [CommandDefinition]
    /// Global options of which at most one may be given: they contradict
    /// each other.
    let globalExclusive: [[OptionDefinition]]

    /// What the walk meets, word by word.
    enum Event {
        case command(CommandDefinition)
        case option(OptionDefinition, value: String?)
        case argument(String)
        case problem(UsageProblem)
    }

    /// Walks `words`, handing each event to `handle`; at the end, the
    /// command reached, and the option whose value the next word would be.
    @discardableResult func walk(_ words: [String], _ handle: (Event, CommandDefinition) -> Void) -> (
        command: CommandDefinition, pending: OptionDefinition?
    ) {
        var command = root
        var pending: OptionDefinition?
        var onlyArguments = false
        for (index, word) in words.enumerated() {
            if let option = pending {
                pending = nil
                if !Self.isOption(word) || word.dropFirst().first?.isNumber == true {
                    handle(.option(option, value: word), command)
                    continue
                }
                handle(.problem(.missingValue(option)), command)
            }
            if !onlyArguments, word == "--" {
                onlyArguments = true
            } else if onlyArguments || !Self.isOption(word) {
                if command == root, !onlyArguments {
                    if let named = subcommands.first(where: { $0.name == word }) {
                        command = named
                        handle(.command(named), command)
                    } else {
                        let following = words[(index + 1)...].prefix { !Self.isOption($0) }
                        handle(
                            .problem(.unknownSubcommand(word, following: Array(following), among: subcommands)), command
                        )
                    }
                } else {
                    handle(.argument(word), command)
                }
            } else if word.hasPrefix("--") {
                let (name, value) = Self.splitInlineValue(word)
                switch lookUp(name, in: command) {
                case .failure(let problem): handle(.problem(problem), command)
                case .success(let option) where option.takesValue && value == nil: pending = option
                case .success(let option) where !option.takesValue && value != nil:
                    handle(.problem(.takesNoValue(name)), command)
                case .success(let option): handle(.option(option, value: value), command)
                }
            } else {
                // A group of short options: flags, then at most one that
                // takes a value, the rest of the word or the next one.
                var letters = Substring(word.dropFirst())
                while let letter = letters.popFirst() {
                    switch lookUp("-\(letter)", in: command) {
                    case .failure(let problem):
                        handle(.problem(problem), command)
                        letters = ""
                    case .success(let option) where option.takesValue:
                        if letters.isEmpty {
                            pending = option
                        } else {
                            handle(.option(option, value: String(letters)), command)
                        }
                        letters = ""
                    case .success where letters.first == "=":
                        // `-V=1`: a value given to a flag, as `--version=1`.
                        handle(.problem(.takesNoValue("-\(letter)")), command)
                        letters = ""
                    case .success(let option): handle(.option(option, value: nil), command)
                    }
                }
            }
        }
        return (command, pending)
    }

    /// The options `command` takes after its name (the root: before any).
    func options(of command: CommandDefinition) -> [OptionDefinition] {
        guard command != root else { return root.options }
        return (command.options + root.options.filter { command.asksServices || $0.everywhere }).uniqued()
    }

    /// The option named `name` in `command`, or why there is none.
    private func lookUp(_ name: String, in command: CommandDefinition) -> Result<OptionDefinition, UsageProblem> {
        if let option = options(of: command).first(where: { $0.names.contains(name) }) { return .success(option) }
        if let global = root.options.first(where: { $0.names.contains(name) }) {
            return .failure(.notApplicable(global, command))
        }
        if command == root, let owner = subcommands.first(where: { $0.options.contains { $0.names.contains(name) } }) {
            return .failure(.belongsTo(name, owner))
        }
        return .failure(
            .unknownOption(name, among: options(of: command).flatMap(\.names).filter { $0.hasPrefix("--") }))
    }

    func parse(_ arguments: [String]) throws(CommandError) -> ParsedArguments {
        var parsed = ParsedArguments(command: root)
        // The first mistake, said unless `--help` or `--version` is asked.
        var mistake: CommandError?
        let end = walk(arguments) { event, command in
            switch event {
            case .command(let named): parsed.command = named
            case .option(let option, _) where option == Options.help || option == Options.version:
                parsed.asked = parsed.asked ?? option
            case .option(let option, let value): parsed.occurrences.append(.init(option: option, value: value))
            case .argument(let word): parsed.positionals.append(word)
            case .problem(let problem): mistake = mistake ?? .usage(problem, of: command)
            }
        }
        if let pending = end.pending { mistake = mistake ?? .usage(.missingValue(pending), of: end.command) }
        guard parsed.asked == nil else { return parsed }
        if let mistake { throw mistake }
        for group in parsed.command.exclusive + globalExclusive {
            let given = group.filter(parsed.has)
            if given.count > 1 { throw .usage(.conflict(given[0], given[1]), of: parsed.command) }
        }
        return parsed
    }

    private static func isOption(_ word: String) -> Bool { word.hasPrefix("-") && word != "-" }

    /// `--name=value` gives the name and the value; anything else is a name.
    private static func splitInlineValue(_ word: String) -> (String, String?) {
        guard let equals = word.firstIndex(of: "=") else { return (word, nil) }
        return (String(word[..<equals]), String(word[word.index(after: equals)...]))
    }
}

/// A mistake on the command line, as a value: its one sentence is made in
/// one place (`message`), as swift-argument-parser's `ParserError` is.
enum UsageProblem: Error, Equatable {
    case unknownOption(String, among: [String])
    /// A word that is no command, and the words after it up to an option.
    case unknownSubcommand(String, following: [String] = [], among: [CommandDefinition])
    /// A global option that means nothing after this command's name.
    case notApplicable(OptionDefinition, CommandDefinition)
    /// An option of a command, given before the command's name.
    case belongsTo(String, CommandDefinition)
    case missingValue(OptionDefinition)
    case takesNoValue(String)
    case conflict(OptionDefinition, OptionDefinition)
    /// `value`, for `source` (`'--page <n>'`), is not what was expected.
    case badValue(String, source: String, ValueProblem)
    case missingArgument(String)
    case unexpectedArgument(String)
    /// `value` is none of the words an argument takes.
    case unknownArgument(String, ValueProblem)
    case missingSubcommand

    var message: String {
        switch self {
        case .unknownOption(let name, let names):
            "unknown option '\(Excerpt.of(name))'" + CommandError.suggestion(for: name, among: names)
        case .unknownSubcommand(let word, let following, let commands):
            "unknown subcommand '\(Excerpt.of(word))'"
                + (Self.namesASpecies(([word] + following).joined(separator: " "))
                    ? "; did you mean 'species show \(Excerpt.of(([word] + following).joined(separator: " ")))'?"
                    : word.lowercased() == "version"
                        ? "; did you mean '--version'?"
                        : CommandError.suggestion(for: word, among: commands.filter { !$0.hidden }.map(\.name)))
        case .notApplicable(let option, let command): "'\(option.key)' does not apply to '\(command.path)'"
        case .belongsTo(let name, let command):
            "'\(name)' is an option of '\(command.path)'; give it after '\(command.name)'"
        case .missingValue(let option): "missing value for '\(option.synopsis)'"
        case .takesNoValue(let name): "option '\(Excerpt.of(name))' does not take a value"
        case .conflict(let first, let second): "'\(first.key)' and '\(second.key)' cannot be used together"
        case .badValue(let value, let source, let problem):
            "invalid value '\(Excerpt.of(problem.value ?? value))' for \(source): \(problem.sentence)"
        case .missingArgument(let label): "missing argument '\(label)'"
        case .unexpectedArgument(let word): "unexpected argument '\(Excerpt.of(word))'"
        case .unknownArgument(let word, let problem): "unknown argument '\(Excerpt.of(word))': \(problem.sentence)"
        case .missingSubcommand: "missing subcommand"
        }
    }

    /// Whether `words` name one species of the data built in, as `show`
    /// reads a name: exactly, ignoring case, or as the one whose name holds
    /// every word.
    private static func namesASpecies(_ words: String) -> Bool {
        let names = SpeciesClient.builtInNames
        let terms = SearchTerms(words).terms
        return names.contains { $0.lowercased() == words.lowercased() }
            || (!terms.isEmpty && names.count { name in terms.allSatisfy(name.lowercased().contains) } == 1)
    }
}

/// What a value's reader expected instead of `value` (the text, or the part
/// of it that is wrong), and the nearest of its choices.
struct ValueProblem: Error, Equatable {
    let expected: String
    var value: String?
    var nearest: [String] = []

    var sentence: String { "expected \(expected)" + CommandError.suggestion(for: value ?? "", among: nearest) }
}
