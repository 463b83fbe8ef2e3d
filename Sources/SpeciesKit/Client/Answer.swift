import Foundation

/// What the client answers: a value, whole from one source, and which one.
public struct Answer<Value: Sendable>: Sendable {
    /// What was asked for.
    public var value: Value
    /// Where all of it came from.
    public var source: AnswerSource

    /// A value from `source`.
    public init(_ value: Value, from source: AnswerSource) {
        self.value = value
        self.source = source
    }
}

/// Where an answer came from: one service, one service's cache, or the
/// SWAPI data built into SpeciesKit; never parts of two.
public enum AnswerSource: Sendable, Equatable {
    /// The service at this root answered (its fresh cached responses
    /// included).
    case service(APIRoot)
    /// No service could answer, and the responses the client had cached
    /// from the service at this root did, whatever their age; the oldest of
    /// them was fetched at `fetched`.
    case cache(APIRoot, fetched: Date)
    /// The SWAPI data built into SpeciesKit answered, as recorded on the day
    /// `recorded` names (`2026-11-21`): offline, or when no service nor
    /// cache could answer for SWAPI's own services.
    case builtInData(recorded: String)
}
