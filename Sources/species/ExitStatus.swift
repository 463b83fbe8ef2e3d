import SpeciesKit

/// The exit statuses of `species` (docs/cli.md), and the one `error:`
/// line of every failure.
enum ExitStatus: Int32, CaseIterable, Sendable {
    case success = 0
    case nothingMatched = 1
    case usage = 64
    case badData = 65
    case unavailable = 69
    case internalError = 70
    case ioError = 74
    /// Never returned: the shell reports Ctrl-C's SIGINT so.
    case interrupted = 130

    /// Runs `command` (of `definition`, whose usage follows a question
    /// SpeciesKit refuses); then hands the output over. A failure of the
    /// command is its `error:` line and status; else a failed write of the
    /// output is one, with status 74. `last` runs after all of it.
    static func run(
        _ command: () async throws -> Void, of definition: CommandDefinition? = nil, output: any OutputSink,
        diagnostics: any CommandDiagnostics, last: () -> Void = {}
    ) async -> ExitStatus {
        defer { last() }
        var failure: CommandError?
        do { try await command() } catch { failure = CommandError(error, of: definition) }
        diagnostics.progressEnded()
        output.flush()
        if let failure = failure ?? output.writeError.map({ CommandError("cannot write the output: \($0)", .ioError) })
        {
            diagnostics.error(failure)
            return failure.status
        }
        return .success
    }
}

/// Why a command failed, as swift-argument-parser has one error type: its
/// one `error:` line and its exit status; a usage error also shows its
/// command's usage. The library's errors become one (`init(_:)`).
struct CommandError: Error, Equatable {
    let message: String
    let status: ExitStatus
    /// The command whose usage line follows the message: a usage error.
    let usage: CommandDefinition?

    init(_ message: String, _ status: ExitStatus, usage: CommandDefinition? = nil) {
        (self.message, self.status, self.usage) = (message, status, usage)
    }

    /// A mistake on the command line, for `command`: exit status 64.
    static func usage(_ problem: UsageProblem, of command: CommandDefinition) -> CommandError {
        CommandError(problem.message, .usage, usage: command)
    }

    /// `; did you mean 'A'?` for a candidate that differs from `word` only
    /// in case (`JSON` means `json`); else for those that `word` begins
    /// (three at most), else for the one nearest it, if one is near:
    /// `--all` means `--all-pages` as surely as `--pgae` means `--page`.
    static func suggestion(for word: String, among candidates: [String]) -> String {
        guard !word.isEmpty else { return "" }
        if let same = candidates.first(where: { $0.lowercased() == word.lowercased() }) {
            return EditDistance.didYouMean([same])
        }
        let longer = candidates.filter { $0.count > word.count && $0.lowercased().hasPrefix(word.lowercased()) }
        return EditDistance.didYouMean(
            longer.isEmpty ? EditDistance.closest(to: word, among: candidates, limit: 1) : Array(longer.prefix(3)))
    }

    /// The error of a command: its own, or SpeciesKit's sentence with the
    /// option behind it, and, for a question it refuses, the usage of
    /// `command`; anything else is a bug (70).
    init(_ error: any Error, of command: CommandDefinition? = nil) {
        switch error {
        case let error as CommandError: self = error
        case let error as SpeciesError:
            let hint = error.setting.flatMap { Self.options[$0] }.map { " (\($0))" } ?? ""
            self.init(
                error.description + hint, Self.statuses[error.kind] ?? .internalError,
                usage: error.kind == .badQuestion ? command : nil)
        default: self.init("internal error: \(error)", .internalError)
        }
    }

    /// What to change, for a setting behind a failure.
    private static let options: [SpeciesError.Setting: String] = [
        .timeout: "--timeout", .maxResponseSize: "--max-response-size", .cacheMode: "--offline",
        .certificates: "a CA of your own: CURL_CA_BUNDLE or SSL_CERT_FILE, or SSL_CERT_DIR",
    ]

    /// `error: ...`, and, for a usage error, its command's usage in one
    /// line (`usage: ...`): what stderr shows in a pipe.
    var rendered: String {
        let line = "error: \(StandardError.line(message))\n"
        guard let usage else { return line }
        return line + "usage: " + ([usage.path] + usage.usage).joined(separator: " ") + "\n"
    }

    /// The exit status of each kind of SpeciesKit's errors; a cancelled
    /// answer is an interrupted command's.
    private static let statuses: [SpeciesError.Kind: ExitStatus] = [
        .nothingMatched: .nothingMatched, .ambiguousName: .nothingMatched, .badQuestion: .usage, .badAnswer: .badData,
        .unavailable: .unavailable, .cancelled: .interrupted,
    ]
}
