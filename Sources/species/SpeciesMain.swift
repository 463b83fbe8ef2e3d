import Foundation
import SpeciesKit
import URLSessionFixes

@main enum SpeciesMain {
    static func main() async {
        let started = ContinuousClock.now
        // A parent may leave SIGPIPE ignored; then `species | head -1` would
        // go on fetching for nobody. By default a closed pipe ends it quietly.
        signal(SIGPIPE, SIG_DFL)
        FileDescriptor.occupyClosedStandardDescriptors()
        let environment = ProcessInfo.processInfo.environment
        // FoundationNetworking makes ~/.cache/org.swift.foundation.URLCache/
        // <tool>/ and ~/.local/share/<folder of the tool>/ as soon as a URLSession
        // is configured, for a URL cache and cookies that species never uses
        // (its session has neither). Under /dev/null no folder can be made.
        // species has read its own environment above.
        setenv("XDG_CACHE_HOME", "/dev/null", 1)
        setenv("XDG_DATA_HOME", "/dev/null", 1)
        // A stopped request's transfer ends inside libcurl, not after its
        // task's cancellation has waited for its data (Sources/URLSessionFixes).
        URLSessionTransport.transferEnd.withLock { $0 = { url_session_fixes_end($0.absoluteString) != 0 } }
        let status = await run(
            arguments: Array(CommandLine.arguments.dropFirst()), environment: environment, output: StandardOutput(),
            started: started)
        // The output is written (`run` flushes it). exit(3) would run C's
        // exit handlers, OpenSSL's cleanup among them, while a thread of
        // FoundationNetworking may still be freeing its TLS state: a SIGSEGV
        // after a complete answer, about one HTTPS run in 400
        // (swift-corelibs-foundation #5469, fixed after 6.3). Nothing of
        // species needs those handlers.
        fflush(nil)
        _exit(status.rawValue)
    }

    /// Parses the line, runs the command, and returns the exit status. Every
    /// failure is one `error:` line on stderr. `--verbose` tells at the end
    /// how long a command that asks services took since `started`.
    static func run(
        arguments: [String], environment: [String: String], output: any OutputSink,
        started: ContinuousClock.Instant = .now
    ) async -> ExitStatus {
        let invocation: Invocation
        do { invocation = try Invocation(arguments: arguments, environment: environment) } catch {
            return await run { throw error }
        }
        switch invocation {
        case .help(let text): return await run { output.write(text) }
        case .version: return await run { output.write(VersionText.line) }
        case .completions(let shell): return await run { output.write(shell.script) }
        case .complete(let command): return await run { await command.run(environment, output) }
        case .selfCheck: return await run { try await SelfCheckCommand().run(output) }
        case .cache(let command): return await run { try command.run(output) }
        case .list(var command, let settings):
            command.terminal = Terminal.detect(
                environment: environment, colorMode: settings.colorMode, quiet: settings.quiet)
            return await run(command.run, of: Commands.list, settings, terminal: command.terminal)
        case .show(var command, let settings):
            let terminal = Terminal.detect(
                environment: environment, colorMode: settings.colorMode, quiet: settings.quiet)
            command.color = terminal.color
            return await run(command.run, of: Commands.show, settings, terminal: terminal)
        }

        /// A command that asks no service: its stderr has only the error,
        /// and at a terminal where to find help.
        func run(_ command: () async throws -> Void) async -> ExitStatus {
            await ExitStatus.run(
                command, output: output, diagnostics: StandardErrorDiagnostics(showsHints: isatty(STDERR_FILENO) == 1))
        }

        /// A command that may use the network, with the certificates to
        /// trust; a certificate variable that cannot be used is a usage error.
        func run(
            _ command: @escaping (CommandContext) async throws -> Void, of definition: CommandDefinition,
            _ settings: GlobalSettings, terminal: Terminal
        ) async -> ExitStatus {
            let diagnostics = StandardErrorDiagnostics(
                quiet: settings.quiet, verbose: settings.verbose, showsProgress: terminal.progress,
                showsHints: terminal.hints)
            return await ExitStatus.run(
                {
                    if settings.client.cache.mode != .offline { try CertificateTrust.apply(environment: environment) }
                    var configuration = settings.client
                    configuration.userAgent = "species/\(SpeciesRelease.version)"
                    let client = SpeciesClient(configuration: configuration, diagnostics: diagnostics)
                    try await command(CommandContext(client: client, output: output, diagnostics: diagnostics))
                }, of: definition, output: output, diagnostics: diagnostics,
                last: {
                    let taken = ((ContinuousClock.now - started) / .milliseconds(1)).rounded()
                    diagnostics.trace("done after \(Int(taken)) ms")
                })
        }
    }
}
