import SpeciesKit

/// The error that `body` throws; nil when it succeeds.
public func thrown(_ body: () async throws -> Void) async -> (any Error)? {
    do {
        try await body()
        return nil
    } catch {
        return error
    }
}

/// The `SpeciesError` that `body` throws; nil when it succeeds or throws
/// another error.
public func speciesError(_ body: () async throws -> Void) async -> SpeciesError? {
    await thrown(body) as? SpeciesError
}
