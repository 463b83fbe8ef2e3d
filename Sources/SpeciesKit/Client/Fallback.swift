import Foundation
import Synchronization

/// Where an answer comes from when the API cannot give one
/// (docs/cli.md, "When the API cannot answer"): the cache, whatever its
/// age, then, for SWAPI's own hosts, the SWAPI data built into species.
/// Offline, the cache, else the built-in data, for any host. Where the
/// answer came from is said once on stderr.
final class Fallback: Sendable {
    let catalog: RemoteCatalog
    let mode: CachePolicy.Mode
    /// False: the API's failure is the answer (`--no-fallback`).
    let enabled: Bool
    let diagnostics: any Diagnostics
    private let said = Mutex(false)

    init(catalog: RemoteCatalog, mode: CachePolicy.Mode, enabled: Bool, diagnostics: any Diagnostics) {
        self.catalog = catalog
        self.mode = mode
        self.enabled = enabled
        self.diagnostics = diagnostics
    }

    func answer<Value>(_ remote: (RemoteCatalog) async throws -> Value, bundled: (BundledCatalog) throws -> Value) async throws -> Value {
        try await answer(remote, bundled: bundled, then: { $0 })
    }

    /// The answer of `remote`, from the API through the cache; else, as
    /// above, the cache's, or the built-in data's handed to `finish`.
    func answer<Value, Partial>(
        _ remote: (RemoteCatalog) async throws -> Value, bundled: (BundledCatalog) throws -> Partial,
        then finish: (Partial) async throws -> Value
    ) async throws -> Value {
        let root = catalog.root
        let builtIn = { [catalog] in BundledCatalog(root: root, dialect: catalog.dialect) }
        if mode == .offline {
            do {
                return try await remote(catalog)
            } catch SpeciesError.notCached {
                note("offline: answering from the SWAPI data built into species (recorded \(BundledCatalog.recorded))")
                return try await finish(try bundled(builtIn()))
            }
        }
        do {
            return try await remote(catalog)
        } catch let error as SpeciesError where enabled && error.meansUnanswered {
            let host = root.origin.authority
            let age = CacheAge()
            if let value = try? await remote(catalog.cacheOnly(telling: age)), let fetched = age.oldest {
                note("\(host) did not answer (\(error.cause)): answering from the cache, as fetched \(TimeSpan.describe(Date().timeIntervalSince(fetched))) ago")
                return value
            }
            guard Dialect.ofPublicHost(root) != nil else { throw SpeciesError.unanswered(error, host: host) }
            note("\(host) did not answer (\(error.cause)): answering from the SWAPI data built into species (recorded \(BundledCatalog.recorded))")
            return try await finish(try bundled(builtIn()))
        }
    }

    /// Said once for the life of the client, whatever answers stood in.
    private func note(_ message: String) {
        guard !said.withLock({ said in defer { said = true }; return said }) else { return }
        diagnostics.note(message)
    }
}
