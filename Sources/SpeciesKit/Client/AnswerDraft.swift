import Foundation
import Synchronization

/// What one source has sent towards an answer, held until the answer is
/// whole (docs/cli.md, "One answer, one source"): the responses to write to
/// the cache, the warnings about its species, and what it handed over. When
/// the source answers the whole request, `keep` writes and says them; when
/// it fails part way, `drop` lets them go, and tells `--verbose` what went.
/// Notes, progress and traces pass through at once.
final class AnswerDraft: Diagnostics {
    private struct Held {
        var entries: [ResponseCache.Entry] = []
        var warnings: [String] = []
        /// The listing pages handed over, with how many species each held.
        var pages: [(url: URL, species: Int)] = []
        /// A species read on its own, as `show` reads one.
        var species: URL?
        /// When the oldest of what the cache answered was fetched.
        var oldestFromCache: Date?
    }

    private let base: any Diagnostics
    private let cache: ResponseCache?
    private let held = Mutex(Held())

    init(_ base: any Diagnostics, cache: ResponseCache?) {
        self.base = base
        self.cache = cache
    }

    func warning(_ message: String) {
        held.withLock { $0.warnings.append(message) }
    }

    func note(_ message: String) {
        base.note(message)
    }

    func progress(_ message: String) {
        base.progress(message)
    }

    func trace(_ message: String) {
        base.trace(message)
    }

    /// A response to write to the cache once the answer is whole.
    func hold(_ entry: ResponseCache.Entry) {
        guard cache != nil else { return }
        held.withLock { held in
            held.entries.removeAll { $0.url == entry.url }
            held.entries.append(entry)
        }
    }

    /// The response held for `url`, which the answer may read again.
    func held(_ url: URL) -> ResponseCache.Entry? {
        let key = ResponseCache.key(url)
        return held.withLock { $0.entries.last { $0.url == key } }
    }

    /// A page of a listing, handed over in its order.
    func handedOver(page url: URL, species: Int) {
        held.withLock { $0.pages.append((url, species)) }
    }

    /// A species read on its own.
    func handedOver(species url: URL) {
        held.withLock { $0.species = $0.species ?? url }
    }

    /// The cache answered with a response fetched at `date`.
    func answered(fromCacheFetched date: Date) {
        held.withLock { $0.oldestFromCache = min($0.oldestFromCache ?? date, date) }
    }

    /// When the oldest of what the cache answered was fetched: how old an
    /// answer that stood in for the API is.
    var oldestFromCache: Date? { held.withLock { $0.oldestFromCache } }

    /// The answer is whole: its responses are written to the cache, and its
    /// warnings said.
    func keep() {
        let held = self.held.withLock { held in
            defer { held = Held() }
            return held
        }
        for entry in held.entries {
            do {
                try cache?.write(entry)
            } catch {
                base.warning("cannot write the cache in \(error.path): \(error.reason)")
                break
            }
        }
        held.warnings.forEach(base.warning)
    }

    /// The source failed: what it sent goes. Says, for a notice, what that
    /// was (`1 page, which is dropped`), or nothing when it sent nothing.
    func drop(from service: String) -> String {
        let held = self.held.withLock { held in
            defer { held = Held() }
            return held
        }
        let what: [String] =
            held.pages.map { "\($0.url.redacted) (\($0.species) species)" }
            + (held.pages.isEmpty ? held.species.map { ["\($0.redacted) (the species)"] } ?? [] : [])
        guard !what.isEmpty else { return "" }
        base.trace("dropping what \(service) sent: " + what.joined(separator: ", "))
        held.warnings.forEach { base.trace("dropping the warning with it: \($0)") }
        switch held.pages.count {
        case 0: return "the species, which is dropped"
        case 1: return "1 page, which is dropped"
        case let count: return "\(count) pages, which are dropped"
        }
    }
}
