import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Responses on disk, one file per URL, under `$XDG_CACHE_HOME/species/`
/// (else `~/.cache/species/`). A file holds a short text header (the URL,
/// when it was fetched, its validators, the body's length) and the body.
/// Only bodies that were read as SWAPI JSON are ever written (`Fetcher`).
///
/// Writes go to a temporary file, readable by its owner only, that is then
/// renamed over the entry: a reader never sees half an entry, and two
/// processes writing at once leave one whole entry. An entry that cannot be
/// read, or does not add up, is treated as absent and replaced at the next
/// write. URLs are kept without credentials.
package struct ResponseCache: Sendable {
    package struct Entry: Sendable, Equatable {
        /// The URL, without user name or password.
        package var url: String
        package var fetched: Date
        package var etag: String?
        package var lastModified: String?
        package var body: Data

        package init(url: String, fetched: Date, etag: String? = nil, lastModified: String? = nil, body: Data) {
            self.url = url
            self.fetched = fetched
            self.etag = etag
            self.lastModified = lastModified
            self.body = body
        }
    }

    package struct Summary: Sendable, Equatable {
        package var entries = 0
        package var bytes = 0
        package var oldest: Date?
        package var newest: Date?
    }

    private static let magic = "species-cache 1"
    private static let suffix = ".entry"

    package let directory: URL

    package init(directory: URL) {
        self.directory = directory
    }

    /// `$XDG_CACHE_HOME/species` when that is an absolute path, else
    /// `$HOME/.cache/species`; nil when neither is set.
    package static func defaultDirectory(environment: [String: String]) -> URL? {
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg).appendingPathComponent("species")
        }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return URL(fileURLWithPath: home).appendingPathComponent(".cache/species")
    }

    /// The key of `url` in the cache: the URL without credentials.
    static func key(_ url: URL) -> String {
        url.withoutCredentials.absoluteString
    }

    package func read(_ url: URL) -> Entry? {
        let key = Self.key(url)
        guard let data = FileManager.default.contents(atPath: file(for: key).path) else { return nil }
        return Self.decode(data, url: key)
    }

    /// Writes `entry` whole, or not at all.
    package func write(_ entry: Entry) throws {
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let target = file(for: entry.url)
        let temporary = directory.appendingPathComponent(".\(target.lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp")
        guard FileManager.default.createFile(atPath: temporary.path, contents: Self.header(of: entry), attributes: [.posixPermissions: 0o600])
        else { throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: temporary.path]) }
        do {
            // The header, then the body as it is: no copy of a large body is made.
            let file = try FileHandle(forWritingTo: temporary)
            defer { try? file.close() }
            try file.seekToEnd()
            try file.write(contentsOf: entry.body)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
        guard rename(temporary.path, target.path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: temporary)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: reason])
        }
    }

    package func summary() -> Summary {
        var summary = Summary()
        for file in ownFiles() where file.lastPathComponent.hasSuffix(Self.suffix) {
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

    /// Removes every entry, and temporary files left by interrupted writes:
    /// regular files of the cache's own names only. A file another process
    /// removed first is removed already.
    package func clear() throws -> Summary {
        let removed = summary()
        for file in ownFiles() {
            guard unlink(file.path) == 0 || errno == ENOENT else {
                throw CocoaError(.fileWriteUnknown, userInfo: [
                    NSLocalizedDescriptionKey: "cannot remove \(file.path): \(String(cString: strerror(errno)))"
                ])
            }
        }
        return removed
    }

    /// Regular files named as entries (`<16 hex digits>.entry`) or as their
    /// temporary files (`.<entry>.<pid>.<n>.tmp`).
    private func ownFiles() -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter(Self.isOwnName).map { directory.appendingPathComponent($0) }.filter { file in
            var status = stat()
            return lstat(file.path, &status) == 0 && status.st_mode & mode_t(S_IFMT) == mode_t(S_IFREG)
        }
    }

    private static func isOwnName(_ name: String) -> Bool {
        let entry = { (text: Substring) in
            text.count == 16 + suffix.count && text.hasSuffix(suffix) && text.prefix(16).allSatisfy(\.isHexDigit)
        }
        if name.hasPrefix("."), name.hasSuffix(".tmp") {
            return name.dropFirst().split(separator: ".").count == 5 && entry(name.dropFirst().prefix(16 + suffix.count))
        }
        return entry(Substring(name))
    }

    /// The entry's file: a 64-bit FNV-1a hash of the URL. The URL is kept in
    /// the entry too, so that a collision reads as a miss.
    private func file(for key: String) -> URL {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in key.utf8 {
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
