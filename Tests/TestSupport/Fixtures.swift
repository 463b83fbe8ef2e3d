import Foundation

/// Files under the package's `Fixtures/` folder.
public enum Fixtures {
    /// The package root, found from this file's place in the tree.
    public static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

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
