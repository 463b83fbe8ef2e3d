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
            ["--base-url", "\(first) \(second)"] + arguments + ["--json"], cacheHome: cache)
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

    /// Case 1: an element that is no species: `{}`, a null name, a planet's URL.
    @Test(arguments: ["element-empty", "element-nameless", "element-planet"], ["drf", "tech", "info"])
    func anElementThatIsNoSpeciesGivesWay(fault: String, dialect: String) async throws {
        let element =
            switch (fault, dialect) {
            case ("element-empty", "info"): "[10]"
            case ("element-empty", _): "results[0]"
            case ("element-nameless", "drf"): "at \(try await session.root(fault: fault))species/11/"
            case ("element-nameless", "tech"): "at https://www.swapi.tech/api/species/11"
            case ("element-nameless", _): "at https://swapi.info/api/species/11"
            default: "'Neimodian'"
            }
        try await expectTheSecondAnswers(
            fault, dialect: dialect,
            alone:
                "\(Self.page2(dialect)) is not whole: \(element) is not a species of this service (an object with a name and its species URL)\n"
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

    /// Case 4: page 1 one short of the page size, still linking on, read
    /// alone (`list`) and with the others.
    @Test(arguments: ["drf", "tech"])
    func aShortPage1GivesWay(dialect: String) async throws {
        let page1 = dialect == "tech" ? "species?page=1&limit=10&expanded=true" : "species/"
        let rule = "\(page1) is not whole: it holds 9 species, where its place in the listing takes 10"
        try await expectTheSecondAnswers("short-page-1", dialect: dialect, alone: rule)
        try await expectTheSecondAnswers(
            "short-page-1", dialect: dialect, arguments: ["list", "--limit", "37"], alone: rule)
        let one = try await installed([
            "--no-fallback", "--base-url", try await session.root(fault: "short-page-1", dialect: dialect), "list",
        ])
        #expect(one.status == 65 && one.stdout == "" && one.stderr.hasPrefix("error: "), "\(one)")
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
        #expect(all.stderr.contains("\nverbose: reading \(service) again from the service: with the cache, "), "\(all)")
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
                == "error: https://swapi.dev/api/species/ did not answer with SWAPI JSON: it answers in swapi.info's form, where an answer before was in swapi.dev's\n"
        )
        #expect(done[2]["status"] as? Int == 65 && done[2]["stdout"] as? String == "")
        #expect(
            done[2]["stderr"] as? String
                == "error: https://www.swapi.tech/api/species?page=1&limit=10&expanded=true did not answer with SWAPI JSON: 'results' is missing\n"
        )
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
            ), "\(answered.stderr)")
    }
}
