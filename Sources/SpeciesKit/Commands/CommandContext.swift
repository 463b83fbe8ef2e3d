/// What a command needs to run: the API, and where results and messages go.
public struct CommandContext: Sendable {
    public let client: SpeciesClient
    public let output: any OutputSink
    public let diagnostics: any Diagnostics

    public init(client: SpeciesClient, output: any OutputSink, diagnostics: any Diagnostics) {
        self.client = client
        self.output = output
        self.diagnostics = diagnostics
    }
}
