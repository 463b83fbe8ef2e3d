/// An option of the command line as parsing, the help, the usage line, the
/// manual page and the completion scripts see it: its names, the
/// placeholder of its value, the values it accepts, where its value comes
/// from when it is not given, and what it does. Its typed reading is an
/// `Option`, which holds one of these; a flag binds itself (`bind`).
struct OptionDefinition: Sendable, Equatable {
    /// Short name first, then long: `["-h", "--help"]`.
    let names: [String]
    /// The placeholder of the option's value, such as `n` in `--page <n>`;
    /// nil for a flag.
    let valueName: String?
    /// The values accepted; empty for a free value.
    let choices: [String]
    /// The value is a comma-separated list of choices (`--fields`).
    let takesList: Bool
    /// The environment variable read when the option is not given.
    let environment: String?
    /// The default as help shows it; nil when there is none to show.
    let shownDefault: String?
    /// What the option does, without its default.
    let summary: String

    init(
        _ names: [String], value valueName: String? = nil, choices: [String] = [], list: Bool = false,
        environment: String? = nil, shownDefault: String? = nil, summary: String
    ) {
        self.names = names
        self.valueName = valueName
        self.choices = choices
        self.takesList = list
        self.environment = environment
        self.shownDefault = shownDefault
        self.summary = summary
    }

    /// The summary and where the value comes from when the option is not
    /// given: `(default: $SWAPI_TIMEOUT, else 15)`.
    var help: String {
        let variable = environment.map { "$" + $0 + (takesValue ? "" : "=1") }
        switch (variable, shownDefault) {
        case (let variable?, let shown?): return summary + " (default: \(variable), else \(shown))."
        case (let variable?, nil): return summary + " (default: \(variable))."
        case (nil, let shown?): return summary + " (default: \(shown))."
        case (nil, nil): return summary + "."
        }
    }

    var takesValue: Bool { valueName != nil }

    /// The long name, which identifies the option in parsed results.
    var key: String { names.last ?? "" }

    /// `-h, --help` or `--page <n>`.
    var label: String {
        names.joined(separator: ", ") + (valueName.map { " <\($0)>" } ?? "")
    }

    /// `--page <n>`: how error messages and usage lines name the option.
    var synopsis: String {
        key + (valueName.map { " <\($0)>" } ?? "")
    }
}

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

/// A command as the parser and the help see it; the root command is
/// `species` itself.
struct CommandDefinition: Sendable, Equatable {
    /// `species`, or `species list`.
    let path: String
    let abstract: String
    var arguments: [ArgumentDefinition] = []
    /// Its own options, in the order of its usage line and help.
    var options: [OptionDefinition] = []
    /// The global options it takes; any other is refused.
    var globalOptions: [OptionDefinition] = []
    /// Options of which at most one may be given, shown together in the
    /// usage line: `[--page <n> | --all-pages]`.
    var exclusive: [[OptionDefinition]] = []
    var examples: [Example] = []
    /// The root command: a subcommand follows it.
    var leadsToSubcommands = false
    /// Left out of help, completions and the manual: for the tool's own use.
    var hidden = false

    var name: String { path.split(separator: " ").last.map(String.init) ?? path }

    /// What follows the command's path in its usage line, made from its
    /// arguments and its own options (not `--help`).
    var usage: String {
        guard !leadsToSubcommands else { return "<subcommand> [<options>]" }
        var groups: [String] = []
        var shown: [OptionDefinition] = []
        for argument in arguments {
            groups.append(argument.optional ? "[\(argument.label)]" : argument.label)
        }
        for option in options where !option.names.contains("--help") && !shown.contains(option) {
            // An option shown in an earlier group is not shown again.
            let group = (exclusive.first { $0.contains(option) } ?? [option]).filter { !shown.contains($0) }
            shown += group
            groups.append("[" + group.map(\.synopsis).joined(separator: " | ") + "]")
        }
        return groups.joined(separator: " ")
    }
}

extension Array where Element: Equatable {
    /// The elements, each once, in their first order.
    func uniqued() -> [Element] {
        reduce(into: []) { kept, element in
            if !kept.contains(element) { kept.append(element) }
        }
    }
}
