import SpeciesKit

/// The `SpeciesError` that `body` throws; nil when it succeeds or throws
/// another error.
public func speciesError(_ body: () async throws -> Void) async -> SpeciesError? {
    do {
        try await body()
        return nil
    } catch {
        return error as? SpeciesError
    }
}
