/// `species show`: one species' detail text, or its JSON; with `related`,
/// the names of its planet, people and films too.
public struct ShowCommand: Sendable, Equatable {
    public var query: String
    public var json: Bool
    public var related: Bool

    public init(query: String, json: Bool = false, related: Bool = false) {
        self.query = query
        self.json = json
        self.related = related
    }

    public func run(_ context: CommandContext) async throws {
        context.diagnostics.progress("looking up '\(query)'…")
        let species = try await SpeciesLookup(client: context.client).find(query)
        let resources = related ? try await context.client.related(of: species) : nil
        context.diagnostics.progressEnded()
        if json {
            context.output.write(SpeciesJSON.document(species, related: resources))
        } else {
            context.output.write(DetailRenderer.render(species) + (resources.map { "\n" + DetailRenderer.render($0) } ?? ""))
        }
    }
}
