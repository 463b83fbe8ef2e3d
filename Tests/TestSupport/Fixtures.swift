import Foundation

/// Files under the package's `Fixtures/` folder.
public enum Fixtures {
    /// The URL of a species made up for a test of how it is shown.
    public static let speciesURL = "https://swapi.dev/api/species/1/"

    /// The package root, found from this file's place in the tree.
    public static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// This test run's own folder, under .build, which `make clean` empties.
    public static let runFolder = packageRoot.appendingPathComponent(".build/test-runs/\(UUID().uuidString)")

    /// The home of the processes a test runs, so that their cache starts
    /// empty.
    public static let home = runFolder.appendingPathComponent("home")

    /// A folder for one test alone, not made yet: its cache, its home, its
    /// files.
    public static func temporaryFolder(_ name: String) -> URL {
        try? FileManager.default.createDirectory(at: runFolder, withIntermediateDirectories: true)
        return runFolder.appendingPathComponent("\(name)-\(UUID().uuidString)")
    }

    public static func url(_ path: String) -> URL {
        packageRoot.appendingPathComponent("Fixtures").appendingPathComponent(path)
    }

    public static func data(_ path: String) throws -> Data {
        try Data(contentsOf: url(path))
    }

    public static func text(_ path: String) throws -> String {
        String(decoding: try data(path), as: UTF8.self)
    }

    /// The recorded responses of SWAPI, keyed by the URL each was recorded at
    /// (from `swapi/index.txt`), with their HTTP status.
    public static func recordedResponses() throws -> [String: (status: Int, body: Data)] {
        var responses: [String: (status: Int, body: Data)] = [:]
        for line in try text("swapi/index.txt").split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count == 3, let status = Int(fields[2]) else { continue }
            responses[String(fields[1])] = (status, try data("swapi/\(fields[0])"))
        }
        return responses
    }
}
