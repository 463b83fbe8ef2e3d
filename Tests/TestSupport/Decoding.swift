import Foundation
import SpeciesKit

/// JSONDecoder, as a library user would call it.
public enum Decode {
    public static func species(_ data: Data) throws -> StarWarsSpecies.Decoded {
        try JSONDecoder().decode(StarWarsSpecies.Decoded.self, from: data)
    }

    public static func species(_ json: String) throws -> StarWarsSpecies.Decoded {
        try species(Data(json.utf8))
    }

}

extension SpeciesClient {
    /// A client of `transport` at swapi.dev, without retries, a cache or
    /// a fallback, unless the configuration says otherwise, whose timeout
    /// runs on `clock`: a stub's time passes only as the stub says.
    public static func stubbed(
        _ transport: any HTTPTransport, diagnostics: any Diagnostics = RecordingDiagnostics(),
        clock: TestClock = TestClock(), configure: (inout Configuration) -> Void = { _ in }
    ) -> SpeciesClient {
        var configuration = Configuration(roots: [.swapi], retries: 0, fallback: false)
        configure(&configuration)
        return SpeciesClient(configuration: configuration, transport: transport, diagnostics: diagnostics, clock: clock)
    }
}
