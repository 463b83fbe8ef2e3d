/// What the client reports while it works, for a person to read: where it
/// goes is the app's (``SpeciesClient/init(configuration:transport:diagnostics:clock:)``).
/// Nothing reported here is part of a result.
public protocol Diagnostics: Sendable {
    /// Something was wrong, and the answer goes on without it.
    func warning(_ message: String)
    /// Information: a retry, where an answer came from.
    func note(_ message: String)
    /// What is being fetched, such as "fetching page 3 of 4…".
    func progress(_ message: String)
    /// A step of the client's work, for whoever asks to see them: each
    /// request and where its answer came from, the dialect of a service, a
    /// service given up on, the page plan.
    func trace(_ message: String)
    /// Whether ``trace(_:)`` reads what it is given: when it does not, the
    /// client does not make the messages. True unless a type says otherwise.
    var readsTraces: Bool { get }
}

extension Diagnostics {
    /// Steps are for those who ask: by default, nowhere.
    public func trace(_ message: String) {}

    /// True: a type that implements ``trace(_:)`` gets every step.
    public var readsTraces: Bool { true }

    /// The step `message` makes, made only when someone reads it.
    func trace(_ message: () -> String) { if readsTraces { trace(message()) } }
}

/// Diagnostics that go nowhere: the client's default.
struct NoDiagnostics: Diagnostics {
    func warning(_ message: String) {}
    func note(_ message: String) {}
    func progress(_ message: String) {}
    var readsTraces: Bool { false }
}
