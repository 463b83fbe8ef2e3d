import SpeciesKit

/// `species __complete-names`, for the completion scripts: the name of every
/// species, one a line, in API order. Run offline, it answers from the
/// cache; where the cache has no answer, the names of SWAPI's species built
/// into species are offered, so pressing Tab never waits on the network.
struct NamesCommand: Sendable, Equatable {
    func run(_ context: CommandContext) async throws {
        let known = try? await context.client.allSpecies().value.compactMap(\.name)
        var seen: Set<String> = []
        var text = ""
        for name in known ?? SpeciesClient.builtInNames {
            // A name with a control character would break the line-based
            // protocol and the shell's quoting.
            guard !name.isEmpty, TerminalText.escape(name) == name, seen.insert(name).inserted else { continue }
            text += name + "\n"
        }
        context.output.write(text)
    }
}
