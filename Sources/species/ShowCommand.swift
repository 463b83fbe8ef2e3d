import SpeciesKit

/// `species show`: one species' detail text, or its JSON; with `related`,
/// the names of its planet, people and films too.
struct ShowCommand: Sendable, Equatable {
    var query: SpeciesQuery
    var json = false
    var related = false
    /// Colour the JSON, as `jq -C` would.
    var color = false

    func run(_ context: CommandContext) async throws {
        context.diagnostics.progress("looking up \(query.description)…")
        let (species, resources) =
            related
            ? try await context.client.speciesAndRelated(query) : (try await context.client.species(query), nil)
        context.diagnostics.progressEnded()
        if json {
            context.output.write(SpeciesJSON.object(species, related: resources, colored: color))
        } else {
            context.output.write(
                DetailRenderer.render(species) + (resources.map { "\n" + DetailRenderer.render($0) } ?? ""))
        }
    }
}

extension ShowCommand {
    /// The options of `species show` (docs/cli.md), each read into its property.
    static let options = [
        Option<Self>.flag(OptionDefinition(["--json"], summary: "Print one JSON object"), \.json, true),
        Option<Self>.flag(
            OptionDefinition(
                ["--related"], summary: "Also the names of the species' homeworld, people and films (in episode order)"),
            \.related, true),
    ]
}
