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
        case .list(var command, let settings):
            let terminal = Terminal.detect(environment: environment, colorMode: settings.colorMode, quiet: settings.quiet)
            command.terminal = terminal
            return await run(command.run, settings, terminal, environment, output)
        case .show(let command, let settings):
            let terminal = Terminal.detect(environment: environment, colorMode: settings.colorMode, quiet: settings.quiet)
            return await run(command.run, settings, terminal, environment, output)
        case .completeNames(var settings):
            settings.cache.mode = .offline
            settings.quiet = true
            return await run(NamesCommand().run, settings, Terminal(), environment, output)
        case .completions(let shell):
            output.write(CompletionScript.render(for: shell))
            return 0
        case .manualPage:
            output.write(ManualPage.render())
            return 0
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
        _ command: (CommandContext) async throws -> Void, _ settings: GlobalSettings, _ terminal: Terminal,
        _ environment: [String: String], _ output: StandardOutput
    ) async -> Int32 {
        let diagnostics = StandardErrorDiagnostics(quiet: settings.quiet, showsProgress: terminal.progress)
        let helper = HelperTransport.locateHelper(environment: environment)
        let client = SpeciesClient.live(
            root: settings.root, connection: settings.connection, cache: settings.cache, helper: helper,
            diagnostics: diagnostics)
        return await CommandRunner.run(command, in: CommandContext(client: client, output: output, diagnostics: diagnostics))
    }
}
