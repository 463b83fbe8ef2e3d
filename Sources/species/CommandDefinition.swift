/// A positional argument; `choices` work as an option's do.
struct ArgumentDefinition: Sendable, Equatable {
    let label: String
    let help: String
    var choices: [String] = []
    /// The usage line shows it in brackets.
    var optional = false

    /// `info | clear`, for a choice of words.
    static func choosing(_ choices: [String], help: String) -> ArgumentDefinition {
        ArgumentDefinition(label: choices.joined(separator: " | "), help: help, choices: choices)
    }
}

/// A command line that shows a use of a command, and what it does.
struct Example: Sendable, Equatable {
    let command: String
    let description: String
}

/// A command as the parser, the help, the manual page and completion see
/// it; the root command is `species` itself.
struct CommandDefinition: Sendable, Equatable {
    /// `species`, or `species list`.
    let path: String
    let abstract: String
    var arguments: [ArgumentDefinition] = []
    /// Its own options, in the order of its usage line and help.
    var options: [OptionDefinition] = []
    /// It asks SWAPI's services, and so takes every global option after its
    /// name; the others take only those of every command.
    var asksServices = false
    /// Options that contradict each other, of which at most one may be
    /// given, shown together in the usage line: `[--page <n> | --all-pages]`.
    var exclusive: [[OptionDefinition]] = []
    /// Spellings of one setting, of which the last given wins, shown
    /// together in the usage line too: `[--format <format> | --json]`.
    var alternatives: [[OptionDefinition]] = []
    var examples: [Example] = []
    /// The root command: a subcommand follows it.
    var leadsToSubcommands = false
    /// Left out of help, completions and the manual: for the tool's own use.
    var hidden = false

    var name: String { path.split(separator: " ").last.map(String.init) ?? path }

    /// The groups of words that follow the command's path in its usage
    /// line, made from its arguments and its own options (not `--help`):
    /// `<name | id | url>`, `[--format <format>]`.
    var usage: [String] {
        guard !leadsToSubcommands else { return ["<subcommand>", "[<options>]"] }
        var groups = arguments.map { $0.optional ? "[\($0.label)]" : $0.label }
        var shown: [OptionDefinition] = []
        for option in options where option != Options.help && !shown.contains(option) {
            // An option shown in an earlier group is not shown again.
            let group = ((exclusive + alternatives).first { $0.contains(option) } ?? [option]).filter {
                !shown.contains($0)
            }
            shown += group
            groups.append("[" + group.map(\.synopsis).joined(separator: " | ") + "]")
        }
        return groups
    }
}

extension Array where Element: Equatable {
    /// The elements, each once, in their first order.
    func uniqued() -> [Element] {
        reduce(into: []) { kept, element in if !kept.contains(element) { kept.append(element) } }
    }
}
