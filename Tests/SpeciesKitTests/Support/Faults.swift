import TestSupport

@testable import SpeciesKit

/// Why `body` failed, in detail: the fault it throws, or that of the
/// `SpeciesError` it throws; nil when it succeeds or throws another error.
func fault(_ body: () async throws -> Void) async -> Fault? {
    let error = await thrown(body)
    return error as? Fault ?? (error as? SpeciesError)?.fault
}
