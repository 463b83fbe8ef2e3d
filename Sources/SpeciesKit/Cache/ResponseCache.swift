import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Responses on disk, one file per URL, under `$XDG_CACHE_HOME/species/`
/// (else `~/.cache/species/`). A file holds a short text header (the URL,
/// when it was fetched, its validators, the body's length) and the body.
/// Writes go to a temporary file that is then renamed over the entry, so a
/// reader never sees half an entry, and two processes writing at once leave
/// one whole entry. An entry that cannot be read, or does not add up, is
/// treated as absent and replaced at the next write.
public struct ResponseCache: Sendable {
    public struct Entry: Sendable, Equatable {
        public var url: String
        public var fetched: Date
        public var etag: String?
        public var lastModified: String?
        public var body: Data

        public init(url: String, fetched: Date, etag: String? = nil, lastModified: String? = nil, body: Data) {
            self.url = url
            self.fetched = fetched
            self.etag = etag
            self.lastModified = lastModified
            self.body = body
        }

        /// The entry as the response it was.
        public var response: HTTPResponse {
            var headers: [String: String] = [:]
            headers["etag"] = etag
            headers["last-modified"] = lastModified
            return HTTPResponse(status: 200, headers: headers, body: body)
        }
    }

    public struct Summary: Sendable, Equatable {
        public var entries = 0
        public var bytes = 0
        public var oldest: Date?
        public var newest: Date?
    }

    private static let magic = "species-cache 1"
    private static let suffix = ".entry"

    public let directory: URL

    public init(directory: URL) {
        self.directory = directory
    }

    /// `$XDG_CACHE_HOME/species` when that is an absolute path, else
    /// `$HOME/.cache/species`; nil when neither is set.
    public static func defaultDirectory(environment: [String: String]) -> URL? {
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg).appendingPathComponent("species")
        }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return URL(fileURLWithPath: home).appendingPathComponent(".cache/species")
    }

    public func read(_ url: URL) -> Entry? {
        guard let data = FileManager.default.contents(atPath: file(for: url.absoluteString).path) else { return nil }
        return Self.decode(data, url: url.absoluteString)
    }

    /// Writes `entry` whole, or not at all.
    public func write(_ entry: Entry) throws {
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let target = file(for: entry.url)
        let temporary = directory.appendingPathComponent(".\(target.lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp")
        // The header, then the body as it is: no copy of a large body is made.
        try Self.header(of: entry).write(to: temporary)
        let file = try FileHandle(forWritingTo: temporary)
        do {
            try file.seekToEnd()
            try file.write(contentsOf: entry.body)
            try file.close()
        } catch {
            try? file.close()
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
        guard rename(temporary.path, target.path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: temporary)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: reason])
        }
    }

    public func summary() -> Summary {
        var summary = Summary()
        for file in entryFiles() {
            guard let data = FileManager.default.contents(atPath: file.path) else { continue }
            summary.entries += 1
            summary.bytes += data.count
            if let fetched = Self.decode(data, url: nil)?.fetched {
                summary.oldest = min(summary.oldest ?? fetched, fetched)
                summary.newest = max(summary.newest ?? fetched, fetched)
            }
        }
        return summary
    }

    /// Removes every entry, and temporary files left by interrupted writes.
    public func clear() throws -> Summary {
        let removed = summary()
        let files = (try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)) ?? []
        for file in files where file.lastPathComponent.hasSuffix(Self.suffix) || file.lastPathComponent.hasSuffix(".tmp") {
            try FileManager.default.removeItem(at: file)
        }
        return removed
    }

    private func entryFiles() -> [URL] {
        let files = (try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)) ?? []
        return files.filter { $0.lastPathComponent.hasSuffix(Self.suffix) && !$0.lastPathComponent.hasPrefix(".") }
    }

    /// The entry's file: a 64-bit FNV-1a hash of the URL. The URL is kept in
    /// the entry too, so that a collision reads as a miss.
    private func file(for url: String) -> URL {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in url.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3
        }
        let name = String(hash, radix: 16)
        return directory.appendingPathComponent(String(repeating: "0", count: 16 - name.count) + name + Self.suffix)
    }

    /// The text before an entry's body, ending in a blank line.
    static func header(of entry: Entry) -> Data {
        var header = "\(magic)\nurl \(entry.url)\nfetched \(entry.fetched.timeIntervalSince1970)\n"
        if let etag = entry.etag, Self.fitsOnALine(etag) { header += "etag \(etag)\n" }
        if let lastModified = entry.lastModified, Self.fitsOnALine(lastModified) { header += "last-modified \(lastModified)\n" }
        header += "length \(entry.body.count)\n\n"
        return Data(header.utf8)
    }

    /// The entry in `data`, if it is whole and, when `url` is given, for it.
    static func decode(_ data: Data, url: String?) -> Entry? {
        guard let end = data.firstRange(of: Data("\n\n".utf8)) else { return nil }
        let lines = String(decoding: data[..<end.lowerBound], as: UTF8.self).split(separator: "\n")
        guard lines.first == Substring(magic) else { return nil }
        var fields: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let space = line.firstIndex(of: " ") else { return nil }
            fields[String(line[..<space])] = String(line[line.index(after: space)...])
        }
        // A slice, not a copy: a cached page can be tens of megabytes.
        let body = data[end.upperBound...]
        guard let entryURL = fields["url"], url == nil || entryURL == url,
            let fetched = fields["fetched"].flatMap(Double.init), fetched.isFinite,
            let length = fields["length"].flatMap(Int.init), length == body.count
        else { return nil }
        return Entry(
            url: entryURL, fetched: Date(timeIntervalSince1970: fetched), etag: fields["etag"],
            lastModified: fields["last-modified"], body: body)
    }

    private static func fitsOnALine(_ value: String) -> Bool {
        !value.contains { $0 == "\n" || $0 == "\r" }
    }
}
