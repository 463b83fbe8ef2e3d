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

    /// What the status says, as the manual page puts it.
    var meaning: String {
        switch self {
        case .success: "Success, also when the cache or the built-in data answered for an API that could not."
        case .nothingMatched:
            "Nothing matched: no such name, id or page, a search with no results, or an ambiguous name."
        case .usage:
            "Usage error: unknown command or option, missing or malformed argument, a URL that is not a species of the API, "
                + "a certificate variable that names neither a file nor a folder."
        case .badData:
            "The server's answer is not SWAPI JSON, or breaks a rule of the client (a link or redirect off its origin, a loop, a size cap)."
        case .unavailable:
            "No service could be reached, or each timed out, answered with an HTTP error (the last after retries) or was not SWAPI, and nothing could stand in."
        case .internalError:
            "A bug in species, or a build whose workarounds for FoundationNetworking are not engaged (its self-check says which)."
        case .ioError:
            "Writing the output failed (a full disk, a closed stdout), or species cache clear could not remove an entry."
        case .interrupted: "Interrupted (Ctrl-C)."
        }
    }

    /// Runs `command`; then hands the output over. A failure of the command
    /// is its `error:` line and status; else a failed write of the output
    /// is one, with status 74.
    static func run(
        _ command: () async throws -> Void, output: any OutputSink, diagnostics: any CommandDiagnostics
    ) async -> ExitStatus {
        var failure: (any CommandFailure)?
        do {
            try await command()
        } catch let error as any CommandFailure {
            failure = error
        } catch {
            failure = CommandError("internal error: \(error)", status: .internalError)
        }
        diagnostics.progressEnded()
        output.flush()
        if let failure {
            diagnostics.error(failure.errorLine)
            return failure.status
        }
        if let reason = output.writeError {
            diagnostics.error("cannot write the output: \(reason)")
            return .ioError
        }
        return .success
    }
}

/// A failure a command reports: its one `error:` line and its exit status.
protocol CommandFailure: Error {
    var errorLine: String { get }
    var status: ExitStatus { get }
}

/// A failure of the command line's own: the self-check, the cache's
/// folder, a certificate variable.
struct CommandError: CommandFailure {
    let errorLine: String
    let status: ExitStatus

    init(_ errorLine: String, status: ExitStatus) {
        self.errorLine = errorLine
        self.status = status
    }
}

extension SpeciesError: CommandFailure {
    var status: ExitStatus {
        switch kind {
        case .nothingMatched: .nothingMatched
        case .badQuestion: .usage
        case .badAnswer: .badData
        case .unavailable: .unavailable
        }
    }

    /// SpeciesKit's sentence, and the option or the answer behind it.
    var errorLine: String {
        message { error in
            switch error.setting {
            case .timeout: "(--timeout)"
            case .maxResponseSize: "(--max-response-size)"
            case .offline: "(--offline)"
            case .certificates: "(a CA of your own: CURL_CA_BUNDLE or SSL_CERT_FILE, or SSL_CERT_DIR)"
            case .builtInData: "(--offline answers from the SWAPI data built into species)"
            case nil: nil
            }
        }
    }
}
