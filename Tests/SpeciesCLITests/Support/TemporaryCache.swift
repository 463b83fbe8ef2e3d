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

    func entries() throws -> [URL] {
        let species = folder.appendingPathComponent("species")
        guard FileManager.default.fileExists(atPath: species.path) else { return [] }
        return try FileManager.default.contentsOfDirectory(at: species, includingPropertiesForKeys: nil)
    }
}
