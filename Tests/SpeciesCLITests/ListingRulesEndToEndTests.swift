import Foundation
import Testing
import TestSupport

/// Issue 37, end to end through the installed build: what a listing of a
/// service is (docs/cli.md, "What is whole"). Two services asked in turn,
/// the first at fault: the second's whole answer, with one notice, exit 0;
/// the first alone: nothing on stdout, one error line naming the page and
/// the rule, exit 65. In each form where the fault applies.
@Suite("What a listing is, end to end")
struct ListingRulesEndToEndTests {
    /// A server of this suite's own: the first service has 3 s to begin each
    /// answer, and the shared server may be busy with another test's huge page.
    static let server = Task { try await FixtureServer.start() }
    let session = ServerSession(on: ListingRulesEndToEndTests.server)
    let cacheHome = Fixtures.temporaryFolder("listing-rules")

    private func installed(_ arguments: [String], cacheHome: URL? = nil) async throws -> ProcessResult {
        try await SpeciesRunner(cacheHome: cacheHome ?? self.cacheHome, build: .installed)(arguments)
    }

    /// `127.0.0.1:PORT/tXXXX/fault=F/api/`: a service of a list whose
    /// services share a host.
    private static func name(_ root: String) -> String {
        root.replacingOccurrences(of: "http://", with: "")
    }

    /// Two services in turn. With nothing to stand in after it, the second
    /// has the whole timeout, not the pace of a service that others follow:
    /// this suite's server may be slow to begin an answer on a busy machine.
    private static func inTurn(_ first: String, _ second: String) -> [String] {
        ["--no-fallback", "--base-url", "\(first) \(second)"]
    }

    /// The first at fault, then the second: every species, the second's; and
    /// the first alone: exit 65 and its one error line. The cache, of its
    /// own, remembers which answered.
    @discardableResult
    private func expectTheSecondAnswers(
        _ fault: String, dialect: String = "drf", arguments: [String] = ["list", "--all-pages"], alone error: String
    ) async throws -> URL {
        let first = try await session.root(fault: fault, dialect: dialect)
        let second = try await session.root(dialect: dialect)
        let cache = Fixtures.temporaryFolder("listing-rules")
        let both = try await installed(
            Self.inTurn(first, second) + arguments + ["--json"], cacheHome: cache)
        #expect(both.status == 0, "\(fault), \(dialect): \(both)")
        let species = try #require(try JSONSerialization.jsonObject(with: Data(both.stdout.utf8)) as? [[String: Any]])
        #expect(species.compactMap { $0["id"] as? Int } == Array(1...37), "\(fault), \(dialect)")
        let notice = both.stderr.split(separator: "\n")
        #expect(notice.count == 1 && notice[0].hasSuffix("; answered by \(Self.name(second))"), "\(both.stderr)")
        let alone = try await installed(["--no-fallback", "--base-url", first] + arguments, cacheHome: cache)
        #expect(alone.status == 65 && alone.stdout == "", "\(fault), \(dialect): \(alone)")
        #expect(alone.stderr.hasPrefix("error: \(first)\(error)"), "\(fault), \(dialect): \(alone.stderr)")
        #expect(alone.stderr.split(separator: "\n").count == 1, "\(alone.stderr)")
        return cache
    }

    /// The page of each form that holds the first species of page 2.
    private static func page2(_ dialect: String) -> String {
        switch dialect {
        case "tech": "species?page=2&limit=10&expanded=true"
        case "info": "species/"
        default: "species/?page=2"
        }
    }

    /// Case 1: an element that is no species: `{}`, a null name, a planet's
    /// URL, a person under a species' URL (issue 43).
    @Test(
        arguments: ["element-empty", "element-nameless", "element-planet", "element-person"], ["drf", "tech", "info"])
    func anElementThatIsNoSpeciesGivesWay(fault: String, dialect: String) async throws {
        let element =
            switch (fault, dialect) {
            // An object under a planet's URL is no species object: it is named by its place.
            case ("element-nameless", "drf"): "at \(try await session.root(fault: fault))species/11/"
            case ("element-nameless", "tech"): "at https://www.swapi.tech/api/species/11"
            case ("element-nameless", _): "at https://swapi.info/api/species/11"
            case (_, "info"): "[10]"
            default: "results[0]"
            }
        try await expectTheSecondAnswers(
            fault, dialect: dialect,
            alone:
                "\(Self.page2(dialect)) is not whole: \(element) is not a species of this service (an object of a species' kind, with a name and its species URL)\n"
        )
    }

