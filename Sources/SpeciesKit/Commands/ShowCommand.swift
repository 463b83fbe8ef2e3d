/// `species show`: one species' detail text, or its JSON.
public struct ShowCommand: Sendable, Equatable {
    public var query: String
    public var json: Bool

    public init(query: String, json: Bool = false) {
        self.query = query
        self.json = json
    }

    public func run(_ context: CommandContext) async throws {
        let species = try await SpeciesLookup(client: context.client).find(query)
        context.output.write(json ? SpeciesJSON.document(species) : DetailRenderer.render(species))
    }
}
