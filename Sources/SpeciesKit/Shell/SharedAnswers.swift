import Foundation
import Synchronization

/// What performs `Memory`'s actions: its callers wait on continuations, its
/// fetches are tasks of their own, which no caller's cancellation reaches
/// (the memory decides when one stops). Every event goes through `handle`,
/// under one lock; what the memory says of locks, records and notices goes
/// back to the fetch that asked.
final class SharedAnswers: Sendable {
    typealias Fetch =
        @Sendable (_ flight: UInt64, _ isolation: isolated (any Actor)?) async -> Result<SharedAnswer, Fault>
    private typealias Waiter = CheckedContinuation<Result<SharedAnswer, Fault>, Never>

    private struct State {
        var memory: Memory
        var waiters: [UInt64: Waiter] = [:]
        var fetches: [UInt64: Task<Void, Never>] = [:]
        var lastCaller: UInt64 = 0
    }

    private let state: Mutex<State>

    init(_ memory: Memory) { state = Mutex(State(memory: memory)) }

    /// What the memory holds, for its queries.
    var memory: Memory { state.withLock { $0.memory } }

    /// Hands `event` to the memory; gives callers their results, and returns
    /// the rest of what it says to do.
    @discardableResult func handle(_ event: Memory.Event) -> [Memory.Action] {
        perform(state.withLock { $0.memory.handle(event) }, fetch: nil, isolation: nil)
    }

    /// The answer to `question`, as the memory says: kept, joined, or
    /// fetched by `fetch`, which starts at once where the caller is (its
    /// `isolation`), so that an answer of the cache needs no other thread.
    func answer(
        to question: Question, mode: CachePolicy.Mode, lifetime: Double, now: Date,
        isolation: isolated (any Actor)? = #isolation, fetch: @escaping Fetch
    ) async -> Result<SharedAnswer, Fault> {
        let caller = state.withLock { state in
            state.lastCaller += 1
            return state.lastCaller
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: Waiter) in
                let actions = state.withLock { state in
                    state.waiters[caller] = continuation
                    return state.memory.handle(
                        Task.isCancelled
                            ? .cancelled(caller: caller)
                            : .asked(caller: caller, question, mode: mode, lifetime: lifetime, now: now))
                }
                _ = perform(actions, fetch: fetch, isolation: isolation)
            }
        } onCancel: {
            handle(.cancelled(caller: caller))
        }
    }

    /// Gives results, starts and stops fetches; returns the other actions.
    private func perform(_ actions: [Memory.Action], fetch: Fetch?, isolation: isolated (any Actor)?) -> [Memory.Action]
    {
        var rest: [Memory.Action] = []
        for action in actions {
            switch action {
            case .give(let callers, let result):
                let waiters = state.withLock { state in callers.compactMap { state.waiters.removeValue(forKey: $0) } }
                for waiter in waiters { waiter.resume(returning: result) }
            case .start(let flight, _, _):
                guard let fetch else { continue }
                let run: @Sendable (isolated (any Actor)?) async -> Void = { isolation in
                    let result = await fetch(flight, isolation)
                    _ = self.handle(.landed(flight: flight, result))
                    _ = self.state.withLock { $0.fetches.removeValue(forKey: flight) }
                }
                let task: Task<Void, Never>
                if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
                    task = Task.immediate { await run(isolation) }
                } else {
                    task = Task { await run(nil) }
                }
                state.withLock { state in if state.memory.flies(flight) { state.fetches[flight] = task } }
            case .stop(let flight): state.withLock { $0.fetches.removeValue(forKey: flight) }?.cancel()
            default: rest.append(action)
            }
        }
        return rest
    }
}
