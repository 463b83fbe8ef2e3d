import Foundation
import SpeciesKit
import Testing
import TestSupport

/// SpeciesKit as a package that depends on it uses it: its public API only,
/// the real transport against a local SWAPI, and a cache folder of its own.
@Suite("SpeciesKit as its users use it")
struct PublicAPITests {
    let folder = Fixtures.temporaryFolder("public-api")
    let session = ServerSession()

    /// A client of `roots`, with time to spare: no test here is about time,
    /// and a busy machine's test server may take seconds to answer.
    private func client(
        _ roots: [APIRoot], cached: Bool = true, mode: CachePolicy.Mode = .normal, fallback: Bool = false
    ) -> SpeciesClient {
        SpeciesClient(
            configuration: .init(
                roots: roots, timeout: 120, retries: 0,
                cache: CachePolicy(directory: cached ? folder : nil, maxAge: 0, mode: mode), fallback: fallback))
    }

    private func root(fault: String? = nil) async throws -> APIRoot {
        try #require(APIRoot(try await session.root(fault: fault)))
    }

    /// What `body` throws, as a caller's `do throws(SpeciesError)` gets it.
    private func error(_ body: () async throws(SpeciesError) -> Void) async -> SpeciesError? {
        do throws(SpeciesError) {
            try await body()
            return nil
        } catch {
            return error
        }
    }

