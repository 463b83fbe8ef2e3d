/// An option as the parser, the help, the manual page and the completion
/// scripts see it. Its `choices`, when it has them, are the one list of the
/// values it accepts: the parser checks against them, the help lists them,
/// the completions offer them.
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
    private let helpTemplate: String

    /// - Parameter help: the help text; `{choices}` in it stands for the
    ///   choices, listed (`name, height or lifespan`).
    init(_ names: String..., value valueName: String? = nil, choices: [String] = [], list: Bool = false, help: String) {
        self.names = names
        self.valueName = valueName
        self.choices = choices
        self.takesList = list
        self.helpTemplate = help
    }

    var help: String {
        helpTemplate.replacingOccurrences(of: "{choices}", with: Self.listed(choices))
    }

    var takesValue: Bool { valueName != nil }

    /// The long name, which identifies the option in parsed results.
    var key: String { names.last ?? "" }

    /// `-h, --help` or `--page <n>`.
    var label: String {
        names.joined(separator: ", ") + (valueName.map { " <\($0)>" } ?? "")
    }

    /// `--page <n>`: how error messages name the option.
    var synopsis: String {
        key + (valueName.map { " <\($0)>" } ?? "")
    }

    /// `a, b or c`.
    static func listed(_ words: [String]) -> String {
        guard let last = words.last, words.count > 1 else { return words.joined() }
        return words.dropLast().joined(separator: ", ") + " or " + last
    }
}

/// A positional argument; `choices` work as an option's do.
struct ArgumentDefinition: Sendable, Equatable {
    let label: String
    let help: String
    var choices: [String] = []

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

/// A command as the parser and the help text see it; the root command is
/// `species` itself.
struct CommandDefinition: Sendable, Equatable {
    /// `species`, or `species list`.
    let path: String
    let abstract: String
    /// The usage line after `USAGE:`.
    let usage: String
    var arguments: [ArgumentDefinition] = []
    var options: [OptionDefinition] = []
    var examples: [Example] = []
    /// Left out of help, completions and the manual: for the tool's own use.
    var hidden = false

    var name: String { path.split(separator: " ").last.map(String.init) ?? path }
}
