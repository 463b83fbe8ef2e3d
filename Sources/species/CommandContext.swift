import SpeciesKit

/// Where a command's messages go: stderr in the tool, a recorder in tests.
protocol CommandDiagnostics: Diagnostics {
    /// Why the command failed: its one `error:` line (and, for a usage
    /// error, its command's usage).
    func error(_ failure: CommandError)
    /// The fetching is over: any progress line goes.
    func progressEnded()
    /// A note for a person at a terminal, which a pipe does not get: where
    /// a page stands, what a table leaves out.
    func hint(_ message: String)
}

/// What a command needs to run: the API, and where results and messages go.
struct CommandContext: Sendable {
    let client: SpeciesClient
    let output: any OutputSink
    let diagnostics: any CommandDiagnostics
}
