import Foundation

/// The one reader of a listing: it alone decides what a listing of a
/// service is, as docs/cli.md ("What is whole") and docs/swapi-dialects.md
/// say. A pure value: fed the answer to each URL it asked for, in any
/// order, it says the next step: more pages, the whole answer, or why there
/// is none, naming the page and the rule.
struct ListingReader {
    /// What is asked of the listing.
    enum Question: Equatable, Sendable {
        /// Page `number` alone.
        case page(Int)
        /// Every species, or, with a limit, as few pages as hold that many.
        case species(limit: Int?)
    }

    enum Step {
        /// Fetch these, and feed each answer back.
        case fetch([URL])
        /// Nothing new to fetch: feed the next answer.
        case wait
        /// Stop the other fetches, then `readAlone()`: page 1 came as
        /// swapi.info's array, whole, and the other pages asked are not needed.
        case alone
        /// The whole answer.
        case done(Whole)
        /// No answer from this service, or an answer that is a no
        /// (`Fault.noSuchPage`).
        case failed(Fault)
    }

    /// A whole answer: its species, how the listing falls into pages, the
    /// pages read (each with how many species it held), and what could not
    /// be read of its species' fields.
    struct Whole {
        var species: [StarWarsSpecies] = []
        var paging = Paging(count: 0, size: SpeciesPage.size)
        var pages: [(url: URL, species: Int)] = []
        var issues: [SpeciesIssue] = []
    }

    /// More pages than this is taken for a server that never ends.
    static let maxPages = 500

    let root: APIRoot
    let question: Question
    let search: String?
    /// The dialect of the whole answer, once known.
    private(set) var dialect: Dialect?
    /// The dialect asked in while `dialect` is not known.
    private var guess: Dialect
    private let terms: SearchTerms
    /// The listing's count as known before page 1 says it.
    private let expectedCount: Int?
    /// The page size of a known host's dialect (`Dialect.ofPublicHost`), or
    /// the one a copy's page 1 showed (`PageSize`); nil for a copy whose
    /// page 1 is read first to say it (`Paging.checked`).
    private let knownSize: Int?

    private var asked: [URL: Int] = [:]
    private var arrived: [Int: Result<Data, Fault>] = [:]
    /// What has been taken, page by page, in order.
    private var taken = Whole()
    private var seen: Set<Int> = []
    private var names: Set<String> = []
    private var service: ServiceSpecies
    private var paging: Paging?
    private var lastNext: String?
    /// Pages wanted, from the first.
    private var wanted = 1
    /// A page asked alone answered 404 at this URL: page 1 says whether it exists.
    private var missing: URL?

    /// - Parameters:
    ///   - dialect: the service's dialect when it is known for its host
    ///     (`Dialect.ofPublicHost`); nil lets the first answer decide.
    ///   - guess: the dialect to ask in first when `dialect` is nil.
    ///   - expectedCount: the listing's count as known before page 1 says
    ///     it, which the pages asked at once fill; nil asks page 1 alone.
    init(
        root: APIRoot, dialect: Dialect?, guess: Dialect, question: Question, search: String?,
        expectedCount: Int? = nil, size: Int? = nil
    ) {
        self.root = root
        self.dialect = dialect
        self.guess = dialect ?? guess
        self.question = question
        self.search = search
        terms = SearchTerms(search ?? "")
        self.expectedCount = expectedCount
        service = ServiceSpecies(root: root)
        knownSize = dialect.map { _ in SpeciesPage.size } ?? size
    }

    /// The first step: the pages to ask for before any has answered.
    mutating func start() -> Step {
        asked = [:]
        arrived = [:]
        taken = Whole()
        seen = []
        names = []
        service = ServiceSpecies(root: root)
        paging = nil
        missing = nil
        wanted = 1
        switch question {
        case _ where comesWhole: return fetch([1])
        case .page(let number): return fetch(knownSize == nil && number > 1 ? [1, number] : [number])
        case .species: return fetch(Array(1...firstAsk.pages))
        }
    }

