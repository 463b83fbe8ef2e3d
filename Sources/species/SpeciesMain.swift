import Foundation
import SpeciesKit

@main
enum SpeciesMain {
    static func main() async {
        // A parent may leave SIGPIPE ignored; then `species | head -1` would
        // go on fetching for nobody. By default a closed pipe ends it quietly.
        signal(SIGPIPE, SIG_DFL)
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
            output.write("species \(SpeciesRelease.version)\n")
            return 0
        case .list(let command, let settings):
            return await run(command.run, settings, output)
        case .show(let command, let settings):
            return await run(command.run, settings, output)
        case .cache(let command):
            do {
                try command.run(output)
                return 0
            } catch {
                StandardErrorDiagnostics().error("cannot clear the cache: \(error.localizedDescription)")
                return 74
            }
        }
    }

    private static func run(
        _ command: (CommandContext) async throws -> Void, _ settings: GlobalSettings, _ output: StandardOutput
    ) async -> Int32 {
        let diagnostics = StandardErrorDiagnostics()
        let helper = HelperTransport.locateHelper(environment: ProcessInfo.processInfo.environment)
        let client = SpeciesClient.live(
            root: settings.root, connection: settings.connection, cache: settings.cache, helper: helper,
            diagnostics: diagnostics)
        return await CommandRunner.run(command, in: CommandContext(client: client, output: output, diagnostics: diagnostics))
    }
}
