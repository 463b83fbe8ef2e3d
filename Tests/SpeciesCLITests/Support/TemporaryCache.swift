import Foundation
import TestSupport

/// A cache folder of a test's own, as `XDG_CACHE_HOME`, and the files
/// species wrote in it.
struct TemporaryCache {
    let folder: URL
    var environment: [String: String] { ["XDG_CACHE_HOME": folder.path] }

    init() throws {
        folder = Fixtures.temporaryFolder("cache")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    /// The files species wrote, its folder of temporary files aside.
    func entries() throws -> [URL] {
        try Self.files(in: folder.appendingPathComponent("species"))
    }

    /// The files of a cache folder, its folders of temporary files and
    /// locks aside.
    static func files(in species: URL) throws -> [URL] {
        guard FileManager.default.fileExists(atPath: species.path) else { return [] }
        return try FileManager.default.contentsOfDirectory(at: species, includingPropertiesForKeys: nil).filter {
            !["tmp", "locks"].contains($0.lastPathComponent)
        }
    }
}