    /// The pages asked at once before page 1 says how many there are: as
    /// many as the expected count fills, within `maxPages`, and no more than
    /// hold the limit (`heldByLimit` when it holds them to fewer).
    var firstAsk: (pages: Int, heldByLimit: Bool) {
        guard case .species(let limit) = question, !comesWhole, let expectedCount else { return (1, false) }
        let size = knownSize ?? SpeciesPage.size
        let filled = min(Paging(count: expectedCount, size: size).pages, Self.maxPages)
        let held = Self.pages(holding: limit, size: size)
        return (max(1, min(filled, held)), held < filled)
    }

    /// How many pages the listing has, once a page has said; else how many
    /// are wanted so far.
    var pages: Int { paging?.pages ?? max(wanted, asked.count) }

    /// The page waited for, and of how many: the count's pages, or before
    /// it a listing's first ask; never a page past the total, whatever a
    /// count says.
    var progress: (page: Int, of: Int?)? {
        guard let page = waitingFor else { return nil }
        let total = if case .page = question { paging?.pages } else { pages }
        return (page, total.flatMap { $0 > 1 && $0 >= page ? $0 : nil })
    }

    /// The pages taken so far, in order.
    var pagesTaken: [(url: URL, species: Int)] { taken.pages }

    /// The listing's count, as its pages have said.
    var count: Int? { paging?.count }

    /// Feeds the answer to `url`: its body, or why there is none.
    mutating func read(_ url: URL, _ answer: Result<Data, Fault>) -> Step {
        guard let number = asked[url] else { return .wait }
        arrived[number] = answer
        if case .success(let body) = answer, comesAlone(url, begins: body) {
            asked = asked.filter { $0.value == 1 }
            arrived = arrived.filter { $0.key == 1 }
            return .alone
        }
        return readAlone()
    }

    /// Whether `bytes`, the body of `url` or its first bytes, show page 1 of
    /// a dialect not yet known to be the whole listing, an array, while
    /// other pages are asked beside it: a copy of swapi.info answers each
    /// with its whole array, so the others, as large, are stopped before
    /// their bodies are read, and neither kept nor waited for
    /// (docs/performance.md).
    func comesAlone(_ url: URL, begins bytes: Data) -> Bool {
        asked[url] == 1 && dialect == nil && asked.count > 1 && JSONArray.begins(bytes)
    }

    /// Takes the answers that have arrived, in order; the next step.
    mutating func readAlone() -> Step {
        var more: [URL] = []
        while let next = waitingFor, let answer = arrived.removeValue(forKey: next) {
            switch take(answer, number: next) {
            case .fetch(let urls): more += urls
            case .wait: continue
            case let ending: return ending
            }
        }
        return more.isEmpty ? .wait : .fetch(more)
    }

    // MARK: The rules

    private var asking: Dialect { dialect ?? guess }

    private var comesWhole: Bool { Self.comesWhole(in: asking, search: search) }

    /// swapi.info's listing, and swapi.tech's search, come in one answer.
    static func comesWhole(in dialect: Dialect, search: String?) -> Bool {
        dialect == .info || (dialect == .tech && !SearchTerms(search ?? "").terms.isEmpty)
    }

    /// swapi.tech is asked for the longest term; the others are matched here.
    private var techTerm: String { Self.longest(terms) }

    private static func longest(_ terms: SearchTerms) -> String { terms.terms.max { $0.count < $1.count } ?? "" }

    private func url(ofPage number: Int) -> URL {
        Self.url(ofPage: number, root: root, dialect: asking, search: search)
    }

