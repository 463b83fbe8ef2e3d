import Foundation
import Synchronization

extension SpeciesClient {
    /// A question of the client's callers, as they share it: the method
    /// asked and its arguments, exactly.
    enum Question: Hashable, Sendable, CustomStringConvertible {
        case page(Int, search: String?)
        case species(search: String?, limit: Int?)
        case one(SpeciesQuery)
        case related(SpeciesQuery)

        /// The service of `services` that the species URL asked for names
        /// (docs/cli.md, "show").
        func named(among services: [APIRoot]) -> APIRoot? {
            guard case .url(let url) = query else { return nil }
            return services.first { $0.speciesURL(url) != nil }
        }

        /// The species asked for, by `show`.
        private var query: SpeciesQuery? {
            switch self {
            case .one(let query), .related(let query): query
            default: nil
            }
        }

        /// `page 2 search 'an'`: how the cache names its lock.
        var description: String {
            switch self {
            case .page(let number, let search): "page \(number)" + (search.map { " search '\($0)'" } ?? "")
            case .species(let search, let limit):
                "species" + (search.map { " search '\($0)'" } ?? "") + (limit.map { " limit \($0)" } ?? "")
            case .one(let query): "one \(query.key)"
            case .related(let query): "related \(query.key)"
            }
        }
    }
}

extension SpeciesQuery {
    /// The query whole, credentials aside: `name Wookie`, `id 3`, `url ...`.
    fileprivate var key: String {
        switch self {
        case .name(let name): "name \(name)"
        case .id(let id): "id \(id)"
        case .url(let url): "url \(url.withoutCredentials.absoluteString)"
        }
    }
}

/// A whole answer, as callers share it and a client keeps it: the value,
/// its source, when the oldest response it was made of was fetched, and
/// how many bytes those responses held.
struct SharedAnswer: Sendable {
    var value: any Sendable
    var source: AnswerSource
    var fetched: Date
    var bytes: Int
}

/// One fetch for a question that several callers of a client ask while it
/// is answered, as Go's `singleflight` has it, and the answers kept
/// (`KeptAnswers`). A caller that is cancelled stops waiting at once; the
/// fetch goes on while any caller waits, and is cancelled with the last.
final class SharedAnswers: Sendable {
    private typealias Waiter = CheckedContinuation<Result<SharedAnswer, Fault>, Never>

    private struct Flight {
        let id: UInt64
        var waiters: [UInt64: Waiter] = [:]
        var task: Task<Void, Never>?
    }

    private struct State {
        var kept = KeptAnswers()
        var flights: [SpeciesClient.Question: Flight] = [:]
        var lastID: UInt64 = 0
    }

    private let state = Mutex(State())

    /// The answer to `question`: kept, while `maxAge` (nil: none is kept or
    /// read) says it is fresh at `now`; else the one being fetched; else
    /// the one `fetch` fetches.
    ///
    /// The fetch is a task of its own, which no caller's cancellation
    /// reaches; it starts at once where the caller is (its `isolation`), as
    /// the client's work does, so that an answer of the cache needs no
    /// other thread.
    func answer(
        to question: SpeciesClient.Question, maxAge: Double?, now: @escaping @Sendable () -> Date,
        isolation: isolated (any Actor)? = #isolation,
        fetch: @escaping @Sendable (_ isolation: isolated (any Actor)?) async -> Result<SharedAnswer, Fault>
    ) async -> Result<SharedAnswer, Fault> {
        let waiter = state.withLock { state in
            state.lastID += 1
            return state.lastID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: Waiter) in
                let flight: UInt64? = state.withLock { state in
                    if Task.isCancelled {
                        continuation.resume(returning: .failure(.cancelled))
                        return nil
                    }
                    if let maxAge, let kept = state.kept.answer(to: question, now: now(), maxAge: maxAge) {
                        continuation.resume(returning: .success(kept))
                        return nil
                    }
                    if state.flights[question] != nil {
                        state.flights[question]?.waiters[waiter] = continuation
                        return nil
                    }
                    state.lastID += 1
                    state.flights[question] = Flight(id: state.lastID, waiters: [waiter: continuation])
                    return state.lastID
                }
                guard let flight else { return }
                let task = Task.immediate {
                    let result = await fetch(isolation)
                    self.land(question, flight, result, keeping: maxAge != nil)
                }
                let started = state.withLock { state in
                    guard state.flights[question]?.id == flight else { return false }
                    state.flights[question]?.task = task
                    return true
                }
                // Its last caller left before the task was known.
                if !started { task.cancel() }
            }
        } onCancel: {
            leave(question, waiter)
        }
    }

    /// The fetch of `flight` ended: its callers get `result`, which is kept.
    private func land(
        _ question: SpeciesClient.Question, _ flight: UInt64, _ result: Result<SharedAnswer, Fault>, keeping: Bool
    ) {
        let waiters = state.withLock { state -> [Waiter] in
            guard let landed = state.flights[question], landed.id == flight else { return [] }
            state.flights[question] = nil
            if keeping, case .success(let answer) = result { state.kept.keep(answer, for: question) }
            return Array(landed.waiters.values)
        }
        for waiter in waiters { waiter.resume(returning: result) }
    }

    /// Caller `waiter` was cancelled: it stops waiting, and the fetch stops
    /// when no caller is left.
    private func leave(_ question: SpeciesClient.Question, _ waiter: UInt64) {
        let (left, task) = state.withLock { state -> (Waiter?, Task<Void, Never>?) in
            guard let left = state.flights[question]?.waiters.removeValue(forKey: waiter) else { return (nil, nil) }
            guard state.flights[question]?.waiters.isEmpty == true else { return (left, nil) }
            return (left, state.flights.removeValue(forKey: question)?.task)
        }
        left?.resume(returning: .failure(.cancelled))
        task?.cancel()
    }
}
