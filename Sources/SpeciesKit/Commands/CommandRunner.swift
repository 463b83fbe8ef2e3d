/// Runs a command the way the tool does: results to the output, a failure as
/// one `error:` line and its exit status.
public enum CommandRunner {
    public static func run(
        _ command: (CommandContext) async throws -> Void, in context: CommandContext
    ) async -> Int32 {
        defer { context.output.flush() }
        do {
            try await command(context)
            context.diagnostics.progressEnded()
            return 0
        } catch let error as SpeciesError {
            context.diagnostics.progressEnded()
            context.output.flush()
            context.diagnostics.error(error.message)
            return error.exitCode
        } catch {
            context.diagnostics.progressEnded()
            context.output.flush()
            context.diagnostics.error("internal error: \(error)")
            return 70
        }
    }
}
