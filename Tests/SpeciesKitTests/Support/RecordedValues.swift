import Synchronization

/// A list that closures running anywhere can append to.
final class RecordedValues<Element: Sendable>: Sendable {
    private let values = Mutex<[Element]>([])

    var all: [Element] { values.withLock { $0 } }

    func append(_ value: Element) { values.withLock { $0.append(value) } }
}
