import Foundation
import Synchronization

/// Work on items as children of a task group, at most `limit` at once, each
/// result handed back as it comes: the pages of a listing, the links of
/// the related resources of a species. What is handed back says what to add, or that the work is
/// over, which cancels what is still running.
enum CappedRequests {
    enum Next<Item, Ending> {
        case more([Item])
        case end(Ending)
    }

    /// The ending `take` gives; nil when every item is done first.
    static func run<Item: Sendable, Value: Sendable, Ending>(
        _ items: [Item], limit: Int, _ work: @escaping @Sendable (Item) async -> Value,
        take: (Item, Value) -> Next<Item, Ending>
    ) async -> Ending? {
        await withTaskGroup(of: (Item, Value).self) { group in
            var queue = items[...]
            var inFlight = 0
            while true {
                while inFlight < max(1, limit), let item = queue.popFirst() {
                    group.addTask { (item, await work(item)) }
                    inFlight += 1
                }
                guard let (item, value) = await group.next() else { return nil }
                inFlight -= 1
                switch take(item, value) {
                case .more(let items): queue += items
                case .end(let ending):
                    group.cancelAll()
                    return ending
                }
            }
        }
    }
}

/// The requests of a listing under way, so that the first bytes of one can
/// stop the others (`ListingReader.comesAlone`).
final class StoppableRequests: Sendable {
    private let state = Mutex<(tasks: [URL: Task<Result<Data, Fault>, Never>], keeping: URL?)>(([:], nil))

    /// `work` for `url`, as a task that `stop(except:)` ends.
    func run(_ url: URL, _ work: @escaping @Sendable () async -> Result<Data, Fault>) async -> Result<Data, Fault> {
        let task = Task { await work() }
        let stopped = state.withLock { state in
            state.tasks[url] = task
            return state.keeping.map { $0 != url } ?? false
        }
        if stopped { task.cancel() }
        let result = await withTaskCancellationHandler {
            await task.value
        } onCancel: {
            task.cancel()
        }
        state.withLock { _ = $0.tasks.removeValue(forKey: url) }
        return result
    }

    /// Ends every request but `url`'s, and any asked after.
    func stop(except url: URL) {
        let others = state.withLock { state in
            state.keeping = url
            return state.tasks.filter { $0.key != url }.map(\.value)
        }
        for task in others { task.cancel() }
    }
}
