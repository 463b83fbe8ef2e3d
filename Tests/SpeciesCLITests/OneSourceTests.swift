import Foundation
import Testing
import TestSupport

@testable import species

/// Issue 22: what a command prints is wholly one source's: one service, its
/// cache, or the data built into species (docs/cli.md, "One answer, one
/// source"). Two services of a server of this suite's own: the first fails
/// in one way, the second answers.
@Suite("One answer, one source")
struct OneSourceTests {
    /// A server of this suite's own: the first service has 3 s to begin each
    /// answer, and the shared server may be busy with another test's huge page.
    static let server = Task { try await FixtureServer.start() }
    let session = ServerSession(on: OneSourceTests.server)
    let cacheHome = Fixtures.temporaryFolder("one-source")

    /// `127.0.0.1:PORT/tXXXX/fault=F/api/`: how a notice names a service of a
    /// list whose services share a host.
    private static func name(_ root: String) -> String {
        root.replacingOccurrences(of: "http://", with: "")
    }

    private static func objects(_ json: String) throws -> [[String: Any]] {
        try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
    }

    private static func lines(_ jsonl: String) throws -> [[String: Any]] {
        try jsonl.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    /// Without the cache, unless `cached`.
    private func run(_ arguments: [String], cached: Bool = false) async throws -> ProcessResult {
        try await SpeciesRunner(options: cached ? [] : ["--no-cache"], cacheHome: cacheHome)(arguments)
    }

    // MARK: 1-3. A listing is wholly one service's

    /// Every way a service can fail after its first page, at once and one
    /// page at a time, to JSON and to JSON lines: the listing is the second
    /// service's, whole, within 6 s, and the notice names what was dropped.
    @Test(arguments: ["later-500", "later-drop", "later-hang", "later-html", "later-pages-tech"], [[], ["--serial"]])
    func aServiceThatFailsAfterPageOneGivesWayToOneThatAnswersItAll(fault: String, serial: [String]) async throws {
        let failing = try await session.root(fault: fault), answering = try await session.root()
        for format in ["--json", "--jsonl"] {
            let result = try await run(
                [
                    "-v", "--timeout", "15", "--base-url", failing, "--base-url", answering, "list", "--all-pages",
                    format,
                ]
                    + serial)
            #expect(result.status == 0, "\(result)")
            let species = format == "--json" ? try Self.objects(result.stdout) : try Self.lines(result.stdout)
            #expect(species.count == 37)
            #expect(species.allSatisfy { ($0["url"] as? String)?.hasPrefix(answering) == true }, "\(result)")
            #expect(try #require(result.ownSeconds) < 6, "\(result)")
            let notice = try #require(result.messages.split(separator: "\n").last)
            #expect(notice.hasPrefix("note: \(Self.name(failing)) did not answer in full ("), "\(result)")
            #expect(
                notice.hasSuffix(", after 1 page, which is dropped); answered by \(Self.name(answering))"), "\(result)")
            #expect(result.messages.split(separator: "\n").count == 1, "\(result)")
        }
    }

