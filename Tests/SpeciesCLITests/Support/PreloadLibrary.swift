import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// Tests/Tools/`name`.c as a library to preload into species, built once a
/// run: a hook that watches it from inside.
enum PreloadLibrary {
    static func built(_ name: String) async throws -> URL {
        let library = Fixtures.runFolder.appendingPathComponent("\(name).so")
        if FileManager.default.fileExists(atPath: library.path) { return library }
        let source = Fixtures.packageRoot.appendingPathComponent("Tests/Tools/\(name).c")
        let building = Fixtures.temporaryFolder(name)
        let compiler = try await ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/env"), ["clang", "-shared", "-fPIC", "-o", building.path, source.path])
        try #require(compiler.status == 0, "clang (the toolchain's) builds the library: \(compiler)")
        _ = rename(building.path, library.path)
        return library
    }
}
