/// The names of the cache's files, and which of them a run left behind
/// (docs/cli.md, "cache"). An entry, a record or a lock is named
/// `<16 hex digits><kind>`, the digits a 64-bit FNV-1a hash of its key (the
/// key is kept in the file too, so that a collision reads as a miss); a
/// write goes first to `.<name>.<writer's process id>.<n>.tmp`.
enum CacheFileName: String, CaseIterable, Sendable {
    case entry = ".entry"
    /// What species remembers of a service (its dialect, that it answered,
    /// an outage): no entry, though of the same form.
    case record = ".record"
    /// The lock of a question that runs sharing the cache share.
    case lock = ".lock"

    /// The name of the file of `key`.
    func of(_ key: String) -> String {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in key.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits + rawValue
    }

    /// The temporary file of `name` that process `writer` writes.
    static func temporary(of name: String, writer: Int32, nonce: UInt32) -> String { ".\(name).\(writer).\(nonce).tmp" }

    /// Whether `name` is one of the cache's own files, of `kind` when one is
    /// given; a temporary file is of no kind.
    static func isOwn(_ name: String, kind: CacheFileName? = nil) -> Bool {
        let named = { (text: String) in
            (kind.map { [$0] } ?? allCases).contains {
                text.count == 16 + $0.rawValue.count && text.hasSuffix($0.rawValue)
            } && text.prefix(16).allSatisfy(\.isHexDigit)
        }
        guard let temporary = parts(ofTemporary: name) else { return named(name) }
        return kind == nil && named(temporary.name)
    }

    /// Whether the temporary file `name`, last written `age` seconds ago,
    /// was left by a run that ended: its writer `isGone`, or it is older
    /// than `TimeLimits.abandoned`.
    static func isAbandoned(_ name: String, age: Double, isGone: (Int32) -> Bool) -> Bool {
        guard let temporary = parts(ofTemporary: name) else { return false }
        return temporary.writer.map(isGone) == true || age > TimeLimits.abandoned
    }

    /// `.<name>.<writer>.<n>.tmp`: the name and the writer's process id.
    private static func parts(ofTemporary name: String) -> (name: String, writer: Int32?)? {
        let parts = name.dropFirst().split(separator: ".")
        guard name.hasPrefix("."), name.hasSuffix(".tmp"), parts.count == 5 else { return nil }
        return (parts[0] + "." + parts[1], Int32(parts[2]))
    }
}
