import SpeciesKit

/// The exit statuses of `species` (docs/cli.md), and the one `error:`
/// line of every failure.
enum ExitStatus {
    static let success: Int32 = 0
    static let nothingMatched: Int32 = 1
    static let usage: Int32 = 64
    static let badData: Int32 = 65
    static let unavailable: Int32 = 69
    static let internalError: Int32 = 70
    static let ioError: Int32 = 74

    static func of(_ error: SpeciesError) -> Int32 {
        switch error {
        case .noSuchName, .ambiguousName, .notFound, .notInBundledData, .noSuchPage, .noResults: nothingMatched
        case .invalidResponse, .refused, .redirected: badData
        case .unreachable, .notCached, .httpStatus, .rateLimited: unavailable
        case .notASpeciesURL: usage
        case .unanswered(let cause, _): of(cause)
        }
    }

    /// Runs `command`; then hands the output over. A failure of the command
    /// is its `error:` line and status; else a failed write of the output
    /// is one, with status 74.
    static func run(
        _ command: () async throws -> Void, output: any OutputSink, diagnostics: any CommandDiagnostics
    ) async -> Int32 {
        let status: Int32
        do {
            try await command()
            status = success
        } catch let error as SpeciesError {
            status = of(error)
            diagnostics.progressEnded()
            output.flush()
            diagnostics.error(error.message)
        } catch {
            status = internalError
            diagnostics.progressEnded()
            output.flush()
            diagnostics.error("internal error: \(error)")
        }
        diagnostics.progressEnded()
        output.flush()
        if status == success, let reason = output.writeError {
            diagnostics.error("cannot write the output: \(reason)")
            return ioError
        }
        return status
    }
}
