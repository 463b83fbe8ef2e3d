import SpeciesKit

/// `show --format`.
enum ShowFormat: String, CaseIterable, Sendable { case text, json, jsonl }

/// `species show`: one species' detail text, or its JSON; with `related`,
/// the names of its planet, people and films too.
struct ShowCommand: Sendable, Equatable {
    var query: SpeciesQuery
    var format = ShowFormat.text
    var related = false
    /// Colour the JSON, as `jq -C` would.
    var color = false

    func run(_ context: CommandContext) async throws {
        context.diagnostics.progress("looking up \(query.description)…")
        let (species, resources) =
            related
            ? try await context.client.speciesAndRelated(query).value
            : (try await context.client.species(query).value, nil)
        context.diagnostics.progressEnded()
        switch format {
        case .text:
            context.output.write(
                DetailRenderer.render(species) + (resources.map { "\n" + DetailRenderer.render($0) } ?? ""))
        case .json, .jsonl:
            context.output.write(
                SpeciesJSON.object(species, related: resources, pretty: format == .json, colored: color))
        }
    }
}

extension ShowCommand {
    static let format = Option<Self>.option(
        OptionDefinition(
            names: ["-o", "--format"], valueName: "format", choices: ShowFormat.allCases.map(\.rawValue),
            shownDefault: ShowFormat.text.rawValue,
            summary: "text, json or jsonl: the description, one JSON object as jq . prints it, or one compact line"),
        \.format, read: Read.choice)
    static let json = Option<Self>.flag(
        OptionDefinition(names: ["--json"], summary: "The same as --format json: one JSON object"), \.format, .json)
    static let jsonl = Option<Self>.flag(
        OptionDefinition(names: ["--jsonl"], summary: "The same as --format jsonl: one compact JSON line"), \.format,
        .jsonl)
    static let related = Option<Self>.flag(
        OptionDefinition(
            names: ["--related"],
            summary: "Also the names of the species' homeworld, people and films (in episode order)"), \.related, true)

    /// The options of `species show` (docs/cli.md), each read into its
    /// property: `--json` and `--jsonl` as `list`'s are.
    static let options = [Self.format, Self.json, Self.jsonl, Self.related]

    /// The spellings of the format: the last given wins.
    static let formats = [Self.format, Self.json, Self.jsonl].map(\.definition)
}
