import SpeciesKit

/// A mistake on the command line: exit status 64, with the usage of the
/// command it concerns.
struct UsageError: Error, Equatable {
    let message: String
    let command: CommandDefinition

    /// `error: ...`, the usage line, and where to read more, for stderr.
    var rendered: String {
        "error: \(TerminalText.line(message))\n\(HelpFormatter().usage(command, label: "usage:"))\nSee '\(command.path) --help'.\n"
    }
}
