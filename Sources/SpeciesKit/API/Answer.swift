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
public enum AnswerSource: Sendable, Hashable, CustomStringConvertible {
    /// The service at this root answered (its fresh cached responses
    /// included).
    case service(APIRoot)
    /// No service could answer, and the responses the client had cached
    /// from the service at this root did, whatever their age; the oldest of
    /// them was fetched at `fetched`.
    case cache(APIRoot, fetched: Date)
    /// The SWAPI data built into SpeciesKit answered, as recorded on the day
    /// `recorded` names (`2026-11-21`): for SWAPI's public services, offline,
    /// or when no service nor cache could answer.
    case builtInData(recorded: String)
    /// No source was asked: the question answers itself, as a limit of 0
    /// holds no species.
    case unasked

    /// `swapi.dev`; `the cache of swapi.dev, as fetched 2026-11-21 13:45:02 UTC`;
    /// `the SWAPI data built into SpeciesKit, recorded 2026-11-21`.
    public var description: String {
        switch self {
        case .service(let root): root.origin.authority
        case .cache(let root, let fetched):
            "the cache of \(root.origin.authority), as fetched \(Timestamp(fetched).forPeople)"
        case .builtInData(let recorded): "the SWAPI data built into SpeciesKit, recorded \(recorded)"
        case .unasked: "no source: the question needs none"
        }
    }
}
