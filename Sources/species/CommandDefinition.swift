/// An option as the parser and the help text see it.
struct OptionDefinition: Sendable, Equatable {
    /// Short name first, then long: `["-h", "--help"]`.
    let names: [String]
    /// The placeholder of the option's value, such as `n` in `--page <n>`;
    /// nil for a flag.
    let valueName: String?
    let help: String

    init(_ names: String..., value valueName: String? = nil, help: String) {
        self.names = names
        self.valueName = valueName
        self.help = help
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
}

struct ArgumentDefinition: Sendable, Equatable {
    let label: String
    let help: String
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