    /// Page `number` of the species matching `search`, as a service of
    /// `dialect` is asked for it: swapi.dev's search in the query,
    /// swapi.tech's longest term as its search, swapi.info's whole list.
    static func url(ofPage number: Int, root: APIRoot, dialect: Dialect, search: String?) -> URL {
        let terms = SearchTerms(search ?? "")
        if dialect == .tech, !terms.terms.isEmpty { return dialect.techSearchURL(root, term: longest(terms)) }
        return dialect.listingURL(root, page: number, search: dialect == .drf ? search : nil)
    }

    private static func pages(holding limit: Int?, size: Int) -> Int {
        limit.map { max(1, $0.dividedRoundingUp(by: size)) } ?? .max
    }

    private mutating func fetch(_ numbers: [Int]) -> Step {
        let new = numbers.filter { !asked.values.contains($0) }
        for number in new { asked[url(ofPage: number)] = number }
        return new.isEmpty ? .wait : .fetch(new.map(url(ofPage:)))
    }

    /// The page to take next, which the reader waits for: pages are taken
    /// in order.
    var waitingFor: Int? {
        if missing != nil { return 1 }
        if case .page(let number) = question, !comesWhole {
            // A copy's page 1 first: it says the page size.
            if knownSize == nil, number > 1, paging == nil { return 1 }
            return taken.pages.count < (knownSize == nil && number > 1 ? 2 : 1) ? number : nil
        }
        return taken.pages.count < wanted || taken.pages.isEmpty ? taken.pages.count + 1 : nil
    }

    /// Takes the answer for page `number` when it keeps every rule; the
    /// next step.
    private mutating func take(_ answer: Result<Data, Fault>, number: Int) -> Step {
        let url = url(ofPage: number)
        let listing: ListingBody
        switch answer.flatMap({ body in ListingBody.read(body, url: url) }) {
        case .success(let body): listing = body
        case .failure(.httpStatus(404, _, _)) where number == 1 || comesWhole:
            return .failed(.notSWAPI(url: url, status: 404))
        case .failure(.httpStatus(404, _, _)) where paging != nil && question == .page(number):
            let pages = paging?.pages ?? 0
            return .failed(
                number > pages
                    ? .noSuchPage(number, pages: pages, search: search) : .incomplete(url: url, .missing(pages: pages)))
        case .failure(.httpStatus(404, _, _)) where taken.pages.isEmpty:
            missing = url
            return fetch([1])
        case .failure(.httpStatus(404, _, _)):
            return .failed(.badLink(url: taken.pages[taken.pages.count - 1].url, link: lastNext ?? "", .notFound))
        case .failure(let error): return .failed(error)
        }
        if dialect == nil {
            // The first answer of a service of another host fixes its dialect;
            // in another dialect than asked, the listing is asked again in its
            // own, but for swapi.info's, which is whole whatever was asked.
            dialect = listing.dialect
            if listing.dialect != guess, listing.dialect != .info {
                guess = listing.dialect
                return start()
            }
        }
        do throws(Fault) {
            try checkForm(listing, at: url)
            if comesWhole { return .done(try whole(listing, at: url)) }
            let paging = try (self.paging.map { .success($0) } ?? Paging.checked(listing, size: knownSize, at: url))
                .get()
            if terms.terms.isEmpty, paging.count == 0 { throw .notSWAPI(url: url, status: nil) }
            if let missing {
                try checkPage(listing, number: 1, of: paging, at: url)
                guard case .page(let asked) = question, asked > paging.pages else {
                    return .failed(.incomplete(url: missing, .missing(pages: paging.pages)))
                }
                return .failed(.noSuchPage(asked, pages: paging.pages, search: search))
            }
            // swapi.tech answers a page past the last with the last (no
            // 'next', the last page's length); any other page past its
            // count proves the count wrong (docs/cli.md, "What is whole").
            guard number <= paging.pages else {
                let last =
                    asking == .tech && listing.next == nil
                    && listing.species.count == paging.length(ofPage: paging.pages)
                return .failed(
                    last
                        ? .noSuchPage(number, pages: paging.pages, search: search)
                        : .incomplete(url: url, .pastTheCount(pages: paging.pages)))
            }
            try checkPage(listing, number: number, of: paging, at: url)
            self.paging = paging
        } catch { return .failed(error) }
        taken.pages.append((url, listing.species.count))
        lastNext = listing.next
        if case .page(let asked) = question {
            guard asked == number else { return .wait }
            taken.species = listing.species
            taken.issues = listing.issues
            return .done(done)
        }
        taken.species += listing.species
        taken.issues += listing.issues
        if case .species(let limit) = question, number == 1, let paging {
            wanted = min(paging.pages, Self.pages(holding: limit, size: paging.size))
        }
        guard taken.pages.count < wanted else { return .done(done) }
        return fetch(Array(1...wanted))
    }

