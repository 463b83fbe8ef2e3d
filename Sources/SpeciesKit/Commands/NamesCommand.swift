/// `species __complete-names`, for the completion scripts: the name of every
/// species, one a line, in API order. Run offline, it answers from the
/// cache, else from the bundled snapshot, so pressing Tab never waits on
/// the network.
public struct NamesCommand: Sendable, Equatable {
    public init() {}

    public func run(_ context: CommandContext) async throws {
        var seen: Set<String> = []
        var text = ""
        try await context.client.forEachPage(from: context.client.root.speciesURL(page: 1, search: nil)) { page in
            for species in page.species {
                // A name with a control character would break the line-based
                // protocol and the shell's quoting.
                guard let name = species.name, !name.isEmpty,
                    !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }),
                    seen.insert(name).inserted
                else { continue }
                text += name + "\n"
            }
        }
        context.output.write(text)
    }
}
