import Foundation
import Testing

@testable import SpeciesKit

/// The one reader of a listing, as a table: the answers to the URLs it asks
/// for go in, its next step comes out. No transport, clock or server.
@Suite("What a listing is")
struct ListingReaderTests {
    static let dev = APIRoot("https://swapi.dev/api/")!
    static let other = APIRoot("http://127.0.0.1:9/t1/api/")!

    /// The URL of a page of a search, in each dialect: what the reader
    /// asks, and what a message says was searched.
    @Test(
        arguments: [
            (Dialect.drf, 1, "an", "https://swapi.dev/api/species/?search=an"),
            (.drf, 2, "an", "https://swapi.dev/api/species/?search=an&page=2"),
            (.drf, 2, nil, "https://swapi.dev/api/species/?page=2"),
            (.tech, 1, "an ewo", "https://swapi.dev/api/species?name=ewo"),
            (.tech, 2, nil, "https://swapi.dev/api/species?page=2&limit=10&expanded=true"),
            (.info, 1, "an", "https://swapi.dev/api/species/"),
        ] as [(Dialect, Int, String?, String)])
    func aPageOfASearchIsAskedInTheDialectsForm(dialect: Dialect, number: Int, search: String?, url: String) {
        #expect(
            ListingReader.url(ofPage: number, root: Self.dev, dialect: dialect, search: search).absoluteString == url)
    }

    /// A swapi.dev page of a listing of `count`: species `ids`, each named
    /// `Species N` at its URL, unless `elements` says otherwise.
    static func page(
        _ number: Int, of count: Int = 25, ids: [Int]? = nil, elements: [String]? = nil, next: String?? = nil,
        root: APIRoot = dev, search: String? = nil
    ) -> Data {
        let ids = ids ?? Array((number - 1) * 10 + 1...min(count, number * 10))
        let base = root.url.absoluteString
        let elements = elements ?? ids.map { #"{"name":"Species \#($0)","url":"\#(base)species/\#($0)/"}"# }
        let link =
            next
            ?? (number * 10 < count
                ? Dialect.drf.listingURL(root, page: number + 1, search: search).absoluteString : nil)
        let json =
            #"{"count":\#(count),"next":\#(link.map { "\"\($0)\"" } ?? "null"),"results":[\#(elements.joined(separator: ","))]}"#
        return Data(json.utf8)
    }

    static func url(_ number: Int, root: APIRoot = dev, search: String? = nil) -> URL {
        Dialect.drf.listingURL(root, page: number, search: search)
    }

    static func reader(
        _ question: ListingReader.Question, expecting pages: Int = 1, root: APIRoot = dev, search: String? = nil
    ) -> ListingReader {
        ListingReader(
            root: root, dialect: Dialect.ofPublicHost(root), guess: .drf, question: question, search: search,
            expectedCount: pages * 10)
    }

    /// Feeds each answer in turn; the last step.
    static func feed(_ reader: inout ListingReader, _ answers: [(URL, Result<Data, Fault>)])
        -> ListingReader.Step
    {
        var step = ListingReader.Step.wait
        for (url, answer) in answers { step = reader.read(url, answer) }
        return step
    }

    static func species(_ step: ListingReader.Step) -> [Int]? {
        guard case .done(let whole) = step else { return nil }
        return whole.species.compactMap(\.id)
    }

    static func error(_ step: ListingReader.Step) -> Fault? {
        guard case .failed(let error) = step else { return nil }
        return error
    }

    static func fetched(_ step: ListingReader.Step) -> [URL]? {
        guard case .fetch(let urls) = step else { return nil }
        return urls
    }

    // MARK: The page plan

    /// Every page asked for at once, answered in any order, taken in order.
    @Test func pagesComeInAnyOrderAndAreTakenInOrder() {
        var reader = Self.reader(.species(limit: nil), expecting: 3)
        #expect(Self.fetched(reader.start()) == [1, 2, 3].map { Self.url($0) })
        let step = Self.feed(&reader, [3, 2, 1].map { (Self.url($0), .success(Self.page($0))) })
        #expect(Self.species(step) == Array(1...25))
    }

    /// Before page 1 says, the pages the expected count fills, within 500,
    /// no more than hold the limit; a page alone, or a listing that comes
    /// whole, is page 1.
    @Test(
        arguments: [
            (ListingReader.Question.species(limit: nil), 37, 4, false), (.species(limit: nil), nil, 1, false),
            (.species(limit: nil), 0, 1, false), (.species(limit: nil), 1_000_000, 500, false),
            (.species(limit: 12), 37, 2, true), (.species(limit: 40), 37, 4, false), (.page(3), 37, 1, false),
        ] as [(ListingReader.Question, Int?, Int, Bool)])
    func theFirstAsk(question: ListingReader.Question, expected: Int?, pages: Int, heldByLimit: Bool) {
        let reader = ListingReader(
            root: Self.dev, dialect: .drf, guess: .drf, question: question, search: nil, expectedCount: expected)
        #expect(reader.firstAsk == (pages, heldByLimit))
        let info = ListingReader(
            root: Self.other, dialect: nil, guess: .info, question: question, search: nil, expectedCount: expected)
        #expect(info.firstAsk == (1, false), "swapi.info's array comes whole")
    }

    @Test func page1SaysHowManyMoreToAskFor() {
        var reader = Self.reader(.species(limit: nil))
        #expect(Self.fetched(reader.start()) == [Self.url(1)])
        #expect(Self.fetched(reader.read(Self.url(1), .success(Self.page(1)))) == [Self.url(2), Self.url(3)])
    }

    /// A guess past the last page: the answer past it does not matter.
    @Test func aPageAskedForPastTheLastIsNotTaken() {
        var reader = Self.reader(.species(limit: nil), expecting: 4)
        _ = reader.start()
        let step = Self.feed(
            &reader,
            [(Self.url(4), .failure(.httpStatus(404, url: Self.url(4))))]
                + [1, 2, 3].map { (Self.url($0), .success(Self.page($0))) })
        #expect(Self.species(step) == Array(1...25))
    }

    @Test(arguments: [(1, 1), (10, 1), (11, 2), (12, 2), (30, 3)])
    func aLimitAsksForThePagesThatHoldIt(limit: Int, pages: Int) {
        var reader = Self.reader(.species(limit: limit), expecting: 4)
        #expect(Self.fetched(reader.start()) == (1...pages).map { Self.url($0) })
        let step = Self.feed(&reader, (1...pages).map { (Self.url($0), .success(Self.page($0))) })
        #expect(Self.species(step)?.count == min(25, pages * 10))
    }

    /// The form's page size on every page but the last, page 1 included,
    /// whether a page is read alone or with the others.
    @Test(arguments: [ListingReader.Question.page(1), .species(limit: nil), .species(limit: 5)])
    func page1IsHeldToThePageSize(question: ListingReader.Question) {
        var reader = Self.reader(question)
        _ = reader.start()
        let short = Self.page(1, ids: Array(1...9))
        #expect(
            Self.error(reader.read(Self.url(1), .success(short)))
                == .incomplete(url: Self.url(1), .pageLength(9, expected: 10)))
    }

    @Test func aPageReadAloneSaysWhereItStands() {
        var reader = Self.reader(.page(3))
        #expect(Self.fetched(reader.start()) == [Self.url(3)])
        guard case .done(let whole) = reader.read(Self.url(3), .success(Self.page(3))) else {
            return #expect(Bool(false))
        }
        #expect(whole.species.compactMap(\.id) == Array(21...25) && whole.paging.pages == 3)
    }

    /// swapi.dev answers 404 past the last page: page 1 says how many there are.
    @Test func aPagePastTheLastIsNoSuchPageOnce() {
        var reader = Self.reader(.page(5))
        _ = reader.start()
        #expect(Self.fetched(reader.read(Self.url(5), .failure(.httpStatus(404, url: Self.url(5))))) == [Self.url(1)])
        #expect(Self.error(reader.read(Self.url(1), .success(Self.page(1)))) == .noSuchPage(5, pages: 3, search: nil))
    }

    /// A page within the count that answers 404 makes the listing not
    /// whole (issue 49): a page 1 read from the cache is then read again,
    /// and a copy that shrank says how many pages it has now.
    @Test func aPageWithinTheCountThatIsMissingIsNoAnswer() {
        var reader = Self.reader(.page(2))
        _ = reader.start()
        _ = reader.read(Self.url(2), .failure(.httpStatus(404, url: Self.url(2))))
        #expect(
            Self.error(reader.read(Self.url(1), .success(Self.page(1))))
                == .incomplete(url: Self.url(2), .missing(pages: 3)))
        #expect(Fault.incomplete(url: Self.url(2), .missing(pages: 3)).kind == .badAnswer)
    }

    @Test func aCountOfMorePagesThanAReaderReadsIsAFaultOfTheService() {
        var reader = Self.reader(.species(limit: nil))
        _ = reader.start()
        #expect(
            Self.error(reader.read(Self.url(1), .success(Self.page(1, of: 5_001, ids: Array(1...10)))))
                == .tooLarge(url: Self.url(1), .pages(500)))
    }

    @Test(arguments: [
        (Self.page(2, of: 26, ids: Array(11...20)), ListingFault.countChanged(26, from: 25)),
        (Self.page(2, ids: Array(11...19)), .pageLength(9, expected: 10)),
        (Self.page(2, ids: Array(11...20), next: .some(nil)), .nextLink(false, pages: 3)),
    ])
    func aPageThatDoesNotAddUpIsNoAnswer(body: Data, fault: ListingFault) {
        var reader = Self.reader(.species(limit: nil), expecting: 2)
        _ = reader.start()
        let step = Self.feed(&reader, [(Self.url(1), .success(Self.page(1))), (Self.url(2), .success(body))])
        #expect(Self.error(step) == .incomplete(url: Self.url(2), fault))
    }

    // MARK: What an element is

    @Test(arguments: [
        ("{}", "results[0]"),
        (#"{"name":null,"url":"https://swapi.dev/api/species/11/"}"#, "at https://swapi.dev/api/species/11/"),
        (#"{"name":"","url":"https://swapi.dev/api/species/11/"}"#, "at https://swapi.dev/api/species/11/"),
        (#"{"name":"Tatooine","url":"https://swapi.dev/api/planets/13/"}"#, "results[0]"),
        (#"{"name":"Luke","height":"172","mass":"77","url":"https://swapi.dev/api/species/11/"}"#, "results[0]"),
        (#"{"name":"Elsewhere","url":"https://evil.example/api/species/11/"}"#, "'Elsewhere'"),
        (#"{"name":"Species 11"}"#, "results[0]"), ("null", "results[0]"), ("5", "results[0]"),
    ])
    func anElementThatIsNoSpeciesOfTheServiceMakesThePageNotWhole(element: String, named: String) {
        var reader = Self.reader(.species(limit: nil), expecting: 2)
        _ = reader.start()
        let rest = (12...20).map { #"{"name":"Species \#($0)","url":"https://swapi.dev/api/species/\#($0)/"}"# }
        let step = Self.feed(
            &reader,
            [(Self.url(1), .success(Self.page(1))), (Self.url(2), .success(Self.page(2, elements: [element] + rest)))])
        #expect(Self.error(step) == .incomplete(url: Self.url(2), .notASpecies(named)))
    }

    /// Species 1 again, spelled otherwise, on page 2: one species twice.
    @Test(arguments: [
        "https://swapi.dev/api/species/1", "http://swapi.dev/api/species/1/", "https://SWAPI.dev/api/species/1/",
    ])
    func oneSpeciesTwiceIsNotWholeHoweverItsURLIsSpelled(url: String) {
        var reader = Self.reader(.species(limit: nil), expecting: 2)
        _ = reader.start()
        let elements =
            [#"{"name":"Again","url":"\#(url)"}"#]
            + (12...20).map { #"{"name":"Species \#($0)","url":"https://swapi.dev/api/species/\#($0)/"}"# }
        let step = Self.feed(
            &reader,
            [(Self.url(1), .success(Self.page(1))), (Self.url(2), .success(Self.page(2, elements: elements)))])
        #expect(Self.error(step) == .incomplete(url: Self.url(2), .repeated("'Again'")))
    }

    /// Issue 43: one name under two URLs is one species twice.
    @Test func oneNameUnderTwoURLsIsNotWhole() {
        var reader = Self.reader(.species(limit: nil), expecting: 2)
        _ = reader.start()
        let elements = (11...20).map {
            #"{"name":"Species \#($0 == 11 ? 1 : $0)","url":"https://swapi.dev/api/species/\#($0)/"}"#
        }
        let step = Self.feed(
            &reader,
            [(Self.url(1), .success(Self.page(1))), (Self.url(2), .success(Self.page(2, elements: elements)))])
        #expect(Self.error(step) == .incomplete(url: Self.url(2), .named("'Species 1'")))
    }

    /// Issue 43: a copy may keep the species URLs of the public service it
    /// copies, the same root for every species of the answer.
    @Test func aCopyKeepsThePublicRootItCopiesOneRootForAll() {
        func species(_ ids: ClosedRange<Int>, root: String) -> [String] {
            ids.map { #"{"name":"Species \#($0)","url":"\#(root)species/\#($0)/"}"# }
        }
        let dev = "https://swapi.dev/api/", own = Self.other.url.absoluteString
        for (second, whole) in [(dev, true), (own, false)] {
            var reader = Self.reader(.species(limit: nil), expecting: 2, root: Self.other)
            _ = reader.start()
            let step = Self.feed(
                &reader,
                [
                    (
                        Self.url(1, root: Self.other),
                        .success(Self.page(1, of: 20, elements: species(1...10, root: dev), root: Self.other))
                    ),
                    (
                        Self.url(2, root: Self.other),
                        .success(Self.page(2, of: 20, elements: species(11...20, root: second), root: Self.other))
                    ),
                ])
            #expect((Self.species(step) != nil) == whole, "\(second)")
        }
    }

    // MARK: Links and searches

    @Test(arguments: [
        ("https://swapi.dev/api/species/", LinkFault.loops), ("https://swapi.dev/api/species/?page=2", .loops),
        ("https://swapi.dev/api/species/?page=3&cursor=x", .skips), ("https://swapi.dev/api/species/?page=4", .skips),
        ("https://evil.example/api/species/?page=3", .leavesOrigin("https://swapi.dev")),
        ("file:///etc/passwd", .notHTTP),
    ])
    func aNextLinkLeadsToTheNextPageOfTheOrigin(link: String, fault: LinkFault) {
        var reader = Self.reader(.species(limit: nil), expecting: 2)
        _ = reader.start()
        let step = Self.feed(
            &reader,
            [(Self.url(1), .success(Self.page(1))), (Self.url(2), .success(Self.page(2, next: .some(link))))])
        #expect(Self.error(step) == .badLink(url: Self.url(2), link: link, fault))
    }

    /// An `http` link of an `https` service's host is its next page.
    @Test func anHTTPLinkOfTheSameHostIsTheNextPage() {
        var reader = Self.reader(.species(limit: nil), expecting: 3)
        _ = reader.start()
        let step = Self.feed(
            &reader,
            [
                (Self.url(1), .success(Self.page(1, next: "http://swapi.dev/api/species/?page=2"))),
                (Self.url(2), .success(Self.page(2))), (Self.url(3), .success(Self.page(3))),
            ])
        #expect(Self.species(step) == Array(1...25))
    }

    @Test func aPage2LinkThatAnswers404IsTheLinksFault() {
        var reader = Self.reader(.species(limit: nil), expecting: 2)
        _ = reader.start()
        let step = Self.feed(
            &reader,
            [(Self.url(1), .success(Self.page(1))), (Self.url(2), .failure(.httpStatus(404, url: Self.url(2))))])
        #expect(Self.error(step) == .badLink(url: Self.url(1), link: Self.url(2).absoluteString, .notFound))
    }

    @Test func aSearchAnsweredWithSpeciesThatDoNotMatchIsNoAnswer() {
        var reader = Self.reader(.species(limit: nil), search: "7")
        _ = reader.start()
        let url = Self.url(1, search: "7")
        let step = reader.read(url, .success(Self.page(1, of: 3, ids: [7, 17, 8], search: "7")))
        #expect(Self.error(step) == .incomplete(url: url, .unmatched("'Species 8'", search: "7")))
    }

    // MARK: One form

    /// A known host speaks its own dialect, in every answer.
    @Test(arguments: [
        #"[{"name":"Species 1","url":"https://swapi.dev/api/species/1/"}]"#,
        #"{"message":"ok","total_records":25,"next":null,"results":[]}"#,
    ])
    func anAnswerInAnotherFormIsNoAnswer(body: String) {
        var reader = Self.reader(.species(limit: nil))
        _ = reader.start()
        guard
            case .invalidResponse(_, .dialectChanged(_, "swapi.dev's"))? = Self.error(
                reader.read(Self.url(1), .success(Data(body.utf8))))
        else { return #expect(Bool(false)) }
    }

    /// Another host's first answer fixes its form: swapi.tech's asks again
    /// in its own; a later page in another dialect is no answer.
    @Test func anotherHostsFirstAnswerFixesItsForm() {
        var reader = Self.reader(.species(limit: nil), expecting: 2, root: Self.other)
        _ = reader.start()
        let tech =
            #"{"message":"ok","total_records":1,"next":null,"results":[{"uid":"1","properties":{"name":"Human","url":"https://www.swapi.tech/api/species/1"}}]}"#
        let again = Self.fetched(reader.read(Self.url(1, root: Self.other), .success(Data(tech.utf8))))
        #expect(again == [1, 2].map { Dialect.tech.listingURL(Self.other, page: $0) })
        let step = reader.read(Dialect.tech.listingURL(Self.other, page: 1), .success(Data(tech.utf8)))
        #expect(Self.species(step) == [1] && reader.dialect == .tech)

        var mixed = Self.reader(.species(limit: nil), expecting: 3, root: Self.other)
        _ = mixed.start()
        let changed = Self.feed(
            &mixed,
            [
                (Self.url(1, root: Self.other), .success(Self.page(1, root: Self.other))),
                (Self.url(2, root: Self.other), .success(Data(tech.utf8))),
            ])
        guard case .invalidResponse(_, .dialectChanged("swapi.tech's", "swapi.dev's"))? = Self.error(changed) else {
            return #expect(Bool(false))
        }
    }

    /// swapi.tech's listing page written in the form of its search is not
    /// its listing.
    @Test func aSwapiTechPageInTheFormOfASearchIsNoAnswer() {
        let root = APIRoot("https://www.swapi.tech/api/")!
        var reader = Self.reader(.species(limit: nil), root: root)
        let url = Dialect.tech.listingURL(root, page: 1)
        #expect(Self.fetched(reader.start()) == [url])
        let search =
            #"{"message":"ok","total_records":37,"result":[{"uid":"1","properties":{"name":"Human","url":"https://www.swapi.tech/api/species/1"}}]}"#
        #expect(
            Self.error(reader.read(url, .success(Data(search.utf8))))
                == .invalidResponse(url: url, .missing(path: "results")))
    }

    /// swapi.info's array is whole when every element is a species of it,
    /// each once; a search over it is filtered, and pages made, here.
    @Test(arguments: [("null", "[1]"), ("{}", "[1]")])
    func swapiInfosArrayIsWholeOnlyWhenEveryElementIsASpecies(element: String, named: String) {
        let root = APIRoot("https://swapi.info/api/")!
        let url = Dialect.info.listingURL(root)
        var reader = Self.reader(.species(limit: nil), root: root)
        _ = reader.start()
        let body = #"[{"name":"Human","url":"https://swapi.info/api/species/1"},\#(element)]"#
        #expect(Self.error(reader.read(url, .success(Data(body.utf8)))) == .incomplete(url: url, .notASpecies(named)))
    }

    @Test func swapiInfosArrayIsPagedHere() {
        let root = APIRoot("https://swapi.info/api/")!
        let url = Dialect.info.listingURL(root)
        let body =
            "["
            + (1...25).map { #"{"name":"Species \#($0)","url":"https://swapi.info/api/species/\#($0)"}"# }.joined(
                separator: ",") + "]"
        var reader = Self.reader(.page(3), root: root, search: "species")
        #expect(Self.fetched(reader.start()) == [url])
        #expect(Self.species(reader.read(url, .success(Data(body.utf8)))) == Array(21...25))
        var past = Self.reader(.page(4), root: root)
        _ = past.start()
        #expect(Self.error(past.read(url, .success(Data(body.utf8)))) == .noSuchPage(4, pages: 3, search: nil))
    }

    /// A copy of swapi.info at another host answers every page asked with
    /// its whole array: once page 1 is one, the others are stopped and
    /// dropped before it is read, so that no more than one is held.
    @Test func page1AsAnArrayStopsTheOtherPages() {
        var reader = Self.reader(.species(limit: nil), expecting: 3, root: Self.other)
        #expect(Self.fetched(reader.start()) == [1, 2, 3].map { Self.url($0, root: Self.other) })
        let array = Data(
            ("["
                + (1...25).map { #"{"name":"S\#($0)","url":"\#(Self.other.url)species/\#($0)/"}"# }.joined(
                    separator: ",")
                + "]").utf8)
        let steps = [2, 1, 3].map { reader.read(Self.url($0, root: Self.other), .success(array)) }
        #expect(
            steps.map { "\($0)" } == ["wait", "alone", "wait"],
            "page 3 is no longer asked")
        #expect(Self.species(reader.readAlone()) == Array(1...25))
        #expect(reader.pagesTaken.map(\.url) == [Self.url(1, root: Self.other)])
    }

    // MARK: Issue 43: the page size of a copy, and a page past its count

    /// A page of a copy that pages by `size`: species of their own ids.
    static func copyPage(_ number: Int, of count: Int, size: Int, length: Int? = nil) -> Data {
        let first = (number - 1) * size + 1
        let ids = Array(first...min(count, first + (length ?? size) - 1))
        let next = number * size < count ? Self.url(number + 1, root: other).absoluteString : nil
        return page(number, of: count, ids: ids, next: .some(next), root: other)
    }

    /// A copy's page size is its page 1's: every page but the last holds as
    /// many, consistently with the count.
    @Test(arguments: [(5, 12, [5, 5, 2]), (20, 37, [20, 17]), (10, 37, [10, 10, 10, 7])])
    func aCopyPagesByItsPageOnesSize(size: Int, count: Int, lengths: [Int]) {
        var reader = Self.reader(.species(limit: nil), expecting: 1, root: Self.other)
        _ = reader.start()
        let answers = lengths.indices.map {
            (
                Self.url($0 + 1, root: Self.other),
                Result<Data, Fault>.success(Self.copyPage($0 + 1, of: count, size: size))
            )
        }
        #expect(Self.species(Self.feed(&reader, answers)) == Array(1...count))
    }

    @Test func aPageOneShorterThanThePagesAfterItIsNotWhole() {
        var reader = Self.reader(.species(limit: nil), expecting: 2, root: Self.other)
        _ = reader.start()
        let step = Self.feed(
            &reader,
            [
                (Self.url(1, root: Self.other), .success(Self.copyPage(1, of: 19, size: 9))),
                (Self.url(2, root: Self.other), .success(Self.copyPage(2, of: 19, size: 9, length: 10))),
            ])
        #expect(Self.error(step) == .incomplete(url: Self.url(2, root: Self.other), .pageLength(10, expected: 9)))
    }

    /// `--page 3` at a copy reads page 1 with it, which says the size; a
    /// page that exists past its count proves the count wrong.
    @Test func aPageOfACopyIsReadWithPageOne() {
        var reader = Self.reader(.page(3), root: Self.other)
        #expect(Self.fetched(reader.start()) == [1, 3].map { Self.url($0, root: Self.other) })
        let step = Self.feed(
            &reader,
            [
                (Self.url(3, root: Self.other), .success(Self.copyPage(3, of: 12, size: 5))),
                (Self.url(1, root: Self.other), .success(Self.copyPage(1, of: 12, size: 5))),
            ])
        #expect(Self.species(step) == [11, 12])
        var past = Self.reader(.page(3), root: Self.other)
        _ = past.start()
        let counted = Self.page(3, of: 15, ids: Array(21...25), next: .some(nil), root: Self.other)
        let wrong = Self.feed(
            &past,
            [
                (Self.url(1, root: Self.other), .success(Self.copyPage(1, of: 15, size: 10))),
                (Self.url(3, root: Self.other), .success(counted)),
            ])
        #expect(Self.error(wrong) == .incomplete(url: Self.url(3, root: Self.other), .pastTheCount(pages: 2)))
    }

    /// With the page size a copy's page 1 showed, a page after it is asked
    /// alone, and held to that size.
    @Test func aSizeShownByPage1AsksAPageAlone() {
        func reader() -> ListingReader {
            ListingReader(
                root: Self.other, dialect: nil, guess: .drf, question: .page(2), search: nil, size: 5)
        }
        let url = Self.url(2, root: Self.other)
        var fits = reader()
        #expect(Self.fetched(fits.start()) == [url])
        #expect(Self.species(fits.read(url, .success(Self.copyPage(2, of: 12, size: 5)))) == Array(6...10))
        var grown = reader()
        _ = grown.start()
        #expect(
            Self.error(grown.read(url, .success(Self.copyPage(2, of: 37, size: 10))))
                == .incomplete(url: url, .pageLength(10, expected: 5)))
    }

    /// Progress names the page waited for, and of how many once that is
    /// known: never a page past the total.
    @Test func progressNeverPassesTheTotal() {
        var page9 = Self.reader(.page(9), root: Self.other)
        _ = page9.start()
        #expect(page9.progress?.page == 1 && page9.progress?.of == nil)
        _ = page9.read(Self.url(1, root: Self.other), .success(Self.copyPage(1, of: 37, size: 10)))
        #expect(page9.progress?.page == 9 && page9.progress?.of == nil, "page 9 of 4 is no page of 4")
        var all = Self.reader(.species(limit: nil), expecting: 4)
        _ = all.start()
        #expect(all.progress?.page == 1 && all.progress?.of == 4)
        _ = all.read(Self.url(1), .success(Self.page(1, of: 15)))
        #expect(all.progress?.page == 2 && all.progress?.of == 2)
    }

    /// swapi.tech answers a page past its count with its last page: no
    /// such page. A page past the count that is not the last (a 'next'
    /// link, or another length) proves the count wrong.
    @Test(
        arguments: [
            (37, Array(31...37), false, nil),
            (37, Array(31...37), true, 4),
            (15, Array(21...30), true, 2),
            (15, Array(21...30), false, 2),
        ] as [(Int, [Int], Bool, Int?)])
    func aSwapiTechPagePastItsCount(count: Int, ids: [Int], next: Bool, wrong: Int?) {
        let root = APIRoot("https://www.swapi.tech/api/")!
        let results = ids.map {
            #"{"uid":"\#($0)","properties":{"name":"Species \#($0)","url":"https://www.swapi.tech/api/species/\#($0)"}}"#
        }
        let link = next ? #""https://www.swapi.tech/api/species?page=10&limit=10&expanded=true""# : "null"
        let body =
            #"{"message":"ok","total_records":\#(count),"total_pages":\#((count + 9) / 10),"previous":null,"next":\#(link),"results":[\#(results.joined(separator: ","))]}"#
        var reader = Self.reader(.page(9), root: root)
        let url = Dialect.tech.listingURL(root, page: 9)
        #expect(Self.fetched(reader.start()) == [url])
        let pages = (count + 9) / 10
        let expected: Fault =
            wrong.map { .incomplete(url: url, .pastTheCount(pages: $0)) }
            ?? .noSuchPage(9, pages: pages, search: nil)
        #expect(Self.error(reader.read(url, .success(Data(body.utf8)))) == expected, "\(count) \(ids) \(next)")
    }

    /// swapi.tech's search must answer the term asked.
    @Test func swapiTechsSearchMustMatchTheTermAsked() {
        let root = APIRoot("https://www.swapi.tech/api/")!
        let url = Dialect.tech.techSearchURL(root, term: "wook")
        var reader = Self.reader(.species(limit: nil), root: root, search: "wook")
        #expect(Self.fetched(reader.start()) == [url])
        let human =
            #"{"message":"ok","result":[{"uid":"1","properties":{"name":"Human","url":"https://www.swapi.tech/api/species/1"}}]}"#
        #expect(
            Self.error(reader.read(url, .success(Data(human.utf8))))
                == .incomplete(url: url, .unmatched("'Human'", search: "wook")))
    }

    @Test(arguments: [(0, 1), (1, 1), (10, 1), (11, 2), (37, 4), (40, 4), (Int.max, Int.max / 10 + 1)])
    func theNumberOfPages(count: Int, pages: Int) {
        #expect(Paging(count: count, size: 10).pages == pages)
        #expect(Paging(count: count, size: 10).length(ofPage: pages) == count - (pages - 1) * 10)
    }
}
