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
        case .internalError: "A bug in species."
        case .ioError:
            "Writing the output failed (a full disk, a closed stdout), or species cache clear could not remove an entry."
        case .interrupted: "Interrupted (Ctrl-C)."
        }
    }

    static func of(_ error: SpeciesError) -> ExitStatus {
        switch error {
        case .noSuchName, .ambiguousName, .notFound, .notInBundledData, .noSuchPage, .noResults: .nothingMatched
        case .invalidResponse, .refused, .tooLarge, .redirected: .badData
        case .unreachable, .notCached, .httpStatus, .notSWAPI, .rateLimited, .noServiceAnswered: .unavailable
        case .notASpeciesURL: .usage
        case .unanswered(let cause, _): of(cause)
        }
    }

    /// What the command line adds to SpeciesKit's sentence: the option
    /// behind the limit or the answer that could stand in.
    static func hint(for error: SpeciesError) -> String? {
        switch error {
        case .unreachable(let failure):
            switch failure.kind {
            case .timedOut: "(--timeout)"
            // OpenSSL's words for an issuer that no trusted CA vouches for.
            case .insecureConnection where failure.detail.contains("local issuer certificate"):
                "(a CA of your own: CURL_CA_BUNDLE or SSL_CERT_FILE, or SSL_CERT_DIR)"
            default: nil
            }
        case .tooLarge: "(--max-response-size)"
        case .notCached: "(--offline)"
        case .unanswered: "(--offline answers from the SWAPI data built into species)"
        default: nil
        }
    }

    /// Runs `command`; then hands the output over. A failure of the command
    /// is its `error:` line and status; else a failed write of the output
    /// is one, with status 74.
    static func run(
        _ command: () async throws -> Void, output: any OutputSink, diagnostics: any CommandDiagnostics
    ) async -> ExitStatus {
        let status: ExitStatus
        do {
            try await command()
            status = .success
        } catch let error as SpeciesError {
            status = of(error)
            diagnostics.progressEnded()
            output.flush()
            diagnostics.error(error.message(hint: hint))
        } catch {
            status = .internalError
            diagnostics.progressEnded()
            output.flush()
            diagnostics.error("internal error: \(error)")
        }
        diagnostics.progressEnded()
        output.flush()
        if status == .success, let reason = output.writeError {
            diagnostics.error("cannot write the output: \(reason)")
            return .ioError
        }
        return status
    }
}