    private var done: Whole {
        var whole = taken
        whole.paging = paging ?? whole.paging
        return whole
    }

    /// The dialect and shape of the answer, and no element that is no object.
    private func checkForm(_ listing: ListingBody, at url: URL) throws(Fault) {
        if let dialect, listing.dialect != dialect {
            throw .invalidResponse(url: url, .dialectChanged(to: listing.dialect.service, from: dialect.service))
        }
        if listing.dialect == .tech {
            // swapi.tech's page has `results`; its search, `result`.
            guard listing.isSearch == comesWhole else {
                throw .invalidResponse(url: url, .missing(path: comesWhole ? "result" : "results"))
            }
            guard listing.expanded else { throw .invalidResponse(url: url, .namesOnly) }
        }
        if let element = listing.notASpecies { throw .incomplete(url: url, .notASpecies(element)) }
    }

    /// Every element a species of this service, each once, by id and by name.
    private mutating func checkSpecies(_ listing: ListingBody, at url: URL) throws(Fault) {
        for species in listing.species {
            guard let id = service.id(of: species) else {
                throw .incomplete(url: url, .notASpecies(species.displayName))
            }
            guard seen.insert(id).inserted else { throw .incomplete(url: url, .repeated(species.displayName)) }
            guard names.insert(NameMatcher.identity(species.name)).inserted else {
                throw .incomplete(url: url, .named(species.displayName))
            }
        }
    }

    /// Page `number` of a listing of `paging`: its count, its length, its
    /// species, its search and its `next` link.
    private mutating func checkPage(_ listing: ListingBody, number: Int, of paging: Paging, at url: URL) throws(Fault) {
        if listing.count != paging.count {
            throw .incomplete(url: url, .countChanged(listing.count, from: paging.count))
        }
        if listing.species.count != paging.length(ofPage: number) {
            throw .incomplete(url: url, .pageLength(listing.species.count, expected: paging.length(ofPage: number)))
        }
        guard (listing.next != nil) == (number < paging.pages) else {
            throw .incomplete(url: url, .nextLink(listing.next != nil, pages: paging.pages))
        }
        try checkSpecies(listing, at: url)
        if let stray = listing.species.first(where: { !terms.matches($0.name) }) {
            throw .incomplete(url: url, .unmatched(stray.displayName, search: search ?? ""))
        }
        guard let next = listing.next else { return }
        let link = try LinkPolicy.resolve(next, of: url, root: root)
        switch ListingLink.page(of: link, inFormOf: self.url(ofPage: number + 1)) {
        case number + 1: return
        case let other? where other <= number: throw .badLink(url: url, link: next, .loops)
        default: throw .badLink(url: url, link: next, .skips)
        }
    }

