import SpeciesKit

/// `species __complete-names`, for the completion scripts: the name of every
/// species, one a line, in API order. Run offline, it answers from the
/// cache, else from the data built into species, so pressing Tab never
/// waits on the network.
struct NamesCommand: Sendable, Equatable {
    func run(_ context: CommandContext) async throws {
        var seen: Set<String> = []
        var text = ""
        for species in try await context.client.allSpecies().value {
            // A name with a control character would break the line-based
            // protocol and the shell's quoting.
            guard let name = species.name, !name.isEmpty, TerminalText.escape(name) == name, seen.insert(name).inserted
            else { continue }
            text += name + "\n"
        }
        context.output.write(text)
    }
}
