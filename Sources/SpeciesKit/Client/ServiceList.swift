import Foundation
import Synchronization

/// Which SWAPI service answers, and what stands in when none can
/// (docs/swapi-dialects.md, "Which service answers"; docs/cli.md, "When
/// the API cannot answer").
///
/// The services are asked in turn: first the one that answered in this
/// process, else the one remembered while its record is fresh
/// (`ServiceMemory`), then the rest in the list's order. One that gives no
/// answer (`SpeciesError.meansUnanswered`) gives way to the next at once;
/// only the last of the list retries, and the whole walk ends within the
/// timeout (`ServiceTurn`). A 404 is an answer. When none answers: the
/// cache, whatever its age, of each in turn; then, when one of them is
/// SWAPI's own, the data built into species. Offline: the cache of each,
/// then the built-in data, for any host. What stood in, or which service
/// took over, is said once on stderr.
final class ServiceList: Sendable {
    /// The catalog of a service, for a turn in a walk (nil: no walk, as
    /// for a list of one, or the cache alone).
    typealias CatalogMaker = @Sendable (APIRoot, ServiceTurn?) -> RemoteCatalog

    let roots: [APIRoot]
    private let catalog: CatalogMaker
    private let memory: ServiceMemory
    private let mode: CachePolicy.Mode
    /// False: when no service answers, that is the answer (`--no-fallback`).
    private let fallback: Bool
    private let timeout: Double
    private let diagnostics: any Diagnostics
    /// The service that answered in this process, asked first from then on.
    private let answering = Mutex<APIRoot?>(nil)
    private let said = Mutex(false)

    init(
        roots: [APIRoot], memory: ServiceMemory, mode: CachePolicy.Mode, fallback: Bool, timeout: Double, diagnostics: any Diagnostics,
        catalog: @escaping CatalogMaker
    ) {
        self.roots = roots
        self.memory = memory
        self.mode = mode
        self.fallback = fallback
        self.timeout = timeout
        self.diagnostics = diagnostics
        self.catalog = catalog
    }

    func answer<Value>(_ remote: (RemoteCatalog) async throws -> Value, bundled: (BundledCatalog) throws -> Value) async throws -> Value {
        try await answer(remote, bundled: bundled, then: { $0 })
    }

    /// The answer of `remote` from the first service that gives one; else,
    /// as above, the cache's, or the built-in data's handed to `finish`.
    func answer<Value, Partial>(
        _ remote: (RemoteCatalog) async throws -> Value, bundled: (BundledCatalog) throws -> Partial,
        then finish: (Partial) async throws -> Value
    ) async throws -> Value {
        let order = self.order
        if mode == .offline {
            for root in order {
                do {
                    return try await remote(catalog(root, nil))
                } catch SpeciesError.notCached {}
            }
            note("offline: answering from the SWAPI data built into species (recorded \(BundledCatalog.recorded))")
            return try await finish(try bundled(builtIn(at: order[0])))
        }
        let end = ContinuousClock.now + .seconds(timeout)
        var failures: [ServiceFailure] = []
        for (index, root) in order.enumerated() {
            let followed = index < order.count - 1
            let turn = order.count > 1 ? ServiceTurn(walkSeconds: timeout, end: end, followed: followed) : nil
            do {
                let value = try await remote(catalog(root, turn))
                settle(on: root, after: failures)
                return value
            } catch let error as SpeciesError where error.meansUnanswered {
                failures.append(ServiceFailure(service: name(of: root), error: error))
                answering.withLock { if $0 == root { $0 = nil } }
                if followed {
                    diagnostics.trace("giving up on \(name(of: root)): \(error.cause)")
                } else if !fallback {
                    throw failures.count == 1 ? error : SpeciesError.noServiceAnswered(failures)
                }
            }
        }
        return try await standIn(for: failures, order: order, remote, bundled: bundled, then: finish)
    }

    /// No service answered: the cache of each, then the built-in data.
    private func standIn<Value, Partial>(
        for failures: [ServiceFailure], order: [APIRoot], _ remote: (RemoteCatalog) async throws -> Value,
        bundled: (BundledCatalog) throws -> Partial, then finish: (Partial) async throws -> Value
    ) async throws -> Value {
        let why = SpeciesError.describe(failures)
        let age = CacheAge()
        for root in order {
            if let value = try? await remote(catalog(root, nil).cacheOnly(telling: age)), let fetched = age.oldest {
                let cache = roots.count == 1 ? "the cache" : "the cache of \(name(of: root))"
                note("\(why): answering from \(cache), as fetched \(TimeSpan.describe(Date().timeIntervalSince(fetched))) ago")
                return value
            }
        }
        guard let swapi = order.first(where: { Dialect.ofPublicHost($0) != nil }) else {
            let cause = failures.count == 1 ? failures[0].error : SpeciesError.noServiceAnswered(failures)
            throw SpeciesError.unanswered(cause, host: failures.count == 1 ? failures[0].service : "any of them")
        }
        note("\(why): answering from the SWAPI data built into species (recorded \(BundledCatalog.recorded))")
        return try await finish(try bundled(builtIn(at: swapi)))
    }

    /// The services in the order they are asked.
    private var order: [APIRoot] {
        guard let first = answering.withLock({ $0 }) ?? memory.fresh, let index = roots.firstIndex(of: first) else { return roots }
        return [first] + roots[..<index] + roots[(index + 1)...]
    }

    /// `root` answered: it is asked first from now on, and remembered;
    /// when others gave way to it, and it is not the one remembered, that
    /// is said.
    private func settle(on root: APIRoot, after failures: [ServiceFailure]) {
        let before = answering.withLock { answering in
            defer { answering = root }
            return answering
        }
        guard before != root else { return }
        let remembered = memory.remembers(root)
        memory.answered(root)
        if !failures.isEmpty, !remembered {
            note("\(SpeciesError.describe(failures)); answered by \(name(of: root))")
        }
    }

    private func builtIn(at root: APIRoot) -> BundledCatalog {
        BundledCatalog(root: root, dialect: catalog(root, nil).dialect)
    }

    /// `swapi.dev`: the host (and port) of the service, or, when another
    /// of the list has the same, its API root without the scheme.
    func name(of root: APIRoot) -> String {
        let authority = root.origin.authority
        guard roots.contains(where: { $0 != root && $0.origin.authority == authority }) else { return authority }
        return authority + root.path
    }

    /// Said once for the life of the client, whatever answered or stood in.
    private func note(_ message: String) {
        guard !said.withLock({ said in defer { said = true }; return said }) else { return }
        diagnostics.note(message)
    }
}
