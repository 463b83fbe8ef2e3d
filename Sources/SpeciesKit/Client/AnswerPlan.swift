/// Who answers, in what order, and what a failure means (docs/cli.md,
/// "Which service answers", "One answer, one source", "When the API cannot
/// answer"): a pure value, made from the services in the order they are
/// asked, the cache mode and whether anything may stand in.
///
/// It lists the sources: each service (those that others follow keep a
/// pace and are not retried), then the cache of each, then the SWAPI data
/// built in, which stands in for SWAPI's public services only, online and
/// offline alike. Its one function, `next`, says what
/// follows a failure. Every failure is one of two things: an answer to the
/// question (no such name, page or id), which ends the asking; or no answer
/// from that source, whatever its cause (a transport error of any kind, an
/// HTTP error, a body that is not SWAPI's or too large, a listing that is
/// not whole), and the next source is asked.
struct AnswerPlan: Sendable {
    enum Source: Equatable, Sendable {
        /// The service at this root, through its cache; `followed` when
        /// others follow it.
        case service(APIRoot, followed: Bool)
        /// The responses cached from this service, whatever their age.
        case cache(APIRoot)
        /// The SWAPI data built in, its links under this root.
        case builtInData(APIRoot)
    }

    enum Step: Equatable, Sendable {
        /// Ask `sources[index]`.
        case ask(Int)
        /// The source answered that there is nothing: that is the answer.
        case answer(Fault)
        /// No source can answer, or the asking was stopped, as the error says.
        case fail(Fault)
    }

    let sources: [Source]
    private let fallback: Bool

    /// - Parameters:
    ///   - services: in the order they are asked.
    ///   - hasCache: whether the client has a cache folder.
    init(services: [APIRoot], mode: CachePolicy.Mode, fallback: Bool, hasCache: Bool) {
        let caches = hasCache ? services.map(Source.cache) : []
        let builtIn = services.first { Dialect.ofPublicHost($0) != nil }.map { [Source.builtInData($0)] } ?? []
        if mode == .offline {
            sources = caches + builtIn
            self.fallback = true
            return
        }
        sources =
            services.enumerated().map { .service($1, followed: $0 < services.count - 1) }
            + (fallback ? caches + builtIn : [])
        self.fallback = fallback
    }

    /// The step after `sources[index]` failed with `error`; `failures` are
    /// those of the services asked so far. The services the deadline
    /// leaves no time for are not asked.
    func next(after index: Int, failed error: Fault, failures: [ServiceFailure], deadlinePassed: Bool) -> Step {
        if error == .cancelled || error.kind == .badQuestion { return .fail(error) }
        if error.kind == .nothingMatched { return .answer(error) }
        let next = sources.indices.dropFirst(index + 1).first { index in
            guard case .service = sources[index] else { return true }
            return !deadlinePassed
        }
        if let next { return .ask(next) }
        let cause = failures.count == 1 ? failures[0].error : Fault.noServiceAnswered(failures)
        guard fallback, !failures.isEmpty else { return .fail(failures.isEmpty ? error : cause) }
        return .fail(.unanswered(cause, host: failures.count == 1 ? failures[0].service : "any of them"))
    }
}
