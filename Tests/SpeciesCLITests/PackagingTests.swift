import Foundation
import Testing
import TestSupport

/// species as others get it: installed by make, and SpeciesKit as a
/// dependency of another package.
@Suite("Install and use as a library")
struct PackagingTests {
    /// A folder of this test run, under .build, which `make clean` removes.
    private static func scratch(_ name: String) throws -> URL {
        let folder = SpeciesBinary.home.appendingPathComponent("\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// The `swift` blocks of the README, in order.
    private static func readmeSwiftBlocks() throws -> [String] {
        var blocks: [String] = []
        var current: [Substring]?
        for line in try Fixtures.text("../README.md").split(separator: "\n", omittingEmptySubsequences: false) {
            if line == "```swift" {
                current = []
            } else if line.hasPrefix("```"), let lines = current {
                blocks.append(lines.joined(separator: "\n") + "\n")
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    @Test(.timeLimit(.minutes(10)))
    func theReadmeExampleBuildsAndRunsInAPackageOfItsOwn() async throws {
        let blocks = try Self.readmeSwiftBlocks()
        try #require(blocks.count == 2, "the README shows Package.swift lines, then main.swift")
        // Beside the package, as the README's "../species" says; SwiftPM names
        // a path dependency after its folder.
        let folder = try Self.scratch("example")
        try FileManager.default.createSymbolicLink(at: folder.appendingPathComponent("species"), withDestinationURL: Fixtures.packageRoot)
        let package = folder.appendingPathComponent("Example")
        let sources = package.appendingPathComponent("Sources/Example")
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
        let manifest = blocks[0].split(separator: "\n").filter { !$0.hasPrefix("//") }.joined(separator: "\n")
        try Data("// swift-tools-version: 6.0\nimport PackageDescription\n\nlet package = Package(name: \"Example\", \(manifest))\n".utf8)
            .write(to: package.appendingPathComponent("Package.swift"))
        try Data(blocks[1].utf8).write(to: sources.appendingPathComponent("main.swift"))

        let swift = URL(fileURLWithPath: "/usr/bin/env")
        let build = try await ChildProcess.run(
            swift, ["swift", "build", "--package-path", package.path], environment: SpeciesBinary.environment(), timeout: 540)
        try #require(build.status == 0, "\(build)")

        let root = try await ServerSession().root()
        let listed = try await SpeciesBinary.run(["--base-url", root, "list", "--all-pages", "--json"])
        let piped = package.appendingPathComponent("species.json")
        try Data(listed.stdout.utf8).write(to: piped)
        let example = try await ChildProcess.run(
            package.appendingPathComponent(".build/debug/Example"), [],
            environment: SpeciesBinary.environment(["SWAPI_BASE_URL": root]), stdin: piped.path)
        #expect(example.status == 0, "\(example)")
        #expect(example.stdout == (try Fixtures.text("golden/show/3.txt")) + "the same 37 species either way\ntrue 100\n")
    }

    @Test(.timeLimit(.minutes(10)))
    func installPutsOneExecutableItsPageAndCompletionsAndUninstallTakesThemAway() async throws {
        let prefix = try Self.scratch("prefix")
        // A build folder of its own: `swift test` holds the package's.
        let build = try Self.scratch("build")
        let make = URL(fileURLWithPath: "/usr/bin/env")
        let environment = SpeciesBinary.environment()
        let install = try await ChildProcess.run(
            make, ["make", "-s", "-C", Fixtures.packageRoot.path, "install", "PREFIX=\(prefix.path)", "SCRATCH=\(build.path)"],
            environment: environment, timeout: 540)
        try #require(install.status == 0, "\(install)")
        let installed = try FileManager.default.subpathsOfDirectory(atPath: prefix.path).filter { path in
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: prefix.appendingPathComponent(path).path, isDirectory: &isFolder) && !isFolder.boolValue
        }.sorted()
        #expect(installed == [
            "bin/species", "share/bash-completion/completions/species", "share/fish/vendor_completions.d/species.fish",
            "share/man/man1/species.1", "share/zsh/site-functions/_species",
        ])
        let version = try await ChildProcess.run(prefix.appendingPathComponent("bin/species"), ["--version"], environment: environment)
        #expect(version.stdout == "species 0.1.0\n")
        let symbols = try await ChildProcess.run(make, ["nm", prefix.appendingPathComponent("bin/species").path], environment: environment)
        #expect(symbols.stderr.contains("no symbols"), "stripped")

        let uninstall = try await ChildProcess.run(
            make, ["make", "-s", "-C", Fixtures.packageRoot.path, "uninstall", "PREFIX=\(prefix.path)", "SCRATCH=\(build.path)"],
            environment: environment)
        #expect(uninstall.status == 0, "\(uninstall)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: prefix.path) == [])
    }
}
