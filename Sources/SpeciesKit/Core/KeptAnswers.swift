import Foundation

/// The answers a client keeps in memory (the DocC article "Callers share
/// answers"): a pure value. An answer of a service is kept for its lifetime
/// from when the oldest of its responses was fetched; at most
/// `maxCount` of them, and answers of at most `maxBytes` of responses,
/// the least recently used going first.
struct KeptAnswers: Sendable {
    static let maxCount = 64
    /// 8 MiB: SWAPI's whole listing is 25 KB.
    static let maxBytes = 8 * 1024 * 1024

    private var kept: [Question: SharedAnswer] = [:]
    /// The questions, the least recently used first.
    private var uses: [Question] = []
    private var bytes = 0

    /// The answer kept for `question`, while it is fresh; a stale one goes.
    mutating func answer(to question: Question, now: Date, lifetime: Double) -> SharedAnswer? {
        guard let answer = kept[question] else { return nil }
        forget(question)
        guard CachePolicy.isFresh(answer.fetched, now: now, maxAge: lifetime) else { return nil }
        remember(answer, for: question)
        return answer
    }

    /// Keeps `answer` of a service; the least recently used go while there
    /// are too many, or too large. One larger than all may be is not kept.
    mutating func keep(_ answer: SharedAnswer, for question: Question) {
        guard case .service = answer.source, answer.bytes <= Self.maxBytes else { return }
        forget(question)
        remember(answer, for: question)
        while kept.count > Self.maxCount || bytes > Self.maxBytes, let oldest = uses.first { forget(oldest) }
    }

    private mutating func remember(_ answer: SharedAnswer, for question: Question) {
        kept[question] = answer
        uses.append(question)
        bytes += answer.bytes
    }

    private mutating func forget(_ question: Question) {
        guard let answer = kept.removeValue(forKey: question) else { return }
        uses.removeAll { $0 == question }
        bytes -= answer.bytes
    }
}
