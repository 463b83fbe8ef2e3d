import Foundation
import Testing

@testable import SpeciesKit

/// What a client makes of what it remembers of its services, as a table.
@Suite("What a client remembers of its services")
struct RememberingTests {
    static let (dev, py4e, tech, info) = (
        APIRoot.publicServices[0], APIRoot.publicServices[1], APIRoot.publicServices[2], APIRoot.publicServices[3]
    )
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func record(_ root: APIRoot?, confirmedAgo seconds: Double) -> Remembering.Record {
        Remembering.Record(
            root: root, since: now.addingTimeInterval(-9_999), confirmed: now.addingTimeInterval(-seconds))
    }

    /// A pasted URL's service first; then the one that answered in this
    /// process, else the one a fresh record names; then the list's order.
    @Test(
        arguments: [
            (nil, nil, nil, [dev, py4e, tech, info]),
            (nil, nil, record(tech, confirmedAgo: 60), [tech, dev, py4e, info]),
            (nil, nil, record(tech, confirmedAgo: 600), [dev, py4e, tech, info]),
            (nil, nil, record(nil, confirmedAgo: 60), [dev, py4e, tech, info]),
            (nil, py4e, record(tech, confirmedAgo: 60), [py4e, dev, tech, info]),
            (info, py4e, nil, [info, py4e, dev, tech]),
            (dev, nil, record(tech, confirmedAgo: 60), [dev, tech, py4e, info]),
        ] as [(APIRoot?, APIRoot?, Remembering.Record?, [APIRoot])])
    func theOrder(named: APIRoot?, answering: APIRoot?, record: Remembering.Record?, order: [APIRoot]) {
        let roots = APIRoot.publicServices
        #expect(
            Remembering.order(roots, named: named, answering: answering, record: record, maxAge: 300, now: Self.now)
                == order)
    }

    /// The record written when a service answers first in this process.
    @Test(
        arguments: [
            (4, true, nil, now), (1, true, nil, nil), (4, false, nil, nil),
            (4, true, record(tech, confirmedAgo: 60), now), (4, true, record(dev, confirmedAgo: 60), nil),
            (4, true, record(dev, confirmedAgo: 600), now.addingTimeInterval(-9_999)),
        ] as [(Int, Bool, Remembering.Record?, Date?)])
    func theRecord(services: Int, hasCache: Bool, record: Remembering.Record?, since: Date?) {
        let roots = Array(APIRoot.publicServices.prefix(services))
        #expect(
            Remembering.since(
                Self.dev, answeredFirstOf: roots, record: record, hasCache: hasCache, maxAge: 300, now: Self.now)
                == since)
    }

    /// A dialect is remembered when it changes what was, or is not the guess.
    @Test(
        arguments: [
            (Dialect.drf, nil, Dialect.drf, false), (.tech, nil, .drf, true), (.tech, .tech, .drf, false),
            (.drf, .tech, .drf, true), (.info, .tech, .info, true),
        ] as [(Dialect, Dialect?, Dialect, Bool)])
    func theDialect(dialect: Dialect, remembered: Dialect?, guess: Dialect, remembers: Bool) {
        #expect(Remembering.remembers(dialect, remembered: remembered, guess: guess) == remembers)
    }
}