    @Test func everyMethodAnswersFromTheServiceItNames() async throws {
        let root = try await root()
        let client = client([root], cached: false)
        let page = try await client.page(2)
        #expect(page.value.number == 2 && page.value.pageCount == 4 && page.value.species.count == 10)
        #expect(page.source == .service(root) && "\(page.source)" == "127.0.0.1:\(root.url.port ?? 0)")
        #expect(try await client.allSpecies(search: "an").value.count == 17)
        #expect(try await client.allSpecies(limit: 12).value.map(\.id) == Array(1...12))
        let wookie = try await client.species(.name("wookie")).value
        #expect(wookie.id == 3 && wookie.url == root.url.absoluteString + "species/3/")
        #expect(try await client.species(.id(3)).value == wookie)
        #expect(try await client.species(.url(try #require(URL(string: wookie.url)))).value == wookie)
        let (hutt, related) = try await client.speciesAndRelated(.name("hutt")).value
        #expect(hutt.name == "Hutt" && related.homeworld == .named("Nal Hutta"))
        let all = try await client.allSpecies().value
        #expect(Set(all.map(\.id)).count == 37, "no two species share an id")
        #expect(
            try await session.requests(agents: true).allSatisfy { $0 == "SpeciesKit/\(SpeciesRelease.version)" },
            "the library's own User-Agent")
    }

    /// Nonsense is refused before any request, as a bad question, never a trap.
    /// Issue 50, item 6: every species answered has its name, a `String`;
    /// its links are `URL`s too.
    @Test func aSpeciesHasItsNameAndItsLinksAsURLs() async throws {
        let wookie = try await client([try await root()], cached: false).species(.id(3)).value
        let name: String = wookie.name
        #expect(name == "Wookie")
        #expect(wookie.speciesURL?.absoluteString == wookie.url)
        #expect(wookie.homeworldURL != nil && wookie.homeworldURL?.absoluteString == wookie.homeworld)
        #expect(!wookie.people.isEmpty && wookie.peopleURLs.map(\.absoluteString) == wookie.people)
        #expect(!wookie.films.isEmpty && wookie.filmURLs.map(\.absoluteString) == wookie.films)
    }

    @Test func aQuestionThatCannotBeAskedIsRefusedUnasked() async throws {
        let transport = try StubTransport.recordedSWAPI()
        let client = SpeciesClient(configuration: .init(roots: [.swapi]), transport: transport)
        let refused: [(String, () async throws(SpeciesError) -> Void)] = [
            ("limit -1", { () throws(SpeciesError) in _ = try await client.allSpecies(limit: -1) }),
            ("page 0", { () throws(SpeciesError) in _ = try await client.page(0) }),
            ("id -1", { () throws(SpeciesError) in _ = try await client.species(.id(-1)) }),
            ("empty name", { () throws(SpeciesError) in _ = try await client.species(.name("")) }),
            ("blank name", { () throws(SpeciesError) in _ = try await client.speciesAndRelated(.name(" \t")) }),
            (
                "long name",
                { () throws(SpeciesError) in _ = try await client.species(.name(String(repeating: "x", count: 100_000)))
                }
            ),
            ("search without a word", { () throws(SpeciesError) in _ = try await client.allSpecies(search: ",") }),
            (
                "long search",
                { () throws(SpeciesError) in _ = try await client.page(search: String(repeating: "an ", count: 100)) }
            ),
        ]
        for (question, ask) in refused {
            let refusal = await error(ask)
            #expect(refusal?.kind == .badQuestion, "\(question): \(String(describing: refusal))")
        }
        let settings: [(SpeciesClient.Configuration, SpeciesError.Setting)] = [
            (.init(roots: [.swapi], timeout: .nan), .timeout), (.init(roots: [.swapi], timeout: -1), .timeout),
            (.init(roots: [.swapi], retries: -1), .retries),
            (.init(roots: [.swapi], maxResponseSize: -1), .maxResponseSize),
            (.init(roots: [.swapi], cache: CachePolicy(directory: nil, maxAge: .infinity)), .maxAge),
            (.init(roots: [.swapi], attemptDelay: .nan), .attemptDelay),
            (.init(roots: [.swapi], attemptDelay: -1), .attemptDelay),
            // Issue 44: no roots is no question, not the public internet.
            (.init(roots: []), .roots),
            (.init(roots: [.swapi], cache: CachePolicy(directory: URL(fileURLWithPath: "relative"))), .cacheDirectory),
            (.init(roots: [.swapi], cache: CachePolicy(directory: URL(string: "cache"))), .cacheDirectory),
        ]
        for (configuration, setting) in settings {
            let client = SpeciesClient(configuration: configuration, transport: transport)
            let refusal = await error { () throws(SpeciesError) in _ = try await client.page() }
            #expect(refusal?.kind == .badQuestion && refusal?.setting == setting, "\(String(describing: refusal))")
        }
        let none = try await client.allSpecies(limit: 0)
        #expect(none.value.isEmpty && none.source == .unasked, "a limit of 0 asks nothing")
        #expect(transport.requests.isEmpty)
    }

    // MARK: Errors an app can act on (issue 44), as docc/HandlingErrors.md shows

    /// What an app acts on is a property: the candidates of an ambiguous
    /// name, the suggestions for one that matched nothing; `catch` matches a
    /// kind as it matches a `URLError` code.
    @Test func anAmbiguousNameAndAMissAreTheirOwnKinds() async throws {
        let client = client([try await root()], cached: false)
        let ambiguous = await error { () throws(SpeciesError) in _ = try await client.species(.name("ian")) }
        #expect(ambiguous?.kind == .ambiguousName)
        #expect(
            ambiguous?.candidates == [
                "Rodian", "Neimodian", "Toydarian", "Tholothian", "Quermian", "Chagrian", "Geonosian",
            ])
        #expect(ambiguous?.recoverySuggestion?.hasPrefix("Give one full name: 'Rodian', 'Neimodian', ") == true)
        let miss = await error { () throws(SpeciesError) in _ = try await client.species(.name("wookiee")) }
        #expect(miss?.kind == .nothingMatched && miss?.suggestions == ["Wookie"] && miss?.candidates == [])
        #expect(miss?.recoverySuggestion == "Did you mean 'Wookie'?")
        var caught = ""
        do {
            _ = try await client.species(.name("ian"))
        } catch SpeciesError.nothingMatched {
            caught = "nothing"
        } catch SpeciesError.ambiguousName {
            caught = "ambiguous"
        } catch {
            caught = "other"
        }
        #expect(caught == "ambiguous")
    }

    /// The HTTP status and `Retry-After` of a service's answer are values.
    @Test func theStatusAndRetryAfterOfAServiceAreValues() async throws {
        func failure(_ fault: String) async throws -> SpeciesError? {
            let client = SpeciesClient(
                configuration: .init(roots: [try await root(fault: fault)], timeout: 60, retries: 0, fallback: false))
            return await error { () throws(SpeciesError) in _ = try await client.page() }
        }
        let unavailable = try await failure("503-always")
        #expect(unavailable?.kind == .unavailable && unavailable?.httpStatus == 503 && unavailable?.retryAfter == nil)
        let limited = try await failure("429-long")
        #expect(limited?.httpStatus == 429 && limited?.retryAfter == 25924 && limited?.setting == .timeout)
        #expect(limited?.recoverySuggestion == "Ask again after 7 h 12 min, as the service asks.")
        let once = try await failure("429-once")
        #expect(once?.httpStatus == 429 && once?.retryAfter == 1, "with no retries, the wait asked is still said")
        #expect(once?.recoverySuggestion == "Ask again after 1 s, as the service asks.")
        let refused = try await failure("404-json")
        #expect(refused?.httpStatus == 404 && refused?.kind == .unavailable)
    }

    /// Every kind says why, and what to do; equal errors hash alike.
    @Test func everyKindHasAReasonAndASuggestion() async throws {
        let root = try await root()
        let client = client([root], cached: false)
        let portal = self.client([try await self.root(fault: "html")], cached: false)
        let kinds = [
            await error { () throws(SpeciesError) in _ = try await client.page(9) },
            await error { () throws(SpeciesError) in _ = try await client.species(.name("an")) },
            await error { () throws(SpeciesError) in _ = try await client.page(0) },
            await error { () throws(SpeciesError) in _ = try await portal.page() },
            await error { () throws(SpeciesError) in
                _ = try await SpeciesClient(configuration: .init(roots: [root], fallback: false), transport: Refusing())
                    .page()
            },
        ].compactMap { $0 }
        #expect(kinds.map(\.kind) == [.nothingMatched, .ambiguousName, .badQuestion, .badAnswer, .unavailable])
        for error in kinds + [SpeciesError(.cancelled, "cancelled")] {
            #expect(error.failureReason?.isEmpty == false && error.recoverySuggestion?.isEmpty == false, "\(error)")
        }
        #expect(Set(kinds + kinds).count == kinds.count)
    }

    /// The article's app: a message for each error, and a catch by kind.
    @Test func theArticlesAppSaysWhatToDo() async throws {
        let client = client([try await root()], cached: false)
        let typed = "ian"
        var shown = ""
        do {
            _ = try await client.species(.name(typed))
        } catch SpeciesError.cancelled {
            // The view went away: nothing to say.
        } catch {
            shown = message(for: error)
        }
        #expect(shown == "Which one? Rodian, Neimodian, Toydarian, Tholothian, Quermian, Chagrian, Geonosian")
        let miss = SpeciesError(.nothingMatched, "no species is named 'wookiee'", suggestions: ["Wookie"])
        #expect(message(for: miss) == "Did you mean Wookie?")
        #expect(
            message(for: SpeciesError(.unavailable, "busy", retryAfter: 30))
                == "The service is busy; ask again in 30 s.")
    }

    /// Every Swift block of the DocC article on errors is code of this file,
    /// which compiles and runs.
    @Test func theArticlesCodeIsThisFilesCode() throws {
        let root = Fixtures.packageRoot
        let article = try String(
            contentsOf: root.appendingPathComponent("Sources/SpeciesKit/SpeciesKit.docc/HandlingErrors.md"),
            encoding: .utf8)
        let tests = try String(
            contentsOf: root.appendingPathComponent("Tests/SpeciesKitTests/PublicAPITests.swift"), encoding: .utf8)
        let lines = tests.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let pages = try String(
            contentsOf: root.appendingPathComponent("Sources/SpeciesKit/API/SpeciesPages.swift"), encoding: .utf8)
        let example = pages.components(separatedBy: "/// ```swift\n").dropFirst().map {
            $0.components(separatedBy: "/// ```")[0].replacingOccurrences(of: "    /// ", with: "")
        }
        let blocks =
            article.components(separatedBy: "```swift\n").dropFirst().map {
                $0.components(separatedBy: "```")[0]
            } + example
        #expect(blocks.count == 6)
        for block in blocks {
            let wanted = block.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
                !$0.isEmpty
            }
            let found = lines.indices.contains { start in
                lines[start...].prefix(wanted.count).elementsEqual(wanted)
            }
            #expect(found, "not in PublicAPITests.swift as it is: \(block)")
        }
    }

    /// A test double of the client throws an error of its own making, with
    /// every property an app reads.
    @Test func aTestDoubleMakesItsOwnError() throws {
        let url = try #require(URL(string: "https://swapi.dev/api/species/?search=wookiee"))
        let made = SpeciesError(.nothingMatched, "no species is named 'wookiee'", url: url, suggestions: ["Wookie"])
        #expect(made.kind == .nothingMatched && made.description == "no species is named 'wookiee'")
        #expect(made.url == url && made.suggestions == ["Wookie"] && made.candidates.isEmpty && made.httpStatus == nil)
        #expect(
            made == SpeciesError(.nothingMatched, "no species is named 'wookiee'", url: url, suggestions: ["Wookie"]))
        let busy = SpeciesError(.unavailable, "busy", httpStatus: 429, retryAfter: 30)
        #expect(
            busy.httpStatus == 429 && busy.retryAfter == 30
                && busy.recoverySuggestion == "Ask again after 30 s, as the service asks.")
        #expect(throws: SpeciesError.self) { throw made }
    }

    /// A transport of one's own throws a `TransportError` of a kind that can
    /// grow, with what the kind carries.
    @Test func aTransportOfOnesOwnThrowsAnErrorThatCanGrow() async throws {
        let error = await error { () throws(SpeciesError) in
            _ = try await SpeciesClient(configuration: .init(roots: [.swapi], fallback: false), transport: Refusing())
                .page()
        }
        #expect(error?.kind == .unavailable && error?.setting == .timeout, "\(String(describing: error))")
        #expect(error?.description == "https://swapi.dev/api/species/ timed out: no answer in 5 s")
    }

    /// `.url` is the URL checked, and what is sent: the root's scheme, no
    /// credentials, no backslash, the path as the service writes it.
    @Test func aURLIsAskedAsItWasChecked() async throws {
        let root = try await root()
        let client = client([root], cached: false)
        let base = root.url.absoluteString
        let host = try #require(root.url.host())
        for refused in [
            base.replacingOccurrences(of: "http://", with: "https://") + "species/3/",
            base.replacingOccurrences(of: "http://", with: "http://user:secret@") + "species/3/",
            base.replacingOccurrences(of: host, with: "\(host)\\@evil.example") + "species/3/",
            base.uppercased() + "SPECIES/3/", base + "planets/3/", base + "species/3/?x=1",
        ] {
            let query = SpeciesQuery.url(try #require(URL(string: refused) ?? URL(string: "http://x/")))
            #expect(
                await error { () throws(SpeciesError) in _ = try await client.species(query) }?.kind == .badQuestion,
                "\(refused)")
        }
        #expect(try await session.requests().isEmpty)
        let shouted = base.replacingOccurrences(of: "http://", with: "HTTP://") + "species/3/"
        let answer = try await client.species(.url(try #require(URL(string: shouted))))
        #expect(answer.value.name == "Wookie")
        #expect(try await session.requests().map { $0.hasSuffix("/api/species/3/") } == [true])
    }

    /// Issue 50, item 5: the pages of a listing in order, each whole, each
    /// from the source it names, each asked once (a copy's page 1 shows its
    /// page size, so the pages after it are asked alone), never a page past
    /// the last; progress is in the values.
    @Test func thePagesComeInOrderEachAskedOnce() async throws {
        let root = try await root()
        let client = client([root], cached: false)
        var numbers: [Int] = []
        var ids: [Int] = []
        for try await answer in client.pages() {
            #expect(answer.source == .service(root))
            #expect(answer.value.count == 37 && answer.value.pageCount == 4)
            numbers.append(answer.value.number)
            ids += answer.value.species.map(\.id)
            #expect(ids.count == min(answer.value.number * 10, answer.value.count), "species known so far")
        }
        #expect(numbers == [1, 2, 3, 4] && ids == Array(1...37))
        let asked = try await session.requests().map { $0.split(separator: "/api/").last.map(String.init) ?? $0 }
        #expect(asked == ["species/", "species/?page=2", "species/?page=3", "species/?page=4"], "\(asked)")
        // The example of pages(search:cache:), as it is.
        var rows: [StarWarsSpecies] = []
        for try await answer in client.pages(search: "an") {
            rows += answer.value.species
            print("page \(answer.value.number) of \(answer.value.pageCount): \(rows.count) of \(answer.value.count)")
        }
        let all = try await client.allSpecies(search: "an").value
        #expect(rows == all && rows.count > 10 && rows.allSatisfy { $0.name.lowercased().contains("an") })
    }

    /// A loop may stop after any page (the page on its way is cancelled);
    /// a failure ends the pages with the client's error.
    @Test func thePagesStopWithTheLoopAndEndWithAFailure() async throws {
        let client = client([try await root()], cached: false)
        for try await answer in client.pages() {
            #expect(answer.value.number == 1)
            break
        }
        let failing = self.client([try await root(fault: "later-500")], cached: false)
        var got: [Int] = []
        let failure = await error { () throws(SpeciesError) in
            for try await answer in failing.pages() { got.append(answer.value.number) }
        }
        #expect(
            got == [1] && failure?.kind == .unavailable && failure?.httpStatus == 500, "\(String(describing: failure))")
    }

    /// Cancelling the task that asks ends the answer at once, as `cancelled`.
    @Test func cancellingTheTaskIsCancelled() async throws {
        let client = client([try await root(fault: "hang")], cached: false)
        let asking = Task { () async -> SpeciesError? in
            await error { () throws(SpeciesError) in _ = try await client.allSpecies() }
        }
        _ = try await session.requests(fault: "hang", atLeast: 1)
        asking.cancel()
        #expect(await asking.value?.kind == .cancelled)
    }

    /// The cache's answer says when what it holds was fetched.
    @Test func theCacheTellsWhenItsAnswerWasFetched() async throws {
        let server = try await FixtureServer.start()
        let root = try #require(APIRoot(server.root(session: FixtureServer.newSession())))
        let before = Date()
        _ = try await client([root]).page()
        let after = Date()
        await server.stop()
        let alone = await error { () throws(SpeciesError) in _ = try await client([root]).page() }
        #expect(alone?.urlErrorCode == .cannotConnectToHost, "no stand-in unless asked (issue 50)")
        let answer = try await client([root], fallback: true).page()
        guard case .cache(let cached, let fetched) = answer.source else { return #expect(Bool(false)) }
        #expect(cached == root && fetched >= before.addingTimeInterval(-1) && fetched <= after)
        #expect("\(answer.source)".hasPrefix("the cache of 127.0.0.1:\(server.port), as fetched "))
    }

    /// The SWAPI data built in stands in for SWAPI's services only,
    /// online and offline alike.
    @Test func theBuiltInDataStandsInForSWAPIsServicesOnly() async throws {
        let copy = try await root()
        let offline = await error { () throws(SpeciesError) in _ = try await client([copy], mode: .offline).page() }
        #expect(offline?.kind == .unavailable && offline?.setting == .cacheMode, "\(String(describing: offline))")
        let swapi = try await client([.swapi], mode: .offline, fallback: true).species(.id(3))
        #expect(swapi.value.name == "Wookie" && "\(swapi.source)".hasPrefix("the SWAPI data built into SpeciesKit"))
    }

    /// The JSON tutorials' decoder gives the same species; one without
    /// its URL is no species.
    @Test func decodingLosesNoFieldWithTheTutorialsDecoder() throws {
        let body = try Fixtures.data("swapi/species-3.json")
        let snakeCase = JSONDecoder()
        snakeCase.keyDecodingStrategy = .convertFromSnakeCase
        let plain = try JSONDecoder().decode(StarWarsSpecies.Decoded.self, from: body)
        let tutorial = try snakeCase.decode(StarWarsSpecies.Decoded.self, from: body)
        #expect(tutorial.species == plain.species && tutorial.invalidFields.isEmpty)
        #expect(plain.species.averageHeight == 210 && plain.species.skinColors == ["gray"])
        #expect(throws: DecodingError.self) {
            _ = try JSONDecoder().decode(StarWarsSpecies.self, from: Data(#"{"name":"Ewok"}"#.utf8))
        }
    }

    /// Values print in a user's words.
    @Test func valuesPrintInAUsersWords() throws {
        #expect("\(APIRoot.swapi)" == "https://swapi.dev/api/")
        #expect("\(SpeciesQuery.name("Wookie"))" == "'Wookie'" && "\(SpeciesQuery.id(3))" == "species 3")
        #expect(
            "\(AnswerSource.builtInData(recorded: "2026-11-21"))"
                == "the SWAPI data built into SpeciesKit, recorded 2026-11-21")
        #expect("\(SpeciesError.Kind.nothingMatched)" == "nothing matched")
    }

    // MARK: Issue 42: callers share answers

    /// A client of one root that answers each request 0.3 s late, so that
    /// calls made at once overlap, keeping answers for a day.
    private func sharing(_ root: APIRoot) -> SpeciesClient {
        SpeciesClient(configuration: .init(roots: [root], timeout: 120, retries: 0))
    }

    /// Ten callers that ask the same at once cost one call's requests, and
    /// asking again costs nothing: the answer is kept.
    @Test func tenCallersAtOnceCostOneCallsRequests() async throws {
        let single = ServerSession()
        _ = try await sharing(try #require(APIRoot(try await single.root(delay: 300)))).allSpecies()
        let oneCall = try await single.requests(delay: 300).count
        #expect(oneCall == 4, "the page plan: pages 1 to 4 at once")
        let root = try #require(APIRoot(try await session.root(delay: 300)))
        let client = sharing(root)
        let answers = try await withThrowingTaskGroup(of: Answer<[StarWarsSpecies]>.self) { group in
            for _ in 0..<10 { group.addTask { try await client.allSpecies() } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(answers.count == 10 && answers.allSatisfy { $0.value.count == 37 && $0.source == .service(root) })
        #expect(try await session.requests(delay: 300).count == oneCall)
        let again = try await client.allSpecies()
        #expect(again.value == answers[0].value && again.source == .service(root))
        #expect(try await session.requests(delay: 300).count == oneCall, "twice in a row costs once")
        _ = try await client.page(2)
        #expect(
            try await session.requests(delay: 300).count == oneCall + 2,
            "another question is asked: page 2, with page 1, which says a copy's page size")
    }

    /// What the cache policy says of an answer holds for one kept: no
    /// maximum age keeps none, and a refresh asks again.
    @Test func aKeptAnswerKeepsToTheCachePolicy() async throws {
        let root = try #require(APIRoot(try await session.root()))
        for policy in [CachePolicy(directory: nil, maxAge: 0), CachePolicy(directory: folder, mode: .refresh)] {
            let client = SpeciesClient(configuration: .init(roots: [root], timeout: 120, cache: policy))
            let before = try await session.requests().count
            _ = try await client.page()
            _ = try await client.page()
            #expect(try await session.requests().count == before + 2, "\(policy)")
        }
    }

    /// Of two callers of one question, the one cancelled stops waiting at
    /// once; the fetch goes on for the other, which gets the answer.
    @Test func aCancelledCallerStopsWaitingAndTheOtherIsAnswered() async throws {
        let root = try #require(APIRoot(try await session.root(delay: 1000)))
        let client = sharing(root)
        let cancelled = Task { await error { () throws(SpeciesError) in _ = try await client.species(.id(3)) } }
        let answered = Task { try await client.species(.id(3)) }
        _ = try await session.requests(delay: 1000, atLeast: 1)
        cancelled.cancel()
        #expect(await cancelled.value?.kind == .cancelled)
        let wookie = try await answered.value
        #expect(wookie.value.name == "Wookie")
        #expect(try await session.requests(delay: 1000).count == 1, "one fetch, not stopped by the cancelled caller")
    }

    /// Issue 48: a view that appears and disappears fifty times (a task
    /// that asks, cancelled at once) costs one fetch: the fetch outlives its
    /// last caller, the next joins it, and the next appearance answers.
    @Test func aViewThatAppearsAndDisappearsFiftyTimesCostsOneFetch() async throws {
        let root = try #require(APIRoot(try await session.root(delay: 300)))
        let client = sharing(root)
        for appearance in 0..<50 {
            let view = Task { try await client.allSpecies() }
            if appearance == 0 { _ = try await session.requests(delay: 300, atLeast: 1) }
            view.cancel()
            _ = await view.result
        }
        let shown = try await client.allSpecies()
        #expect(shown.value.count == 37 && shown.source == .service(root))
        #expect(try await session.requests(delay: 300).count <= 8, "at most two fetches")
    }

    /// Issue 48: a service found down is asked again by the same client
    /// when nothing else can answer, and answers once it is back.
    @Test func aServiceFoundDownIsAskedAgainWhenNothingElseCanAnswer() async throws {
        // Its first request hangs, the others are answered.
        let root = try #require(APIRoot(try await session.root(fault: "hang", faulty: 1)))
        // 10 s: time for a busy machine to send the first request before
        // the clock runs out (the hang then proves the service down).
        let client = SpeciesClient(configuration: .init(roots: [root], timeout: 10, retries: 0))
        let asked = Task { await error { () throws(SpeciesError) in _ = try await client.species(.id(3)) } }
        _ = try await session.requests(fault: "hang", faulty: 1, atLeast: 1)
        let down = await asked.value
        #expect(down?.kind == .unavailable && down?.setting == .timeout, "\(String(describing: down))")
        #expect(try await client.species(.id(3)).value.name == "Wookie")
    }

    /// Issue 50: a pull-to-refresh asks the network on the same client, and
    /// every later call gets the new answer; `invalidate()` drops what is
    /// kept; `.offline` answers from what is kept alone.
    @Test func aCallAsksInItsOwnCacheMode() async throws {
        let root = try await root()
        let client = SpeciesClient(configuration: .init(roots: [root], timeout: 120, retries: 0))
        _ = try await client.species(.id(3))
        _ = try await client.species(.id(3))
        #expect(try await session.requests().count == 1, "kept")
        let fresh = try await client.species(.id(3), cache: .refresh)
        #expect(fresh.value.name == "Wookie" && fresh.source == .service(root))
        _ = try await client.species(.id(3))
        #expect(try await session.requests().count == 2, "the refresh asked, and replaced what is kept")
        client.invalidate()
        _ = try await client.species(.id(3))
        #expect(try await session.requests().count == 3, "invalidated")
        #expect(try await client.species(.id(3), cache: .offline).source == .service(root))
        let never = await error { () throws(SpeciesError) in _ = try await client.species(.id(5), cache: .offline) }
        #expect(never?.kind == .unavailable && never?.setting == .cacheMode, "\(String(describing: never))")
        #expect(try await session.requests().count == 3)
    }

    /// Issue 50: a memory lifetime apart from the disk's `maxAge`.
    @Test func whatIsKeptInMemoryLivesItsOwnTime() async throws {
        let root = try await root()
        let policy = CachePolicy(directory: nil, maxAge: 3600, memoryLifetime: 0)
        let client = SpeciesClient(configuration: .init(roots: [root], timeout: 120, retries: 0, cache: policy))
        _ = try await client.species(.id(3))
        _ = try await client.species(.id(3))
        #expect(try await session.requests().count == 2, "nothing kept")
        let bad = CachePolicy(directory: nil, memoryLifetime: -1)
        let refused = await error { () throws(SpeciesError) in
            _ = try await SpeciesClient(configuration: .init(roots: [root], cache: bad)).species(.id(3))
        }
        #expect(refused?.kind == .badQuestion && refused?.setting == .memoryLifetime)
    }

    /// Issue 50: nothing stands in unless asked; the transport's code tells
    /// a refused connection from an unknown host; each kind has its own
    /// `NSError` code; answers' sources are `Hashable`.
    @Test func anAppTellsOfflineFromDown() async throws {
        #expect(SpeciesClient.Configuration().fallback == false)
        let refusing = try #require(APIRoot("http://127.0.0.1:1/api/"))
        let client = SpeciesClient(configuration: .init(roots: [refusing], timeout: 30, retries: 0))
        let refused = await error { () throws(SpeciesError) in _ = try await client.species(.id(3)) }
        #expect(
            refused?.kind == .unavailable && refused?.urlErrorCode == .cannotConnectToHost,
            "\(String(describing: refused))")
        let unknown = try #require(APIRoot("http://species-test.invalid/api/"))
        let lookup = await error { () throws(SpeciesError) in
            _ = try await SpeciesClient(configuration: .init(roots: [unknown], timeout: 30, retries: 0)).species(.id(3))
        }
        #expect(lookup?.urlErrorCode == .cannotFindHost, "\(String(describing: lookup))")
        let slow = await error { () throws(SpeciesError) in
            _ = try await SpeciesClient(configuration: .init(roots: [.swapi]), transport: Refusing()).species(.id(3))
        }
        #expect(slow?.urlErrorCode == .timedOut)
        let codes = [
            SpeciesError.Kind.nothingMatched, .ambiguousName, .badQuestion, .badAnswer, .unavailable, .cancelled,
        ]
        .map { (SpeciesError($0, "x") as NSError).code }
        #expect(codes == [1, 2, 3, 4, 5, 6])
        #expect((refused as NSError?)?.domain == "SpeciesKit.SpeciesError")
        #expect(((refused as NSError?)?.userInfo[NSUnderlyingErrorKey] as? URLError)?.code == .cannotConnectToHost)
        #expect(Set([AnswerSource.service(refusing), .service(refusing), .unasked]).count == 2)
    }

    /// Two questions at once: each its own answer.
    @Test func twoQuestionsAtOnceAreEachTheirOwn() async throws {
        let root = try #require(APIRoot(try await session.root(delay: 300)))
        let client = sharing(root)
        async let wookie = client.species(.id(3))
        async let hutt = client.species(.name("hutt"))
        let (three, five) = try await (wookie, hutt)
        #expect(three.value.name == "Wookie" && five.value.name == "Hutt")
    }

    /// A `Task` carries the typed error as its value, as the getting-started
    /// article shows: with nothing else to catch.
    @Test func aTaskCarriesTheTypedError() async throws {
        let client = client([try await root()], cached: false)
        let task = Task { () async -> Result<StarWarsSpecies, SpeciesError> in
            do throws(SpeciesError) {
                return .success(try await client.species(.id(99)).value)
            } catch {
                return .failure(error)
            }
        }
        guard case .failure(let failure) = await task.value else { return #expect(Bool(false)) }
        #expect(failure.kind == .nothingMatched && failure.url?.path.hasSuffix("/species/99") == true)
    }
}

/// What an app says of an error (docc/HandlingErrors.md).
func message(for error: SpeciesError) -> String {
    switch error.kind {
    case .ambiguousName:
        return "Which one? " + error.candidates.joined(separator: ", ")
    case .nothingMatched where !error.suggestions.isEmpty:
        return "Did you mean \(error.suggestions[0])?"
    case .unavailable where error.retryAfter != nil:
        return "The service is busy; ask again in \(Int(error.retryAfter ?? 0)) s."
    default:
        return error.localizedDescription + " " + (error.recoverySuggestion ?? "")
    }
}

/// A transport that times out at once, as one of an app's own would.
private struct Refusing: HTTPTransport {
    func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        throw TransportError(.timedOut, url: request.url, detail: "no answer in 5 s", seconds: 5)
    }
}
