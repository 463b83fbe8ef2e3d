import Foundation
import SpeciesKit

extension SpeciesClient {
    /// A client of `transport` at swapi.dev, without retries, a cache or
    /// a fallback, unless the configuration says otherwise, whose timeout
    /// runs on `clock`: a stub's time passes only as the stub says. Its
    /// services are asked one after another (`attemptDelay` infinite): a
    /// test clock jumps to the end of any wait, so the next service would
    /// race a stub that answers at once.
    public static func stubbed(
        _ transport: any HTTPTransport, diagnostics: any Diagnostics = RecordingDiagnostics(),
        clock: TestClock = TestClock(), configure: (inout Configuration) -> Void = { _ in }
    ) -> SpeciesClient {
        var configuration = Configuration(roots: [.swapi], retries: 0, attemptDelay: .infinity, fallback: false)
        configure(&configuration)
        return SpeciesClient(configuration: configuration, transport: transport, diagnostics: diagnostics, clock: clock)
    }
}
