import Foundation
import Testing

@testable import SpeciesKit

/// What one GET does with the cache, as a table: no cache, clock or server.
@Suite("What a request does with the cache")
struct CacheUseTests {
    static let now = Date(timeIntervalSince1970: 1_000_000)

    @Test(
        arguments: [
            // (entry's age, a cache alone, the network, revalidate) -> use
            (nil, false, true, false, CacheUse.ask),
            (nil, false, false, false, .notCached),
            (nil, true, false, false, .notCached),
            (10.0, false, true, false, .cached),
            (10.0, false, true, true, .ask),
            (10.0, false, false, true, .notCached),
            (100.0, false, true, false, .ask),
            (100.0, false, false, false, .notCached),
            (100.0, true, false, false, .cached),
            (100.0, true, true, true, .cached),
            (-5.0, false, true, false, .ask),
        ] as [(Double?, Bool, Bool, Bool, CacheUse)])
    func theUse(age: Double?, anyAge: Bool, network: Bool, revalidate: Bool, use: CacheUse) {
        let fetched = age.map { Self.now.addingTimeInterval(-$0) }
        #expect(
            CacheUse.of(
                entry: fetched, anyAge: anyAge, network: network, revalidate: revalidate, now: Self.now, maxAge: 60)
                == use)
    }
}
