import Foundation
import Synchronization

/// Which SWAPI service answers, and what stands in when none can
/// (docs/swapi-dialects.md, "Which service answers"; docs/cli.md, "When
/// the API cannot answer" and "One answer, one source").
///
/// An answer is asked of one source at a time, whole: a service (through
/// its cache), the cache of a service alone, or the data built into
/// species. The services are asked in turn: first the one that answered in
/// this process, else the one remembered while its record is fresh
/// (`ServiceMemory`), then the rest in the list's order. One that gives no
/// answer (`SpeciesError.meansUnanswered`), at its first request or part
/// way, gives way to the next at once, and what it sent is dropped
/// (`AnswerDraft`). What each request may take is decided here, once for
/// each service (`limits(_:othersFollow:)`): every request of an answer ends
/// by one deadline, the timeout from the answer's start, and the services
/// it leaves no time for are not asked; while others follow a service, its
/// requests keep a minimum pace and are not retried. When none answers:
/// the cache, whatever its age, of each in turn; then, when one of them is
/// SWAPI's own, the data built into species. Offline: the cache of each,
/// then the built-in data, for any host. What stood in, or which service
/// took over, is said once on stderr.
final class ServiceList: Sendable {
    /// The catalog of a service, whose requests take what the limits say,
    /// and whose answer goes to a draft.
    typealias CatalogMaker = @Sendable (APIRoot, RequestLimits, AnswerDraft) -> RemoteCatalog

    let roots: [APIRoot]
    private let catalog: CatalogMaker
    private let memory: ServiceMemory
    private let cache: ResponseCache?
    private let mode: CachePolicy.Mode
    /// False: when no service answers, that is the answer (`--no-fallback`).
    private let fallback: Bool
    /// The deadline of an answer, from now.
    private let deadline: @Sendable () -> Deadline
    /// Of the last service asked.
    private let retries: Int
    private let diagnostics: any Diagnostics
    /// The service that answered in this process, asked first from then on.
    private let answering = Mutex<APIRoot?>(nil)
    private let said = Mutex(false)

    init(
        roots: [APIRoot], memory: ServiceMemory, cache: ResponseCache?, mode: CachePolicy.Mode, fallback: Bool,
        deadline: @escaping @Sendable () -> Deadline, retries: Int, diagnostics: any Diagnostics,
        catalog: @escaping CatalogMaker
    ) {
        self.roots = roots
        self.memory = memory
        self.cache = cache
        self.mode = mode
        self.fallback = fallback
        self.deadline = deadline
        self.retries = retries
        self.diagnostics = diagnostics
        self.catalog = catalog
    }

    /// What `body` makes of the first source that answers it whole, and
    /// which source that is.
    func answer<Value>(_ body: (any SpeciesSource) async throws -> Value) async throws -> Answer<Value> {
        let order = self.order
        if mode == .offline {
            if let (answer, cached) = await fromCache(order, body) {
                return Answer(try answer.get(), from: .cache(cached.root, fetched: cached.fetched))
            }
            note("offline: answering from the SWAPI data built into species (recorded \(BundledCatalog.recorded))")
            return Answer(try await body(builtIn(at: order[0])), from: .builtInData(recorded: BundledCatalog.recorded))
        }
        let deadline = self.deadline()
        var failures: [ServiceFailure] = []
        for (index, root) in order.enumerated() {
            // The services the deadline leaves no time for are not asked.
            guard index == 0 || !deadline.hasPassed else { break }
            let limits = self.limits(deadline, othersFollow: index < order.count - 1)
            let draft = AnswerDraft(diagnostics, cache: cache)
            do {
                let value = try await body(catalog(root, limits, draft))
                draft.keep()
                settle(on: root, after: failures)
                return Answer(value, from: .service(root))
            } catch let error as SpeciesError where error.meansUnanswered {
                let dropped = draft.drop(from: name(of: root))
                failures.append(ServiceFailure(service: name(of: root), error: error, dropped: dropped))
                answering.withLock { if $0 == root { $0 = nil } }
                diagnostics.trace("giving up on \(name(of: root)): \(error.cause)")
            } catch let error as SpeciesError {
                // An answer all the same, such as a 404 or a name that matches nothing.
                draft.keep()
                settle(on: root, after: failures)
                throw error
            }
        }
        guard fallback else {
            throw failures.count == 1 ? failures[0].error : SpeciesError.noServiceAnswered(failures)
        }
        let why = SpeciesError.describe(failures)
        if let (answer, cached) = await fromCache(order, body) {
            let age = TimeSpan.describe(Date().timeIntervalSince(cached.fetched))
            note(
                "\(why): answering from \(roots.count == 1 ? "the cache" : "the cache of \(name(of: cached.root))"), as fetched \(age) ago"
            )
            return Answer(try answer.get(), from: .cache(cached.root, fetched: cached.fetched))
        }
        guard let swapi = order.first(where: { Dialect.ofPublicHost($0) != nil }) else {
            let cause = failures.count == 1 ? failures[0].error : SpeciesError.noServiceAnswered(failures)
            throw SpeciesError.unanswered(cause, host: failures.count == 1 ? failures[0].service : "any of them")
        }
        note("\(why): answering from the SWAPI data built into species (recorded \(BundledCatalog.recorded))")
        return Answer(try await body(builtIn(at: swapi)), from: .builtInData(recorded: BundledCatalog.recorded))
    }

    /// What each request of a service may take: all end by the answer's
    /// deadline; while others follow the service, they must keep
    /// `MinimumPace.followed` and are not retried, so that a slow or
    /// failing service gives way; the last retries as configured.
    private func limits(_ deadline: Deadline, othersFollow: Bool) -> RequestLimits {
        RequestLimits(
            deadline: deadline, minimumPace: othersFollow ? .followed : nil, retries: othersFollow ? 0 : retries)
    }

    /// The answer of the first service's cache, whatever its age, that holds
    /// all of it (a value, or an error that answers, such as a name that
    /// matches nothing); with that service, and when the oldest of it was
    /// fetched.
    private func fromCache<Value>(
        _ order: [APIRoot], _ body: (any SpeciesSource) async throws -> Value
    ) async -> (Result<Value, any Error>, (root: APIRoot, fetched: Date))? {
        for root in order {
            let draft = AnswerDraft(diagnostics, cache: nil)
            let answer = await Result.capturing {
                try await body(catalog(root, RequestLimits(), draft).cacheOnly())
            }
            if case .failure(let error as SpeciesError) = answer, error.meansUnanswered || error.isNotCached {
                _ = draft.drop(from: "the cache of \(name(of: root))")
                continue
            }
            let fetched = draft.oldestFromCache ?? Date()
            draft.keep()
            return (answer, (root, fetched))
        }
        return nil
    }

    /// The services in the order they are asked.
    private var order: [APIRoot] {
        guard let first = answering.withLock({ $0 }) ?? memory.fresh, let index = roots.firstIndex(of: first) else {
            return roots
        }
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
        BundledCatalog(root: root, dialect: memory.dialect(of: root) ?? Dialect.guess(for: root))
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
        guard
            !said.withLock({ said in
                defer { said = true }; return said
            })
        else { return }
        diagnostics.note(message)
    }
}