    @Test func aSearchAcrossPagesIsOneServicesToo() async throws {
        let failing = try await session.root(fault: "later-500"), answering = try await session.root()
        let result = try await run([
            "--base-url", failing, "--base-url", answering, "list", "--search", "an", "--all-pages", "--jsonl",
        ])
        #expect(result.status == 0, "\(result)")
        let species = try Self.lines(result.stdout)
        #expect(species.count == 17 && species.allSatisfy { ($0["url"] as? String)?.hasPrefix(answering) == true })
        #expect(
            result.stderr
                == "note: \(Self.name(failing)) did not answer in full (HTTP 500 Internal Server Error, after 1 page, which is dropped); answered by \(Self.name(answering))\n"
        )
    }

    /// `--verbose` shows the pages that were dropped.
    @Test func verboseShowsTheDroppedPages() async throws {
        let failing = try await session.root(fault: "later-500"), answering = try await session.root()
        let result = try await run([
            "-v", "--serial", "--base-url", failing, "--base-url", answering, "list", "--all-pages", "--json",
        ])
        #expect(result.status == 0)
        #expect(
            result.stderr.contains(
                "\nverbose: dropping what \(Self.name(failing)) sent: \(failing)species/ (10 species)\n"),
            "\(result.stderr)")
    }

    /// Alone, a service that fails part way prints nothing, whatever the
    /// format: the JSON lines are held until the listing is whole.
    @Test(arguments: ["--json", "--jsonl", "--format=table"])
    func aServiceAloneThatFailsPartWayPrintsNothing(format: String) async throws {
        let failing = try await session.root(fault: "later-500")
        let result = try await run(["--retries", "0", "--base-url", failing, "list", "--all-pages", format])
        #expect(result.status == 69 && result.stdout == "", "\(result)")
        #expect(
            result.stderr
                == "error: \(failing)species/?page=2 answered HTTP 500 Internal Server Error; the cache holds no answer from \(Self.name(failing).split(separator: "/")[0])\n",
            "\(result)")
    }

    /// The healthy path of the JSON lines: every species, in API order.
    @Test func jsonLinesOfAHealthyServiceAreEveryOne() async throws {
        let result = try await run([
            "--base-url", try await session.root(), "list", "--all-pages", "--jsonl", "--limit", "25",
        ])
        #expect(result.status == 0 && result.stderr == "", "\(result)")
        #expect(try Self.lines(result.stdout).map { $0["id"] as? Int } == Array(1...25))
    }

    /// `show --related`: the species and every name behind its links come
    /// from the service that answers them all.
    @Test func showRelatedIsOneServicesAnswer() async throws {
        let failing = try await session.root(fault: "person-500"), answering = try await session.root()
        let result = try await run([
            "--base-url", failing, "--base-url", answering, "show", "wookie", "--related", "--json",
        ])
        #expect(result.status == 0, "\(result)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect((object["url"] as? String) == answering + "species/3/")
        let related = try #require(object["related"] as? [String: Any])
        #expect(related["people"] as? [String] == ["Chewbacca", "Tarfful"])
        #expect(
            result.stderr
                == "note: \(Self.name(failing)) did not answer in full (HTTP 500 Internal Server Error, after 1 page, which is dropped); answered by \(Self.name(answering))\n"
        )
    }

    /// A name is looked up, and the closest names suggested, from one service.
    @Test func aNameAndItsSuggestionsAreOneServices() async throws {
        let failing = try await session.root(fault: "later-500"), answering = try await session.root()
        let result = try await run(["--base-url", failing, "--base-url", answering, "show", "wookiee"])
        #expect(result.status == 1, "\(result)")
        #expect(
            result.stderr.hasSuffix(
                "; answered by \(Self.name(answering))\nerror: no species is named 'wookiee'; did you mean 'Wookie'?\n"),
            "\(result)")
        #expect(
            try await session.requests().contains { $0.hasSuffix("species/?page=4") },
            "the suggestions are the second service's")
    }

    // MARK: 4. Every way of not being SWAPI gives way

    @Test(arguments: [
        ("404-json", "its species list answered HTTP 404 Not Found"),
        ("404-html", "its species list answered HTTP 404 Not Found"),
        ("401", "it answered HTTP 401 Unauthorized"), ("403", "it answered HTTP 403 Forbidden"),
        ("empty-list", "its species list is empty"), ("drip", "its answer came at less than 1 KiB/s for 3 s"),
    ])
    func aServiceThatIsNotSWAPIGivesWayAndIsNotRemembered(fault: String, cause: String) async throws {
        let failing = try await session.root(fault: fault), answering = try await session.root()
        // At the default timeout, a followed service has 3 s to begin; the
        // last is not followed without a fallback, so no test depends on a
        // local server keeping a pace.
        let list = try await run(
            ["-v", "--timeout", "15", "--no-fallback", "--base-url", failing, "--base-url", answering, "list"],
            cached: true)
        #expect(try list.status == 0 && list.stdout == (Fixtures.text("golden/list/page-1.txt")), "\(list)")
        #expect(try #require(list.ownSeconds) < 6, "\(list)")
        #expect(
            list.messages
                == "note: \(Self.name(failing)) did not answer (\(cause)); answered by \(Self.name(answering))\n")
        let info = try await SpeciesRunner()(["cache", "info"], environment: ["XDG_CACHE_HOME": cacheHome.path])
        #expect(
            info.stdout.contains("\nentries: 1, ") && info.stdout.contains("\nanswering: \(answering) since "),
            "\(info.stdout)")
        // A service whose list is empty may still serve species 3.
        guard fault != "empty-list" else { return }
        let show = try await run(
            ["--timeout", "15", "--no-fallback", "--base-url", failing, "--base-url", answering, "show", "3"])
        #expect(try show.status == 0 && show.stdout == (Fixtures.text("golden/show/3.txt")), "\(show)")
        #expect(
            show.stderr
                == "note: \(Self.name(failing)) did not answer (\(cause)); answered by \(Self.name(answering))\n",
            "\(show)")
    }

    @Test(arguments: ["404-json", "404-html"])
    func aServiceWhoseListIsMissingHasNoSpeciesEither(fault: String) async throws {
        let failing = try await session.root(fault: fault), answering = try await session.root()
        let result = try await run(["--base-url", failing, "--base-url", answering, "show", "3"])
        #expect(try result.status == 0 && result.stdout == (Fixtures.text("golden/show/3.txt")), "\(result)")
        #expect(
            result.stderr
                == "note: \(Self.name(failing)) did not answer (its species list answered HTTP 404 Not Found); answered by \(Self.name(answering))\n"
        )
    }

    /// SWAPI's own 404 for one species or page is an answer: the next
    /// service is not waited for. (It may be asked beside the first, when
    /// the first has not answered within the attempt delay on a busy
    /// machine, but it hangs, and no answer waits for it.)
    @Test func swapisOwn404IsAnAnswer() async throws {
        let first = try await session.root(), next = try await session.root(fault: "hang")
        let species = try await run(["-v", "--base-url", first, "--base-url", next, "show", "99"])
        #expect(species.status == 1 && species.stdout == "", "\(species)")
        #expect(species.messages == "error: species 99 does not exist (\(first)species/99/ answered 404 Not Found)\n")
        let page = try await run(["-v", "--base-url", first, "--base-url", next, "list", "--page", "9"])
        #expect(page.status == 1 && page.messages == "error: page 9 does not exist; there are 4 pages\n", "\(page)")
        // A wait for the next would last the whole timeout of the runner: 120 s.
        #expect(try #require(species.ownSeconds) < 60 && (try #require(page.ownSeconds)) < 60, "not waited for")
    }

    /// When the deadline of `--timeout` has passed, the services not asked are
    /// not named: the timeout ends before the next would be asked beside
    /// the first (0.25 s).
    @Test func aMessageNamesOnlyTheServicesAsked() async throws {
        let slow = try await session.root(delay: 2500), never = try await session.root(fault: "hang")
        let result = try await run([
            "--no-fallback", "--timeout", "0.2", "--base-url", slow, "--base-url", never, "list",
        ])
        #expect(result.status == 69, "\(result)")
        #expect(
            result.stderr
                == "error: \(slow)species/ timed out: no complete answer before the 0.2 s timeout ran out (--timeout)\n"
        )
        #expect(try await session.requests(fault: "hang").isEmpty)
    }

    // MARK: 5. Certificates

    @Test(arguments: SpeciesBuild.allCases, ["SSL_CERT_FILE", "CURL_CA_BUNDLE", "SSL_CERT_DIR"])
    func aCertificateVariableThatNamesAFIFOIsRefusedAtOnce(build: SpeciesBuild, variable: String) async throws {
        let fifo = Fixtures.temporaryFolder("fifo")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        let result = try await SpeciesRunner(build: build)(
            ["-v", "--no-cache", "--base-url", "https://127.0.0.1:\(SelfCheckCommand.closedPort() ?? 9)/api/", "list"],
            environment: ["SSL_CERT_FILE": "", "CURL_CA_BUNDLE": "", "SSL_CERT_DIR": ""].merging([variable: fifo.path])
            { $1 })
        #expect(result.status == 64 && result.stdout == "", "\(result)")
        let kind = variable == "SSL_CERT_DIR" ? "a folder" : "a file"
        #expect(result.messages == "error: \(variable) names \(fifo.path), a FIFO, not \(kind) of certificates\n")
        #expect(try #require(result.ownSeconds) < 1, "\(result)")
    }

    // MARK: 6. The cache and the service memory

    @Test func whatAServiceSentBeforeItFailedIsNotCached() async throws {
        let failing = try await session.root(fault: "later-500"), answering = try await session.root()
        let result = try await run(
            ["--base-url", failing, "--base-url", answering, "list", "--all-pages"], cached: true)
        #expect(result.status == 0)
        let info = try await SpeciesRunner()(["cache", "info"], environment: ["XDG_CACHE_HOME": cacheHome.path])
        #expect(info.stdout.contains("\nentries: 4, "), "B's four pages, none of A's: \(info.stdout)")
        #expect(info.stdout.contains("\nanswering: \(answering) since "), "\(info.stdout)")
        let offline = try await run(["--offline", "-v", "--base-url", failing, "list"], cached: true)
        #expect(!offline.stderr.contains("from the cache"), "\(offline.stderr)")
    }

    // MARK: 7. Pages that shift

    /// A species that comes twice leaves a listing that is not whole: the
    /// next service answers it, or, alone, nothing is printed.
    @Test func pagesThatShiftAreNoAnswer() async throws {
        let shifting = try await session.root(fault: "shifting"), answering = try await session.root()
        let result = try await run([
            "--serial", "--base-url", shifting, "--base-url", answering, "list", "--all-pages", "--format", "tsv",
        ])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.split(separator: "\n").count == 38)
        #expect(
            result.stderr
                == "note: \(Self.name(shifting)) did not answer in full (\(shifting)species/?page=2 is not whole: it holds "
                + "'Sullustan' again: the pages changed while they were read, after 1 page, which is dropped); "
                + "answered by \(Self.name(answering))\n")
        let alone = try await run(["--serial", "--base-url", shifting, "list", "--all-pages"])
        #expect(alone.status == 65 && alone.stdout == "", "\(alone)")
        #expect(alone.stderr.hasPrefix("error: \(shifting)species/?page=2 is not whole: it holds "), "\(alone)")
    }

    // MARK: 8. Whole by one rule, on every path

    /// The installed species, with its own cache: the first service at
    /// fault, the second healthy; then the first alone.
    private func installed(_ arguments: [String]) async throws -> ProcessResult {
        try await SpeciesRunner(cacheHome: cacheHome, build: .installed)(arguments)
    }

    /// The ids `path` prints as JSON, from the first service that answers
    /// whole; swapi.dev's shape names it in every URL.
    private func ids(_ path: [String], first: String, second: String) async throws -> [Int] {
        let result = try await installed(["--base-url", "\(first) \(second)"] + path + ["--json"])
        #expect(result.status == 0, "\(path): \(result)")
        let species = try Self.objects(result.stdout)
        if !second.contains("dialect=") {
            #expect(species.allSatisfy { ($0["url"] as? String)?.hasPrefix(second) == true }, "\(path)")
        }
        return species.compactMap { $0["id"] as? Int }
    }

    /// Case 1: pages whose count is missing, null, a string, negative or
    /// past any number, in swapi.dev's shape and swapi.tech's.
    @Test(arguments: ["count-missing", "count-null", "count-string", "count-negative", "count-huge"], ["drf", "tech"])
    func pagesWithoutAUsableCountAreNoAnswer(fault: String, dialect: String) async throws {
        let first = try await session.root(fault: fault, dialect: dialect)
        let second = try await session.root(dialect: dialect)
        #expect(try await ids(["list", "--all-pages"], first: first, second: second) == Array(1...37))
        #expect(try await ids(["list", "--page", "2"], first: first, second: second) == Array(11...20))
        #expect(try await ids(["list", "--limit", "22"], first: first, second: second) == Array(1...22))
        let key = dialect == "tech" ? "total_records" : "count"
        for path in [["--all-pages"], ["--page", "2"], ["--limit", "22"]] {
            let alone = try await installed(["--base-url", first, "list"] + path)
            #expect(alone.status == 65 && alone.stdout == "", "\(path): \(alone)")
            #expect(alone.stderr.contains(" did not answer with SWAPI JSON: '\(key)' "), "\(alone.stderr)")
        }
        let offline = try await installed(["--offline", "-v", "--base-url", first, "list", "--all-pages"])
        #expect(!offline.stderr.contains("from the cache"), "nothing of the first is kept: \(offline.stderr)")
    }

    /// Cases 3 and 4: page 2 one species short, still linking on. `--limit`
    /// and `--page` read it, find it short, and the second service answers;
    /// alone, nothing is printed, and the page is named.
    @Test func aShortPageIsNoAnswerForLimitOrPage() async throws {
        let first = try await session.root(fault: "short-page-2"), second = try await session.root()
        #expect(try await ids(["list", "--limit", "22"], first: first, second: second) == Array(1...22))
        #expect(try await ids(["list", "--page", "2"], first: first, second: second) == Array(11...20))
        // The table too; the second service, remembered, answers at once.
        let table = try await installed(["--base-url", "\(first) \(second)", "list", "--page", "2", "--fields", "name"])
        #expect(table.status == 0 && table.stdout.hasPrefix("NAME\nNeimodian\n") && table.stderr == "", "\(table)")
        for path in [["--limit", "22"], ["--page", "2"], ["--all-pages"]] {
            let alone = try await installed(["--base-url", first, "list"] + path)
            #expect(alone.status == 65 && alone.stdout == "", "\(path): \(alone)")
            #expect(
                alone.stderr.hasPrefix(
                    "error: \(first)species/?page=2 is not whole: it holds 9 species, where its place in the listing takes 10"
                ), "\(alone.stderr)")
        }
        let offline = try await installed(["--offline", "-v", "--base-url", first, "list", "--page", "2"])
        let lines = offline.stderr.split(separator: "\n")
        #expect(
            offline.status == 69
                && lines.dropLast().last?.hasSuffix(" is not in the cache, and the client is offline (--offline)")
                    == true
                && lines.last?.hasPrefix("verbose: done after ") == true,
            "nothing of it is kept, and the run's time is said last: \(offline)")
    }

    /// Before: page 2 empty printed 10 of 37 species, exit 0, and cached
    /// them. Now the next service answers the whole listing; alone, the
    /// service's listing is no answer.
    @Test func aListingShortOfItsCountGivesWayAndIsNotCached() async throws {
        let short = try await session.root(fault: "later-empty"), answering = try await session.root()
        let cache = Fixtures.temporaryFolder("short")
        let result = try await SpeciesRunner(cacheHome: cache, build: .installed)([
            "--base-url", "\(short) \(answering)", "list", "--all-pages", "--json",
        ])
        #expect(result.status == 0, "\(result)")
        let species = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        #expect(species.count == 37 && species.allSatisfy { ($0["url"] as? String)?.hasPrefix(answering) == true })
        let name = { (root: String) in root.replacingOccurrences(of: "http://", with: "") }
        #expect(
            result.stderr
                == "note: \(name(short)) did not answer in full (\(short)species/?page=2 is not whole: it counts 0 species, "
                + "where page 1 counted 37, after 1 page, which is dropped); answered by \(name(answering))\n")
        let offline = try await SpeciesRunner(cacheHome: cache, build: .installed)([
            "--offline", "-v", "--base-url", short, "list",
        ])
        #expect(!offline.stderr.contains("from the cache"), "nothing of the short listing is cached: \(offline)")

        let alone = try await SpeciesRunner(options: ["--no-cache"], fallback: false, build: .installed)([
            "--base-url", short, "list", "--all-pages",
        ])
        #expect(alone.status == 65 && alone.stdout == "", "\(alone)")
        #expect(
            alone.stderr
                == "error: \(short)species/?page=2 is not whole: it counts 0 species, where page 1 counted 37\n")
    }
}
