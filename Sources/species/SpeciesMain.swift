import Foundation
import SpeciesKit

@main
enum SpeciesMain {
    static func main() async {
        let status = await run(
            arguments: Array(CommandLine.arguments.dropFirst()),
            environment: ProcessInfo.processInfo.environment)
        exit(status)
    }

    /// Parses the line, runs the command, and returns the exit status. Every
    /// failure is one `error:` line on stderr.
    static func run(arguments: [String], environment: [String: String]) async -> Int32 {
        let output = StandardOutput()
        defer { output.flush() }
        let invocation: Invocation
        do {
            invocation = try Invocation(arguments: arguments, environment: environment)
        } catch {
            StandardError.write(error.rendered)
            return 64
        }
        switch invocation {
        case .help(let text):
            output.write(text)
            return 0
        case .version:
            output.write("species \(SpeciesKit.version)\n")
            return 0
        case .list(let command, let root):
            return await run(root: root, output: output, command.run)
        case .show(let command, let root):
            return await run(root: root, output: output, command.run)
        }
    }

    private static func run(
        root: APIRoot, output: StandardOutput, _ command: (CommandContext) async throws -> Void
    ) async -> Int32 {
        let diagnostics = StandardErrorDiagnostics()
        let client = SpeciesClient(root: root, transport: URLSessionTransport(), diagnostics: diagnostics)
        do {
            try await command(CommandContext(client: client, output: output, diagnostics: diagnostics))
            return 0
        } catch let error as SpeciesError {
            output.flush()
            StandardError.write("error: \(error.message)\n")
            return error.exitCode
        } catch {
            output.flush()
            StandardError.write("error: \(error)\n")
            return 70
        }
    }
}