    /// swapi.info's array, or swapi.tech's search, whose every species must
    /// match the term asked: the species that match the search, paged here.
    private mutating func whole(_ listing: ListingBody, at url: URL) throws(Fault) -> Whole {
        try checkSpecies(listing, at: url)
        if listing.dialect == .tech,
            let stray = listing.species.first(where: { !SearchTerms(techTerm).matches($0.name) })
        {
            throw .incomplete(url: url, .unmatched(stray.displayName, search: techTerm))
        }
        if listing.species.isEmpty, terms.terms.isEmpty { throw .notSWAPI(url: url, status: nil) }
        let species = terms.terms.isEmpty ? listing.species : listing.species.filter { terms.matches($0.name) }
        let names = Set(species.map(\.displayName))
        let issues = listing.issues.filter { names.contains($0.species) }
        let paging = Paging(count: species.count, size: SpeciesPage.size)
        taken.pages = [(url, species.count)]
        var whole = Whole(species: species, paging: paging, pages: taken.pages, issues: issues)
        if case .page(let number) = question { whole.species = try paging.page(number, of: species, search: search) }
        return whole
    }
}

extension Paging {
    /// The paging a page of the listing says: its count, in pages of the
    /// dialect's size, or, at a copy (`size` nil), of the size of page 1, the
    /// page read first (docs/cli.md, "What is whole"); a count of more
    /// pages than a reader reads is the service's fault.
    fileprivate static func checked(_ listing: ListingBody, size: Int?, at url: URL) -> Result<Paging, Fault> {
        let paging = Paging(count: listing.count, size: size ?? listing.species.count)
        guard paging.pages <= ListingReader.maxPages else {
            return .failure(.tooLarge(url: url, .pages(ListingReader.maxPages)))
        }
        return .success(paging)
    }
}

/// What a species of a service is (docs/cli.md, "What is whole"): an
/// object of the species' kind with a name (`StarWarsSpecies.Decoded`), under
/// a species URL (`ResourceReference`) of the service's root, or of the root
/// of the public service it copies, the same root for every species of an
/// answer. Its id is its URL's.
struct ServiceSpecies {
    private var roots: [APIRoot]
    /// How the first species wrote its root: one comparison a species.
    private var written: String?

    init(root: APIRoot) { roots = [root] + APIRoot.publicServices }

    /// The species' id, when it is a species of this service.
    mutating func id(of species: StarWarsSpecies) -> Int? {
        guard !species.name.isEmpty, let (reference, root) = ResourceReference.parse(species.url),
            reference.kind == .species
        else { return nil }
        if let written, root == written { return reference.id }
        guard roots[0].writes(root), let index = roots.firstIndex(where: { $0.owns(root) }) else { return nil }
        if written == nil {
            roots = [roots[index]]
            written = String(root)
        }
        return reference.id
    }
}

/// The page a listing link names.
enum ListingLink {
    /// The number of the page `url` names, when it has the form of
    /// `pattern`: the same path (case and a final slash aside), the same
    /// query but for `page`, whose absence means page 1. A query item the
    /// link leaves out is fine (swapi.tech drops `expanded` from its links).
    static func page(of url: URL, inFormOf pattern: URL) -> Int? {
        guard let link = URLComponents(url: url, resolvingAgainstBaseURL: false),
            let form = URLComponents(url: pattern, resolvingAgainstBaseURL: false),
            trimmed(link.path) == trimmed(form.path)
        else { return nil }
        let items = (link.percentEncodedQueryItems ?? []).map(decoded)
        let formItems = (form.percentEncodedQueryItems ?? []).map(decoded)
        for item in items where item.name != "page" { guard formItems.contains(item) else { return nil } }
        let pages = items.filter { $0.name == "page" }
        guard let page = pages.first else { return 1 }
        guard pages.count == 1, let value = page.value, let number = SWAPINumber.whole(value), number >= 1 else {
            return nil
        }
        return number
    }

    /// A query item with its value decoded, `+` as a space: servers write
    /// `dor+kel` where this client writes `dor%20kel`.
    private static func decoded(_ item: URLQueryItem) -> URLQueryItem {
        URLQueryItem(
            name: item.name,
            value: item.value.map { ($0.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? $0) })
    }

    private static func trimmed(_ path: String) -> String {
        (path.hasSuffix("/") ? String(path.dropLast()) : path).lowercased()
    }
}
