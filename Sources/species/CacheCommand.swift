import Foundation
import SpeciesKit

/// `species cache`'s argument.
enum CacheAction: String, Sendable, CaseIterable { case info, clear }

/// `species cache info | clear`.
struct CacheCommand: Sendable, Equatable {
    var action: CacheAction
    var directory: URL?

    /// - Throws: what keeps `clear` from removing an entry (exit 74).
    func run(_ output: any OutputSink) throws(CommandError) {
        guard let directory else {
            output.write("directory: none (XDG_CACHE_HOME is no absolute path, and HOME no folder's)\n")
            return
        }
        let cache = ResponseCache(directory: directory)
        switch action {
        case .info:
            let summary = cache.summary()
            var text =
                "directory: \(directory.path)\nentries: \(summary.entries), \(ByteCount.describe(summary.bytes))\n"
            if let oldest = summary.oldest, let newest = summary.newest {
                text += "oldest: \(Timestamp(oldest).forPeople)\nnewest: \(Timestamp(newest).forPeople)\n"
            }
            for (list, remembered) in cache.rememberedServices() {
                text +=
                    "answering: \(remembered.service) since \(Timestamp(remembered.since).forPeople), "
                    + "last confirmed \(Timestamp(remembered.confirmed).forPeople), for \(list.joined(separator: " "))\n"
            }
            output.write(text)
        case .clear:
            let removed: ResponseCache.Summary
            do { removed = try cache.clear() } catch {
                throw CommandError("cannot clear the cache: cannot remove \(error.path): \(error.reason)", .ioError)
            }
            let entries = removed.entries == 1 ? "1 entry" : "\(removed.entries) entries"
            output.write("removed \(entries) (\(ByteCount.describe(removed.bytes))) from \(directory.path)\n")
        }
    }
}