    /// Case 5: swapi.info's array with a null element.
    @Test func aNullInSwapiInfosArrayGivesWay() async throws {
        try await expectTheSecondAnswers(
            "element-null", dialect: "info", alone: "species/ is not whole: [10] is not a species of this service")
    }

    /// Case 2: species 1 again on page 2, its URL spelled another way.
    @Test(arguments: ["drf", "tech", "info"])
    func oneSpeciesTwiceGivesWayHoweverItsURLIsSpelled(dialect: String) async throws {
        try await expectTheSecondAnswers(
            "element-again", dialect: dialect,
            alone: "\(Self.page2(dialect)) is not whole: it holds 'Again' again: the pages changed while they were read"
        )
    }

    /// Issue 43: one name under two URLs, in every form.
    @Test(arguments: ["drf", "tech", "info"])
    func oneNameTwiceGivesWay(dialect: String) async throws {
        try await expectTheSecondAnswers(
            "element-named-again", dialect: dialect,
            alone:
                "\(Self.page2(dialect)) is not whole: a second species is named 'Human', where a listing names each once"
        )
    }

    /// Issue 49: a vehicle's fields beside a species' make no species, in
    /// every dialect.
    @Test(arguments: ["drf", "tech", "info"])
    func aVehicleUnderASpeciesURLGivesWay(dialect: String) async throws {
        let element = dialect == "info" ? "[10]" : "results[0]"
        try await expectTheSecondAnswers(
            "element-vehicle", dialect: dialect,
            alone:
                "\(Self.page2(dialect)) is not whole: \(element) is not a species of this service (an object of a species' kind, with a name and its species URL)\n"
        )
    }

    /// Issue 49: two names that `show` cannot tell apart are one name.
    @Test(arguments: [("element-named-upper", "'HUMAN'"), ("element-named-nbsp", "'Yoda's\u{a0}species'")])
    func namesShowCannotTellApartGiveWay(fault: String, name: String) async throws {
        try await expectTheSecondAnswers(
            fault,
            alone: "species/?page=2 is not whole: a second species is named \(name), where a listing names each once")
    }

    /// Issue 49: a root with a percent-escape is a root like any other.
    @Test func aRootWithAPercentEscapeAnswers() async throws {
        let root = try await session.root()
        let escaped = root.replacingOccurrences(of: "/api/", with: "/my%20api/")
        let result = try await installed(["--no-fallback", "--base-url", escaped, "list", "--jsonl"])
        #expect(result.status == 0 && result.stdout.split(separator: "\n").count == 10, "\(result)")
    }

    /// Issue 43: a copy of swapi.dev in pages of its own size, or keeping
    /// swapi.dev's species URLs, answers whole on its own.
    @Test(arguments: ["pages-of-5", "pages-of-20", "public-urls"])
    func aCopyThatKeepsToItsOwnPagesAnswersWhole(fault: String) async throws {
        let copy = try await session.root(fault: fault)
        let result = try await installed(["--no-fallback", "--base-url", copy, "list", "--all-pages", "--json"])
        #expect(result.status == 0 && result.stderr == "", "\(fault): \(result)")
        let species = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        #expect(species.compactMap { $0["id"] as? Int } == Array(1...37), "\(fault)")
        let root = fault == "public-urls" ? "https://swapi.dev/api/" : copy
        #expect(species.last?["url"] as? String == "\(root)species/37/", "\(fault)")
        // Page 2 is the copy's own.
        let page = try await installed(["--no-fallback", "--base-url", copy, "list", "--page", "2", "--jsonl"])
        let size = ["pages-of-5": 5, "pages-of-20": 20][fault] ?? 10
        let ids = page.stdout.split(separator: "\n").map { try? JSONSerialization.jsonObject(with: Data($0.utf8)) }
        #expect(page.status == 0, "\(page)")
        #expect(ids.compactMap { ($0 as? [String: Any])?["id"] as? Int } == Array(size + 1...min(2 * size, 37)))
    }

