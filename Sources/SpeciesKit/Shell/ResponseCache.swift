import Foundation
import Synchronization

/// Responses on disk, one file per URL (docs/cli.md, "cache"): a short text
/// header (the URL without credentials, when it was fetched, its
/// validators, the count of the listing a page was whole with, the body's
/// length), then the body. A write goes to a temporary file in `tmp`,
/// renamed over the entry, so a reader never sees half of one; a file that
/// does not add up, or holds more than `maxBodySize`, is no entry.
package struct ResponseCache: Sendable {
    package struct Entry: Sendable, Equatable {
        /// The URL, without user name or password.
        package var url: String
        package var fetched: Date
        package var etag: String?
        package var lastModified: String?
        /// For a page of a listing: the count of the listing it was whole with.
        package var count: Int?
        package var body: Data
    }

    package struct Summary: Sendable, Equatable {
        package var entries = 0
        package var bytes = 0
        package var oldest: Date?
        package var newest: Date?
    }

    /// Why the cache could not be written or cleared: the folder or file,
    /// and the system's own words (`No space left on device`).
    package struct Failure: Error, Equatable {
        package var path: String
        package var reason: String
    }

    private static let magic = "species-cache 1\n"
    /// A header longer than this is no entry's: it holds a URL and two
    /// validators.
    static let maxHeaderSize = 64 * 1024
    /// A record is a line or two (ResponseCache+Records.swift): a larger
    /// one is none, and is not read.
    static let maxRecordSize = 4096

    package let directory: URL
    /// The largest body an entry may hold: the largest response accepted.
    package let maxBodySize: Int

    package init(directory: URL, maxBodySize: Int = SpeciesClient.Configuration.defaultMaxResponseSize) {
        self.directory = directory
        self.maxBodySize = maxBodySize
    }

    /// `$XDG_CACHE_HOME/species` when that is an absolute path, else
    /// `$HOME/.cache/species` when `HOME` is the absolute path of a folder
    /// that exists; else none. A relative path is ignored, as the XDG Base
    /// Directory spec says, and a missing home is never made.
    package static func defaultDirectory(environment: [String: String]) -> URL? {
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg).appendingPathComponent("species")
        }
        var isFolder: ObjCBool = false
        guard let home = environment["HOME"], home.hasPrefix("/"),
            FileManager.default.fileExists(atPath: home, isDirectory: &isFolder), isFolder.boolValue
        else { return nil }
        return URL(fileURLWithPath: home).appendingPathComponent(".cache/species")
    }

    /// The key of `url` in the cache: the URL without credentials.
    static func key(_ url: URL) -> String { url.withoutCredentials.absoluteString }

    package func read(_ url: URL) -> Entry? { read(Self.key(url), .entry) }

    /// The count of the listing the page at `url` was whole with, read from
    /// its header alone.
    func count(ofListingAt url: URL) -> Int? {
        let key = Self.key(url)
        guard let header = EntryFile(path: file(for: key, .entry).path, maxBodySize: maxBodySize)?.header,
            header.entry.url == key
        else { return nil }
        return header.entry.count
    }

    /// Writes `entry` whole, or not at all.
    package func write(_ entry: Entry) throws(Failure) { try write(entry, .entry) }

    /// The value remembered as `key`, and when.
    func record(_ key: String) -> (value: String, written: Date)? {
        read(key, .record, maxBodySize: Self.maxRecordSize).map {
            (String(decoding: $0.body, as: UTF8.self), $0.fetched)
        }
    }

    /// Remembers `value` as `key`, written `now`.
    func remember(_ value: String, as key: String, at now: Date) throws(Failure) {
        try write(Entry(url: key, fetched: now, body: Data(value.utf8)), .record)
    }

    /// The record `key` goes, if there is one.
    func forget(_ key: String) { unlink(file(for: key, .record).path) }

    /// The lock of `key` (`flock`: a run that ends, however it ends, holds
    /// none), and what trying it found: taken by this process until the
    /// `Lock` goes, which removes its file as it lets go, so that locks do
    /// not pile up; held by another run; or stale, when the file locked was
    /// removed or replaced meanwhile by the run before, which is tried
    /// again. When the cache cannot hold one, at once a lock of nothing.
    func lock(_ key: String) -> (Lock?, Memory.LockState) {
        let nothing = (Lock(descriptor: -1, path: ""), Memory.LockState.taken)
        guard (try? prepare()) != nil else { return nothing }
        let path = locks.appendingPathComponent(CacheFileName.lock.of(key)).path
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o600)
        var opened = stat()
        guard descriptor >= 0, fstat(descriptor, &opened) == 0, opened.st_mode & mode_t(S_IFMT) == mode_t(S_IFREG)
        else {
            if descriptor >= 0 { close(descriptor) }
            // Not a regular file: replaced, unless it cannot be.
            return unlink(path) == 0 || rmdir(path) == 0 ? (nil, .stale) : nothing
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let held = errno == EWOULDBLOCK
            close(descriptor)
            return held ? (nil, .held) : nothing
        }
        var named = stat()
        guard stat(path, &named) == 0, named.st_ino == opened.st_ino, named.st_dev == opened.st_dev else {
            close(descriptor)
            return (nil, .stale)
        }
        return (Lock(descriptor: descriptor, path: path), .taken)
    }

    /// A lock of the cache, released when it goes, its file removed first.
    final class Lock: Sendable {
        private let descriptor: Int32
        private let path: String

        fileprivate init(descriptor: Int32, path: String) { (self.descriptor, self.path) = (descriptor, path) }

        deinit {
            guard descriptor >= 0 else { return }
            unlink(path)
            close(descriptor)
        }
    }

    /// Every record whose key starts with `prefix`: its key, value and
    /// when it was written.
    func records(prefix: String) -> [(key: String, value: String, written: Date)] {
        ownFiles(.record).compactMap { path in
            guard let record = EntryFile(path: path, maxBodySize: Self.maxRecordSize), let header = record.header,
                header.entry.url.hasPrefix(prefix), let entry = record.entry(header)
            else { return nil }
            return (entry.url, String(decoding: entry.body, as: UTF8.self), entry.fetched)
        }
    }

    private func read(_ key: String, _ kind: CacheFileName, maxBodySize: Int? = nil) -> Entry? {
        guard let file = EntryFile(path: file(for: key, kind).path, maxBodySize: maxBodySize ?? self.maxBodySize),
            let header = file.header, header.entry.url == key
        else { return nil }
        return file.entry(header)
    }

    private func write(_ entry: Entry, _ kind: CacheFileName) throws(Failure) {
        let header = Self.header(of: entry)
        guard header.count <= Self.maxHeaderSize, entry.body.count <= maxBodySize else { return }
        try prepare()
        let target = file(for: entry.url, kind)
        let temporary = temporaries.appendingPathComponent(
            CacheFileName.temporary(of: target.lastPathComponent, writer: getpid(), nonce: .random(in: 0...UInt32.max)))
        var descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if descriptor < 0, errno == ENOENT {
            // The folders went since this process made them (a `clear`, an `rm`).
            _ = Self.prepared.withLock { $0.remove(directory.path) }
            try prepare()
            descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        }
        guard descriptor >= 0 else { throw Failure(path: directory.path, reason: Self.systemError()) }
        var reason =
            FileDescriptor.writeAll(header, to: descriptor) ?? FileDescriptor.writeAll(entry.body, to: descriptor)
        if close(descriptor) != 0, reason == nil { reason = Self.systemError() }
        if reason == nil, rename(temporary.path, target.path) != 0 { reason = Self.systemError() }
        if let reason {
            unlink(temporary.path)
            throw Failure(path: directory.path, reason: reason)
        }
    }

    /// What `species cache info` says: the files named as entries, their
    /// size on disk, and when the oldest and newest whole ones were
    /// fetched. Only the start of each is read.
    package func summary() -> Summary {
        var summary = Summary()
        for path in ownFiles(.entry) {
            guard let entry = EntryFile(path: path, maxBodySize: maxBodySize) else { continue }
            summary.entries += 1
            summary.bytes += entry.size
            if let fetched = entry.header?.entry.fetched {
                summary.oldest = min(summary.oldest ?? fetched, fetched)
                summary.newest = max(summary.newest ?? fetched, fetched)
            }
        }
        return summary
    }

    /// Removes every entry and record, the temporary files of interrupted
    /// writes, and the locks no run holds: regular files of the cache's own
    /// names only. A file another process removed first is removed already.
    package func clear() throws(Failure) -> Summary {
        // What is removed is counted from the listing and `lstat`, no file
        // opened: a clear of 50,000 entries costs their unlinks.
        var removed = Summary()
        for path in ownFiles() + ownFiles(in: temporaries) {
            var status = stat()
            let size =
                path.hasSuffix(CacheFileName.entry.rawValue) && lstat(path, &status) == 0 ? Int(status.st_size) : nil
            guard unlink(path) == 0 || errno == ENOENT else { throw Failure(path: path, reason: Self.systemError()) }
            if let size {
                removed.entries += 1
                removed.bytes += size
            }
        }
        for path in ownFiles(in: locks) { Self.removeUnheld(path) }
        rmdir(temporaries.path)
        rmdir(locks.path)
        return removed
    }

    /// The folder of temporary files.
    private var temporaries: URL { directory.appendingPathComponent("tmp") }
    /// The folder of the locks of questions (`lock`).
    private var locks: URL { directory.appendingPathComponent("locks") }

    /// The folders whose files this process has written: each is prepared once.
    private static let prepared = Mutex<Set<String>>([])
    /// Files looked at in each of `tmp` and `locks` when a process first
    /// writes: the housekeeping of a run costs the same however many a
    /// killed run left, and later runs go on where it stopped.
    static let sweep = 100

    /// Before the first write of this process: the cache's folder, those
    /// above it, `tmp` and `locks`, made for the owner only; and some of
    /// what killed runs left removed: temporary files whose writer is gone
    /// (their name holds its process id) or older than
    /// `TimeLimits.abandoned`, and locks no run holds.
    private func prepare() throws(Failure) {
        guard !Self.prepared.withLock({ $0.contains(directory.path) }) else { return }
        var path = ""
        for component in temporaries.path.split(separator: "/") {
            path += "/" + component
            if mkdir(path, 0o700) != 0 && errno != EEXIST { throw Failure(path: path, reason: Self.systemError()) }
        }
        if mkdir(locks.path, 0o700) != 0 && errno != EEXIST {
            throw Failure(path: locks.path, reason: Self.systemError())
        }
        let now = Date().timeIntervalSince1970
        for path in ownFiles(in: temporaries, limit: Self.sweep) {
            var status = stat()
            let age = lstat(path, &status) == 0 ? now - Double(status.st_mtim.tv_sec) : 0
            let name = String(path.split(separator: "/").last ?? "")
            if CacheFileName.isAbandoned(name, age: age, isGone: { kill($0, 0) != 0 && errno == ESRCH }) {
                unlink(path)
            }
        }
        for path in ownFiles(in: locks, limit: Self.sweep) { Self.removeUnheld(path) }
        _ = Self.prepared.withLock { $0.insert(directory.path) }
    }

    /// Removes the lock file at `path` unless a run holds it.
    private static func removeUnheld(_ path: String) {
        let descriptor = open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard descriptor >= 0 else { return }
        if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { unlink(path) }
        close(descriptor)
    }

    /// The paths of regular files of `folder` named as the cache's own
    /// (`CacheFileName`), of `kind` when one is given; at most `limit`. The
    /// folder is read as it lies, its entries' types from the listing.
    private func ownFiles(_ kind: CacheFileName? = nil, in folder: URL? = nil, limit: Int = .max) -> [String] {
        let folder = (folder ?? directory).path
        guard let listing = opendir(folder) else { return [] }
        defer { closedir(listing) }
        var paths: [String] = []
        while paths.count < limit, let item = readdir(listing) {
            let name = withUnsafeBytes(of: item.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard CacheFileName.isOwn(name, kind: kind) else { continue }
            let path = folder + "/" + name
            var status = stat()
            if item.pointee.d_type == UInt8(DT_REG)
                || (item.pointee.d_type == UInt8(DT_UNKNOWN) && lstat(path, &status) == 0
                    && status.st_mode & mode_t(S_IFMT) == mode_t(S_IFREG))
            {
                paths.append(path)
            }
        }
        return paths
    }

    private func file(for key: String, _ kind: CacheFileName) -> URL { directory.appendingPathComponent(kind.of(key)) }

    /// The text before an entry's body, ending in a blank line.
    static func header(of entry: Entry) -> Data {
        var header = "\(magic)url \(entry.url)\nfetched \(entry.fetched.timeIntervalSince1970)\n"
        if let etag = entry.etag, Self.fitsOnALine(etag) { header += "etag \(etag)\n" }
        if let lastModified = entry.lastModified, Self.fitsOnALine(lastModified) {
            header += "last-modified \(lastModified)\n"
        }
        if let count = entry.count { header += "count \(count)\n" }
        header += "length \(entry.body.count)\n\n"
        return Data(header.utf8)
    }

    private static func fitsOnALine(_ value: String) -> Bool { !value.contains { $0 == "\n" || $0 == "\r" } }

    private static func systemError() -> String { String(cString: strerror(errno)) }

    /// The fields of an entry's header.
    struct Header {
        /// The entry it describes, without its body.
        var entry: Entry
        /// Of the header, blank line included.
        var size: Int
        var bodySize: Int

        /// The header at the start of `bytes`; nil when it is not one. Read
        /// as bytes: `cache info` reads one for each of many entries.
        init?(_ bytes: Data) {
            guard let (fields, size) = bytes.withUnsafeBytes({ Self.fields($0.bindMemory(to: UInt8.self)) }),
                let url = fields["url"], let fetched = fields["fetched"].flatMap(Double.init), fetched.isFinite,
                let bodySize = fields["length"].flatMap(Int.init), bodySize >= 0
            else { return nil }
            entry = Entry(
                url: url, fetched: Date(timeIntervalSince1970: fetched), etag: fields["etag"],
                lastModified: fields["last-modified"], count: fields["count"].flatMap(Int.init), body: Data())
            (self.size, self.bodySize) = (size, bodySize)
        }

        private static func fields(_ bytes: UnsafeBufferPointer<UInt8>) -> (fields: [String: String], size: Int)? {
            let start = ResponseCache.magic.utf8.count
            guard bytes.starts(with: ResponseCache.magic.utf8),
                let end = (start..<bytes.count).first(where: { bytes[$0] == 10 && bytes[$0 - 1] == 10 })
            else { return nil }
            var fields: [String: String] = [:]
            for line in bytes[start..<end].split(separator: 10) {
                guard let space = line.firstIndex(of: 32) else { return nil }
                fields[String(decoding: line[..<space], as: UTF8.self)] = String(
                    decoding: line[(space + 1)...], as: UTF8.self)
            }
            return (fields, end + 1)
        }
    }

    /// An open file named as an entry: its size, and its header if it has
    /// one whose length adds up to the file's and is within the limit.
    private final class EntryFile {
        let descriptor: Int32
        let size: Int
        private(set) var header: Header?
        private var head = Data()

        init?(path: String, maxBodySize: Int) {
            // Non-blocking: opening a FIFO planted in the cache must not wait.
            descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
            guard descriptor >= 0 else { return nil }
            var status = stat()
            guard fstat(descriptor, &status) == 0, status.st_mode & mode_t(S_IFMT) == mode_t(S_IFREG) else {
                close(descriptor)
                return nil
            }
            size = Int(status.st_size)
            // A header is a few hundred bytes: the rest is read only for a
            // longer one.
            head = readBytes(count: min(size, 1024))
            var header = Header(head)
            if header == nil, head.count < min(size, ResponseCache.maxHeaderSize) {
                head += readBytes(count: min(size, ResponseCache.maxHeaderSize) - head.count)
                header = Header(head)
            }
            if let header, header.bodySize <= maxBodySize, header.size + header.bodySize == size {
                self.header = header
            }
        }

        deinit { close(descriptor) }

        /// The whole entry: the body read after the header, into one buffer.
        func entry(_ header: Header) -> Entry? {
            var body = Data(count: header.bodySize)
            let inHead = head.dropFirst(header.size)
            let complete = body.withUnsafeMutableBytes { buffer -> Bool in
                guard let base = buffer.baseAddress else { return true }
                inHead.copyBytes(to: buffer.bindMemory(to: UInt8.self), count: inHead.count)
                let rest = header.bodySize - inHead.count
                return readBytes(into: base + inHead.count, count: rest) == rest
            }
            guard complete else { return nil }
            var entry = header.entry
            entry.body = body
            return entry
        }

        /// Up to `count` bytes from where the file stands.
        private func readBytes(count: Int) -> Data {
            var data = Data(count: count)
            let got = data.withUnsafeMutableBytes { buffer in
                buffer.baseAddress.map { readBytes(into: $0, count: count) } ?? 0
            }
            return data.prefix(got)
        }

        /// Reads `count` bytes to `base`; how many it could, fewer at the
        /// end of the file or on an error.
        private func readBytes(into base: UnsafeMutableRawPointer, count: Int) -> Int {
            var got = 0
            while got < count {
                let chunk = systemRead(descriptor, base + got, count - got)
                if chunk > 0 { got += chunk } else if !(chunk < 0 && errno == EINTR) { break }
            }
            return got
        }
    }
}

/// read(2), which `ResponseCache.read(_:)` hides inside the type.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
