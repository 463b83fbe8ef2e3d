extension SpeciesClient {
    /// The pages of the listing, from page 1 to its last, each as
    /// ``page(_:search:cache:)`` answers it: whole, from one source it names.
    ///
    /// Page 1 is asked when the loop first asks for a page; each page after
    /// it is asked once, as soon as the one before it has come, so that the
    /// next is on its way while the app shows this one. Each answer says
    /// where the listing stands (its `number` of `pageCount`, `count`
    /// species in all), never a page past the last that its count makes.
    /// Stopping the loop, or cancelling its task, cancels the page on its
    /// way.
    ///
    /// ```swift
    /// var rows: [StarWarsSpecies] = []
    /// for try await answer in client.pages(search: "an") {
    ///     rows += answer.value.species
    ///     print("page \(answer.value.number) of \(answer.value.pageCount): \(rows.count) of \(answer.value.count)")
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - search: Only the species whose name holds every word of it.
    ///   - cache: How each page uses what is kept and cached; nil: the
    ///     configuration's.
    public func pages(search: String? = nil, cache: CachePolicy.Mode? = nil) -> SpeciesPages {
        SpeciesPages(client: self, search: search, cache: cache)
    }
}

/// The pages of a listing, in order: ``SpeciesClient/pages(search:cache:)``.
public struct SpeciesPages: AsyncSequence, Sendable {
    /// One page, and the source it came from.
    public typealias Element = Answer<SpeciesPage>
    /// Each failure is one of the client's.
    public typealias Failure = SpeciesError

    let client: SpeciesClient
    let search: String?
    let cache: CachePolicy.Mode?

    /// An iterator that asks page 1 first.
    public func makeAsyncIterator() -> Iterator { Iterator(pages: self) }

    /// Asks each page once: the next as soon as this one has come.
    public struct Iterator: AsyncIteratorProtocol {
        private let pages: SpeciesPages
        private var number = 1
        private var last = 1
        private var ahead: Ahead?
        /// The size page 1 showed, so that each page after it is asked alone.
        private var size: PageSize?

        init(pages: SpeciesPages) { self.pages = pages }

        /// The next page; nil after the last, or after a failure.
        public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws(SpeciesError)
            -> Answer<SpeciesPage>?
        {
            guard number <= last else { return nil }
            let asked = ahead ?? Ahead(pages, number)
            ahead = nil
            let result = await withTaskCancellationHandler {
                await asked.task.value
            } onCancel: {
                asked.task.cancel()
            }
            switch result {
            case .failure(let error):
                last = 0
                throw error
            case .success(let answer):
                (number, last) = (number + 1, answer.value.pageCount)
                size = size ?? answer.source.root.map { PageSize(root: $0, size: answer.value.species.count) }
                if number <= last { ahead = Ahead(pages, number, size: size) }
                return answer
            }
        }

        /// The next page; nil after the last, or after a failure.
        public mutating func next() async throws -> Answer<SpeciesPage>? { try await next(isolation: nil) }
    }

    /// A page on its way, cancelled when no iterator holds it any longer.
    private final class Ahead: Sendable {
        let task: Task<Result<Answer<SpeciesPage>, SpeciesError>, Never>

        init(_ pages: SpeciesPages, _ number: Int, size: PageSize? = nil) {
            task = Task {
                do throws(SpeciesError) {
                    return .success(
                        try await pages.client.page(number, search: pages.search, cache: pages.cache, size: size))
                } catch { return .failure(error) }
            }
        }

        deinit { task.cancel() }
    }
}

extension AnswerSource {
    /// The service whose answer, or whose cache, this is.
    fileprivate var root: APIRoot? {
        switch self {
        case .service(let root), .cache(let root, _): root
        case .builtInData, .unasked: nil
        }
    }
}