    /// Issue 49, item 4: `show` takes each species URL a copy's listing
    /// prints, the public service's too, and refuses one it does not print.
    @Test func showTakesTheURLsACopyPrints() async throws {
        let keeping = try await session.root(fault: "public-urls")
        let shown = try await installed([
            "--no-fallback", "--base-url", keeping, "show", "https://swapi.dev/api/species/3/",
        ])
        let golden = try Fixtures.text("golden/show/3.txt")
        #expect(shown.status == 0 && shown.stdout == golden, "\(shown)")
        let own = try await session.root()
        let refused = try await installed([
            "--no-fallback", "--base-url", own, "show", "https://swapi.dev/api/species/3/",
        ])
        #expect(refused.status == 64 && refused.stdout == "", "\(refused)")
        #expect(
            refused.stderr.hasPrefix(
                "error: 'https://swapi.dev/api/species/3/' is not a species URL of this API (expected \(own)species/<id>/)\n"
            ), "\(refused)")
    }

    /// Issue 43: pages served past their count (15, where 37 are served)
    /// prove the count wrong: that service gives way, for a page as for all.
    @Test func aPagePastItsCountGivesWay() async throws {
        try await expectTheSecondAnswers(
            "count-fifteen",
            alone: "species/?page=2 is not whole: it holds 10 species, where its place in the listing takes 5")
        let first = try await session.root(fault: "count-fifteen")
        let second = try await session.root()
        let both = try await installed(Self.inTurn(first, second) + ["list", "--page", "3", "--jsonl"])
        #expect(both.status == 0 && both.stdout.split(separator: "\n").count == 10, "\(both)")
        #expect(both.stdout.hasPrefix(#"{"id":21,"#), "\(both.stdout)")
        #expect(both.stderr.hasSuffix("; answered by \(Self.name(second))\n"), "\(both.stderr)")
        let alone = try await installed(["--no-fallback", "--base-url", first, "list", "--page", "3"])
        #expect(alone.status == 65 && alone.stdout == "", "\(alone)")
        #expect(
            alone.stderr
                == "error: \(first)species/?page=3 is not whole: it is a page past the last of the 2 its count makes, so the count is wrong\n"
        )
        // Issue 49: in swapi.tech's dialect too, where a page past the
        // last is the last page again, this page is not.
        let tech = try await session.root(fault: "count-fifteen", dialect: "tech")
        let techAlone = try await installed(["--no-fallback", "--base-url", tech, "list", "--page", "3"])
        #expect(techAlone.status == 65 && techAlone.stdout == "", "\(techAlone)")
        #expect(techAlone.stderr.contains("is not whole: it is a page past the last of the 2 its count makes"))
        let healthy = try await session.root(dialect: "tech")
        let clamped = try await installed(["--no-fallback", "--base-url", healthy, "list", "--page", "9"])
        #expect(
            clamped.status == 1 && clamped.stderr == "error: page 9 does not exist; there are 4 pages\n", "\(clamped)")
    }

    /// Issue 43: a search that answers nothing where the same service's
    /// listing holds the name is no answer from that service.
    @Test func anEmptySearchTheListingDisprovesGivesWay() async throws {
        let first = try await session.root(fault: "empty-search")
        let second = try await session.root()
        let both = try await installed(Self.inTurn(first, second) + ["show", "wookie"])
        #expect(both.status == 0 && both.stdout.hasPrefix("Wookie\n"), "\(both)")
        #expect(both.stderr.hasSuffix("; answered by \(Self.name(second))\n"), "\(both.stderr)")
        let alone = try await installed(["--no-fallback", "--base-url", first, "show", "wookie"])
        #expect(alone.status == 65 && alone.stdout == "", "\(alone)")
        #expect(
            alone.stderr
                == "error: \(first)species/?search=wookie does not answer the search 'wookie': it answered nothing, where the listing holds it\n"
        )
        let none = try await installed(["--no-fallback", "--base-url", first, "show", "Nobody"])
        #expect(none.status == 1 && none.stderr.hasPrefix("error: no species is named 'Nobody'"), "\(none)")
    }

    /// Case 4: page 1 one short of the page size, still linking on: a copy
    /// pages by its page 1 (issue 43), and page 2, of 10, is not whole; read
    /// alone (`list`), page 1 is a whole page of 9.
    @Test(arguments: ["drf", "tech"])
    func aShortPage1GivesWay(dialect: String) async throws {
        let rule = "\(Self.page2(dialect)) is not whole: it holds 10 species, where its place in the listing takes 9"
        try await expectTheSecondAnswers("short-page-1", dialect: dialect, alone: rule)
        try await expectTheSecondAnswers(
            "short-page-1", dialect: dialect, arguments: ["list", "--limit", "37"], alone: rule)
        let one = try await installed([
            "--no-fallback", "--base-url", try await session.root(fault: "short-page-1", dialect: dialect), "list",
            "--format", "tsv",
        ])
        #expect(one.status == 0 && one.stdout.split(separator: "\n").count == 10 && one.stderr == "", "\(one)")
    }

    /// Case 6: a count no listing can hold gives way like any other fault.
    @Test(arguments: ["drf", "tech"])
    func aCountNoListingCanHoldGivesWay(dialect: String) async throws {
        let page1 = dialect == "tech" ? "species?page=1&limit=10&expanded=true" : "species/"
        try await expectTheSecondAnswers(
            "count-billion", dialect: dialect, alone: "\(page1): it counts more species than 500 pages hold")
    }

    /// Case 7: a page past `--max-response-size` gives way, and the service
    /// that sent it is not remembered as the one that answers.
    @Test func anOversizedPageGivesWayAndIsNotRemembered() async throws {
        let cache = try await expectTheSecondAnswers(
            "oversized-page-2", arguments: ["--max-response-size", "1000000", "list", "--all-pages"],
            alone: "species/?page=2: the response is larger than 976.6 KiB")
        let info = try await installed(["cache", "info"], cacheHome: cache)
        #expect(info.stdout.contains("\nanswering: \(try await session.root(dialect: "drf")) since "), "\(info)")
    }

    /// Issue 49, item 8: a copy that shrank, its old page 1 still fresh in
    /// the cache, answers a page past its new end with "no such page" (1)
    /// and its page count now, not 69 "HTTP 404" for a day: page 1 is read
    /// again, once.
    @Test func aCopyThatShrankSaysHowManyPagesItHasNow() async throws {
        let cache = Fixtures.temporaryFolder("listing-rules-shrunk")
        defer { try? FileManager.default.removeItem(at: cache) }
        let service = try await session.root(fault: "shrunk", sound: 1)
        let before = try await installed(["--base-url", service, "list", "--json"], cacheHome: cache)
        #expect(before.status == 0 && before.stdout.contains("\"name\": \"Ewok\""), "\(before)")
        #expect(try await session.requests(fault: "shrunk", sound: 1).count == 1, "page 1 alone, with the count 37")
        let past = try await installed(["--base-url", service, "list", "--page", "4"], cacheHome: cache)
        #expect(past.status == 1 && past.stdout == "", "\(past)")
        #expect(past.stderr == "error: page 4 does not exist; there are 2 pages\n", "\(past)")
        let last = try await installed(["--base-url", service, "list", "--page", "2", "--jsonl"], cacheHome: cache)
        #expect(last.status == 0 && last.stdout.split(separator: "\n").count == 5, "\(last)")
    }

    /// Case 8: the pages cached from a run when the listing had 36 species
    /// do not add up with the service's next run, which has 37; it is read
    /// again, once, and answers whole, without `--refresh`.
    @Test func aHealthyServiceAnswersWholeAfterEarlierPagesOfItsOwn() async throws {
        let service = try await session.root(fault: "one-fewer", faulty: 2)
        let limited = try await installed(["--serial", "--base-url", service, "list", "--limit", "12", "--jsonl"])
        #expect(limited.status == 0 && limited.stdout.split(separator: "\n").count == 12, "\(limited)")
        let all = try await installed(["-v", "--base-url", service, "list", "--all-pages", "--json"])
        #expect(all.status == 0, "\(all)")
        let species = try #require(try JSONSerialization.jsonObject(with: Data(all.stdout.utf8)) as? [[String: Any]])
        #expect(species.compactMap { $0["id"] as? Int } == Array(1...37))
        #expect(
            all.stderr.contains("\nverbose: asking 127.0.0.1:")
                && all.stderr.contains(" again, its cache unread: with it, "), "\(all)")
    }

    /// Case 3: a known host speaks one form. swapi.dev answering with an
    /// array, and www.swapi.tech with its listing written as a search, give
    /// way; pinned alone, each is no answer.
    @Test(.enabled(Capability.hostNamesNeeded) { await Capability.servesHostNames.value })
    func aKnownHostInAnotherFormGivesWay() async throws {
        let hosts = [
            "swapi.dev": ["certificate": "server.pem", "fault": "as-array"], "www.swapi.tech": ["fault": "search-form"],
        ]
        let runs = [
            ["list", "--all-pages", "--json"], ["--no-fallback", "--base-url", "https://swapi.dev/api/", "list"],
            ["--no-fallback", "--base-url", "https://www.swapi.tech/api/", "list"],
            // Issue 43: a pasted URL in any spelling names its species, and its service, asked first.
            ["show", "HTTP://SWAPI.INFO/api/species/3", "--json"],
            ["show", "http://swapi.dev/api/species/3", "--json"],
        ]
        let script = Fixtures.packageRoot.appendingPathComponent("Tests/Tools/public_hosts.py").path
        let plan = String(decoding: try JSONSerialization.data(withJSONObject: runs), as: UTF8.self)
        let served = String(decoding: try JSONSerialization.data(withJSONObject: hosts), as: UTF8.self)
        let result = try await SpeciesRunner(build: .installed)(
            [], through: { ["unshare", "-n", "-m", "python3", script, $0, cacheHome.path, plan, served] })
        try #require(result.status == 0, "\(result)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let done = try #require(report["runs"] as? [[String: Any]])
        #expect(done[0]["status"] as? Int == 0)
        #expect(
            done[0]["stderr"] as? String
                == "note: swapi.dev did not answer (its answer is not SWAPI JSON); answered by swapi.py4e.com\n")
        let species =
            try JSONSerialization.jsonObject(with: Data((done[0]["stdout"] as? String ?? "").utf8)) as? [[String: Any]]
        #expect(species?.count == 37 && species?.last?["url"] as? String == "https://swapi.py4e.com/api/species/37/")
        #expect(done[1]["status"] as? Int == 65 && done[1]["stdout"] as? String == "")
        #expect(
            done[1]["stderr"] as? String
                == "error: https://swapi.dev/api/species/ did not answer with SWAPI JSON: it answers in swapi.info's dialect, where an answer before was in swapi.dev's\n"
        )
        #expect(done[2]["status"] as? Int == 65 && done[2]["stdout"] as? String == "")
        #expect(
            done[2]["stderr"] as? String
                == "error: https://www.swapi.tech/api/species?page=1&limit=10&expanded=true did not answer with SWAPI JSON: 'results' is missing\n"
        )
        for (run, url) in zip(done[3...], ["https://swapi.info/api/species/3", "https://swapi.dev/api/species/3/"]) {
            let shown = try JSONSerialization.jsonObject(with: Data((run["stdout"] as? String ?? "").utf8))
            #expect(run["status"] as? Int == 0 && run["stderr"] as? String == "", "\(run)")
            #expect((shown as? [String: Any])?["url"] as? String == url, "\(run)")
        }
    }

    /// Case 9: the cache's answer tells when it was fetched.
    @Test func theCacheTellsWhenItsAnswerWasFetched() async throws {
        let gone = try await FixtureServer.start()
        let root = gone.root(session: FixtureServer.newSession())
        let fetched = try await installed(["--base-url", root, "list"])
        #expect(fetched.status == 0, "\(fetched)")
        await gone.stop()
        let folder = cacheHome.appendingPathComponent("species")
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".entry") {
            let file = folder.appendingPathComponent(name)
            let text = try #require(String(data: try Data(contentsOf: file), encoding: .utf8))
            let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("fetched ") })
            let date = try #require(Double(line.dropFirst("fetched ".count)))
            try Data(text.replacingOccurrences(of: String(line), with: "fetched \(date - 300)").utf8).write(to: file)
        }
        let answered = try await installed(["--max-age", "60", "--base-url", root, "list"])
        #expect(answered.status == 0, "\(answered)")
        #expect(
            answered.stderr.hasPrefix(
                "note: \(Self.name(root).split(separator: "/")[0]) did not answer (connection refused): answering from the cache, as fetched 5 min ago\n"
            ), "\(answered)")
    }
}
