import Testing

@testable import SpeciesKit

/// The names of the cache's files, and which a run left behind, as tables:
/// no folder, process or clock.
@Suite("The cache's file names")
struct CacheFileNameTests {
    @Test func aKeyIsNamedByItsHash() {
        #expect(CacheFileName.entry.of("") == "cbf29ce484222325.entry", "FNV-1a's offset basis: no byte hashed")
        #expect(CacheFileName.lock.of("a") == "af63dc4c8601ec8c.lock")
        #expect(CacheFileName.record.of("a") == "af63dc4c8601ec8c.record", "one key, a name for each kind")
        #expect(
            CacheFileName.temporary(of: "af63dc4c8601ec8c.entry", writer: 42, nonce: 7)
                == ".af63dc4c8601ec8c.entry.42.7.tmp")
    }

    @Test(
        arguments: [
            // name, kind asked -> the cache's own
            ("0123456789abcdef.entry", nil, true), ("0123456789abcdef.entry", .entry, true),
            ("0123456789abcdef.entry", .record, false), ("0123456789ABCDEF.lock", nil, true),
            ("0123456789abcdef.record", .record, true), (".0123456789abcdef.entry.42.7.tmp", nil, true),
            (".0123456789abcdef.entry.42.7.tmp", .entry, false), (".0123456789abcdef.entry.tmp", nil, false),
            ("0123456789abcde.entry", nil, false), ("0123456789abcdeg.entry", nil, false),
            ("0123456789abcdef.entry.bak", nil, false), ("notes.txt", nil, false), (".bashrc", nil, false),
        ] as [(String, CacheFileName?, Bool)])
    func onlyItsOwnNamesAreTheCaches(name: String, kind: CacheFileName?, own: Bool) {
        #expect(CacheFileName.isOwn(name, kind: kind) == own)
    }

    @Test(
        arguments: [
            // name, age in seconds, writer gone -> abandoned
            (".0123456789abcdef.entry.42.7.tmp", 0.0, false, false),
            (".0123456789abcdef.entry.42.7.tmp", 0.0, true, true),
            (".0123456789abcdef.entry.42.7.tmp", 600.0, false, false),
            (".0123456789abcdef.entry.42.7.tmp", 601.0, false, true),
            (".0123456789abcdef.entry.x.7.tmp", 0.0, true, false),
            ("0123456789abcdef.entry", 10_000.0, true, false),
        ])
    func aTemporaryFileIsLeftWhenItsWriterIsGoneOrItIsOld(name: String, age: Double, gone: Bool, left: Bool) {
        var asked: [Int32] = []
        let abandoned = CacheFileName.isAbandoned(name, age: age) { writer in
            asked.append(writer)
            return gone
        }
        #expect(abandoned == left)
        #expect(asked.allSatisfy { $0 == 42 }, "the writer is read from the name")
    }
}
