import Foundation
import SpeciesKit
import Testing
import TestSupport

@testable import species

#if canImport(Glibc)
import Glibc
#endif

/// A server of a test's own, with a certificate of Tests/TLS, that counts
/// the connections it accepts (a client its certificate turns away counts).
private struct CountedServer {
    let server: FixtureServer
    let log: URL

    static func start(certificate: String? = nil, _ arguments: [String] = []) async throws -> CountedServer {
        let log = Fixtures.temporaryFolder("connections")
        try Data().write(to: log)
        let tls = certificate.map { ["--tls", TestCertificates.url($0).path] } ?? []
        return CountedServer(
            server: try await FixtureServer.start(tls + ["--connection-log", log.path] + arguments), log: log)
    }

    var connections: Int {
        ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").count
    }

    func root(session: String) -> String {
        server.root(session: session)
    }
}

/// SWAPI's public services in turn, HTTPS that can be trusted,
/// and --verbose; each point against local servers, over HTTPS where real
/// users are, with both the debug and the installed build where their paths
/// differ (the libcurl workarounds).
@Suite("Services in turn and HTTPS, end to end")
struct ServicesEndToEndTests {
    let session = ServerSession()
    let https = ServerSession(on: FixtureServer.sharedHTTPS)
    let cacheHome = Fixtures.temporaryFolder("services")

    private var trusted: [String: String] {
        TestCertificates.trusted.merging(["XDG_CACHE_HOME": cacheHome.path]) { $1 }
    }

    private static func authority(_ root: String) -> String {
        URL(string: root).map { "\($0.host ?? ""):\($0.port ?? 0)" } ?? root
    }

    private static func species(_ json: String) throws -> [[String: Any]] {
        try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
    }

    // MARK: 1. The services in turn

    @Test(arguments: SpeciesBuild.allCases)
    func anExpiredCertificateGivesWayToTheNextServiceWhichIsThenAskedFirst(build: SpeciesBuild) async throws {
        let expired = try await CountedServer.start(certificate: "expired.pem"),
            answering = try await CountedServer.start(certificate: "server.pem")
        let first = expired.root(session: session.name), second = answering.root(session: session.name)
        let list = "\(first) \(second)"
        let failover = try await SpeciesRunner(build: build)(
            ["--base-url", list, "list", "--all-pages", "--json"], environment: trusted)
        #expect(failover.status == 0, "\(failover)")
        let species = try Self.species(failover.stdout)
        #expect(species.count == 37 && species.first?["url"] as? String == second + "species/1/")
        #expect(
            failover.stderr
                == "note: \(Self.authority(first)) did not answer (SSL certificate problem: certificate has expired); answered by \(Self.authority(second))\n"
        )
        #expect(expired.connections >= 1)

        // The next run asks the service that answered first, and answers
        // from it with no note: had the expired one come first, its failure
        // would be told. (On a busy machine, one that is quiet past the
        // attempt delay has the next asked beside it; the expired server may
        // also accept a connection of the first run late, so its count of
        // connections proves nothing.)
        let answered = answering.connections
        let next = try await SpeciesRunner(build: build)(
            ["-v", "--base-url", list, "show", "wookie"], environment: trusted)
        #expect(next.status == 0, "\(next)")
        #expect(next.stdout == (try Fixtures.text("golden/show/3.txt")))
        let asked = next.stderr.split(separator: "\n").filter { $0.hasPrefix("verbose: GET ") }
        #expect(asked.contains { $0.hasPrefix("verbose: GET \(second)") }, "\(next.stderr)")
        #expect(!next.stderr.contains("note:"), "\(next.stderr)")
        #expect(answering.connections > answered)
        await expired.server.stop()
        await answering.server.stop()

        let info = try await SpeciesRunner(build: build)(["cache", "info"], environment: trusted)
        #expect(info.stdout.contains("\nanswering: \(second) since "), "\(info.stdout)")
        #expect(info.stdout.hasSuffix(", for \(first) \(second)\n"))
    }

    /// `--no-fallback`: one error line, each service and why; exit 69. A
    /// server of the test's own: the shared one may be busy for seconds
    /// making a huge page for another test, and the portal, which others
    /// follow, has 3 s to begin its answer.
    @Test func whenNoServiceAnswersOneErrorNamesEach() async throws {
        let server = try await FixtureServer.start()
        defer { Task { await server.stop() } }
        let session = ServerSession(on: Task { server })
        let refused = "http://127.0.0.1:\(SelfCheckCommand.closedPort() ?? 9)/api/",
            portal = try await session.root(fault: "html")
        let unavailable = try await session.root(fault: "503-always")
        let result = try await SpeciesRunner()(
            [
                "--no-cache", "--no-fallback", "--retries", "1", "--base-url", "\(refused),\(portal),\(unavailable)",
                "list",
            ])
        #expect(result.status == 69 && result.stdout == "")
        let names = [portal, unavailable].map { $0.replacingOccurrences(of: "http://", with: "") }
        #expect(result.stderr.hasPrefix("note: retry 1 of 1 in "))
        #expect(
            result.stderr.hasSuffix(
                "error: \(Self.authority(refused)) did not answer (connection refused); "
                    + "\(names[0]) did not answer (its answer is not SWAPI JSON); \(names[1]) did not answer (HTTP 503 Service Unavailable)\n"
            ),
            "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 2, "one retry, then one error line")
        #expect(try await session.requests(fault: "503-always").count == 2, "the last service retries")
        #expect(try await session.requests(fault: "html").count == 1, "the others do not")
    }

    @Test func oneRootIsThatServiceOnly() async throws {
        let refused = "http://127.0.0.1:\(SelfCheckCommand.closedPort() ?? 9)/api/"
        let result = try await SpeciesRunner()(["--no-cache", "--no-fallback", "--base-url", refused, "list"])
        #expect(
            result.status == 69 && result.stderr == "error: could not reach \(refused)species/: connection refused\n")
    }

    // MARK: 3. HTTPS you can trust

    @Test(
        arguments: SpeciesBuild.allCases,
        [
            ("expired.pem", true, "SSL certificate problem: certificate has expired"),
            (
                "wrong-host.pem", true,
                "SSL: no alternative certificate subject name matches target host name '127.0.0.1'"
            ),
            (
                "server.pem", false,
                "SSL certificate problem: unable to get local issuer certificate (a CA of your own: CURL_CA_BUNDLE or SSL_CERT_FILE, or SSL_CERT_DIR)"
            ),
        ])
    func aCertificateFailureNamesItsCauseAndIsNotRetried(
        build: SpeciesBuild, failure: (certificate: String, trusted: Bool, cause: String)
    ) async throws {
        let server = try await CountedServer.start(certificate: failure.certificate)
        let root = server.root(session: session.name)
        let result = try await SpeciesRunner(build: build)(
            ["--no-cache", "--no-fallback", "--retries", "3", "--base-url", root, "list"],
            environment: failure.trusted ? TestCertificates.trusted : [:])
        await server.server.stop()
        #expect(result.status == 69 && result.stdout == "")
        #expect(result.stderr == "error: could not reach \(root)species/: \(failure.cause)\n")
        #expect(server.connections == 1)
    }

    @Test(
        .enabled(if: Capability.has("openssl"), hashing), arguments: SpeciesBuild.allCases,
        ["SSL_CERT_FILE", "CURL_CA_BUNDLE", "SSL_CERT_DIR"])
    func eachCertificateVariableIsHonoured(build: SpeciesBuild, variable: String) async throws {
        let value =
            variable == "SSL_CERT_DIR"
            ? try await Self.hashedCertificateFolder().path : TestCertificates.url("ca.pem").path
        let result = try await SpeciesRunner(build: build)(
            ["--no-cache", "--no-fallback", "--base-url", try await https.root(), "show", "3"],
            environment: [variable: value])
        #expect(result.status == 0 && result.stderr == "", "\(result)")
        #expect(result.stdout == (try Fixtures.text("golden/show/3.txt")))
    }

    /// Each variable adds to the system's CAs, as OpenSSL reads them: a
    /// bundle is read with the system's folder, and a folder with the
    /// system's bundle. In a mount namespace, the system's bundle and
    /// folder hold the test CA; a variable naming another bundle, or an
    /// empty folder, leaves it trusted.
    @Test(
        .enabled("needs root and unshare(1) to mount a system CA folder of its own") {
            await Capability.mountsItsOwn.value
        },
        .enabled(if: Capability.has("openssl"), hashing),
        arguments: SpeciesBuild.allCases,
        [("SSL_CERT_FILE", "untrusted.pem"), ("CURL_CA_BUNDLE", "untrusted.pem"), ("SSL_CERT_DIR", nil)])
    func eachCertificateVariableAddsToTheSystemsCAs(build: SpeciesBuild, variable: (name: String, file: String?))
        async throws
    {
        let system = try await Self.hashedCertificateFolder()
        try FileManager.default.copyItem(
            at: TestCertificates.url("ca.pem"), to: system.appendingPathComponent("ca-certificates.crt"))
        let empty = Fixtures.temporaryFolder("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let value = variable.file.map { TestCertificates.url($0).path } ?? empty.path
        let mount = "mount --bind \"$1\" /etc/ssl/certs && shift && exec \"$@\""
        let result = try await SpeciesRunner(build: build)(
            ["--no-cache", "--no-fallback", "--base-url", try await https.root(), "show", "3"],
            environment: ["SSL_CERT_FILE": "", "CURL_CA_BUNDLE": "", "SSL_CERT_DIR": ""].merging([variable.name: value])
            {
                $1
            }, through: { ["unshare", "-m", "/bin/sh", "-c", mount, "sh", system.path, $0] })
        #expect(result.status == 0 && result.stderr == "", "\(result)")
        #expect(result.stdout == (try Fixtures.text("golden/show/3.txt")))
    }

    /// A folder as OpenSSL reads one: the CA under its subject hash.
    private static func hashedCertificateFolder() async throws -> URL {
        let folder = Fixtures.temporaryFolder("certificates")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let ca = TestCertificates.url("ca.pem")
        let hash = try await ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/env"), ["openssl", "x509", "-hash", "-noout", "-in", ca.path],
            environment: ChildProcess.environment())
        let name = hash.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        try #require(hash.status == 0 && !name.isEmpty, "\(hash)")
        try FileManager.default.copyItem(at: ca, to: folder.appendingPathComponent("\(name).0"))
        return folder
    }

    @Test(arguments: SpeciesBuild.allCases)
    func overHTTPSShowRelatedAndRevalidation(build: SpeciesBuild) async throws {
        let root = try await https.root()
        let related = try await SpeciesRunner(build: build)(
            ["--base-url", root, "show", "wookie", "--related"], environment: trusted)
        #expect(related.status == 0 && related.stderr == "", "\(related)")
        #expect(
            related.stdout.hasSuffix(
                "\nHomeworld: Kashyyyk\nPeople: Chewbacca, Tarfful\nFilms: Revenge of the Sith, A New Hope, The Empire Strikes Back, Return of the Jedi\n"
            ))
        let first = try await SpeciesRunner(build: build)(
            ["--base-url", root, "list", "--all-pages"], environment: trusted)
        let again = try await SpeciesRunner(build: build)(
            ["--base-url", root, "--max-age", "0", "-v", "list", "--all-pages"], environment: trusted)
        #expect(again.status == 0 && again.stdout == first.stdout)
        let requests = again.stderr.split(separator: "\n").filter { $0.hasPrefix("verbose: GET ") }
        #expect(requests.count == 4, "\(again.stderr)")
        #expect(
            requests.allSatisfy {
                $0.contains(": 304 Not Modified, 0 bytes, ")
                    && $0.hasSuffix(" ms, revalidated: the cached copy is current")
            })
    }

    // MARK: 4. --verbose

    /// Issue 44: the page plan once for each service asked (never for a
    /// cache that stands in), and the time taken last, after the error.
    @Test func verbosePlansOnceASourceAndEndsWithTheTime() async throws {
        let failing = try await session.root(fault: "503-always"), other = try await session.root(fault: "404-json")
        let result = try await SpeciesRunner()(
            ["--retries", "0", "-v", "--base-url", "\(failing) \(other)", "list", "--all-pages"],
            environment: ["XDG_CACHE_HOME": cacheHome.path])
        #expect(result.status == 69, "\(result)")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.filter { $0.hasPrefix("verbose: page plan: ") }.count == 2, "\(lines)")
        #expect(
            lines.dropLast().last?.hasPrefix("error: ") == true && lines.last?.hasPrefix("verbose: done after ") == true
        )
    }

    @Test func verboseTellsEachRequestOnStderrOnly() async throws {
        let root = try await session.root()
        let plain = try await SpeciesRunner()(["--base-url", root, "--no-cache", "list", "--all-pages", "--json"])
        let environment = ["XDG_CACHE_HOME": cacheHome.path]
        let network = try await SpeciesRunner()(
            ["--base-url", root, "-v", "list", "--all-pages", "--json"], environment: environment)
        #expect(network.status == 0 && network.stdout == plain.stdout)
        let lines = network.stderr.split(separator: "\n").map(String.init)
        #expect(lines.allSatisfy { $0.hasPrefix("verbose: ") }, "\(lines)")
        #expect(
            lines.first
                == "verbose: page plan: pages 1 to 4 at once (as many as the SWAPI data built in fills), then the rest that page 1 counts"
        )
        let pages = ["species/", "species/?page=2", "species/?page=3", "species/?page=4"].map {
            "verbose: GET \(root)\($0): 200 OK, "
        }
        for page in pages {
            #expect(
                lines.contains { $0.hasPrefix(page) && $0.hasSuffix(" ms, from the network") }, "\(page) in \(lines)")
        }
        #expect(lines.contains("verbose: \(Self.authority(root)) answers in swapi.dev's dialect (drf)"))
        #expect(lines.last?.hasPrefix("verbose: done after ") == true && lines.last?.hasSuffix(" ms") == true)
        #expect(lines.count == 7)

        let cached = try await SpeciesRunner()(
            ["--base-url", root, "--verbose", "list", "--all-pages", "--json"], environment: environment)
        #expect(cached.stdout == plain.stdout)
        let fromCache = cached.stderr.split(separator: "\n").filter {
            $0.contains(": from the cache, no request (fetched ")
        }
        #expect(fromCache.count == 4, "\(cached.stderr)")
        #expect(!cached.stderr.contains("page plan"), "the fresh cache sends no request, and plans none")
        let stale = try await SpeciesRunner()(
            ["--base-url", root, "--verbose", "--max-age", "0", "list", "--all-pages", "--json"],
            environment: environment)
        #expect(
            stale.stderr.hasPrefix("verbose: page plan: pages 1 to 4 at once (as many as the cached page 1 counts)"))
    }

    @Test func verboseTellsTheServicesGivenUpAndHidesPasswords() async throws {
        let refused = "http://user:secret@127.0.0.1:\(SelfCheckCommand.closedPort() ?? 9)/api/"
        let answering = try await session.root()
        let result = try await SpeciesRunner()([
            "--no-cache", "--base-url", "\(refused) \(answering)", "-v", "show", "3",
        ])
        #expect(result.status == 0)
        #expect(!result.stderr.contains("secret"), "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n").map(String.init)
        let host = Self.authority(refused.replacingOccurrences(of: "user:secret@", with: ""))
        #expect(
            lines.contains {
                $0.hasPrefix("verbose: GET http://***@\(host)/api/species/3/: failed after ")
                    && $0.hasSuffix(" ms: connection refused")
            }, "\(lines)")
        #expect(lines.contains("verbose: giving up on \(host): connection refused"))
        #expect(
            lines.suffix(2).first
                == "note: \(host) did not answer (connection refused); answered by \(Self.authority(answering))")
    }

    // MARK: The public host names themselves

    /// Inside namespaces of its own, SWAPI's four host names lead to local
    /// HTTPS servers (Tests/Tools/public_hosts.py), trusted through the
    /// system's bundle; swapi.dev's certificate has expired. The default
    /// list, with no option at all, gets swapi.py4e.com's live answer with
    /// one notice, and the next run does not contact swapi.dev.
    @Test(
        .enabled(Capability.hostNamesNeeded) { await Capability.servesHostNames.value },
        arguments: SpeciesBuild.allCases)
    func theDefaultListOnSWAPIsOwnHostNames(build: SpeciesBuild) async throws {
        let cache = Fixtures.temporaryFolder("public-hosts")
        let runs = [
            ["list", "--all-pages", "--json"], ["show", "wookie"], ["cache", "info"],
            ["--base-url", "https://www.swapi.tech/api/", "show", "3"],
        ]
        let script = Fixtures.packageRoot.appendingPathComponent("Tests/Tools/public_hosts.py").path
        let plan = String(decoding: try JSONSerialization.data(withJSONObject: runs), as: UTF8.self)
        let result = try await SpeciesRunner(build: build)(
            [], through: { ["unshare", "-n", "-m", "python3", script, $0, cache.path, plan] })
        try #require(result.status == 0, "\(result)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let done = try #require(report["runs"] as? [[String: Any]])
        try #require(done.count == runs.count)
        func connections(_ run: Int, _ host: String) -> Int {
            (done[run]["connections"] as? [String: Int])?[host] ?? -1
        }

        let live = done[0]
        #expect(live["status"] as? Int == 0)
        #expect(
            live["stderr"] as? String
                == "note: swapi.dev did not answer (SSL certificate problem: certificate has expired); answered by swapi.py4e.com\n"
        )
        let species = try Self.species(live["stdout"] as? String ?? "")
        #expect(species.count == 37 && species.first?["url"] as? String == "https://swapi.py4e.com/api/species/1/")
        // www.swapi.tech and swapi.info are asked beside only when the one
        // before is quiet past the attempt delay (a busy machine): the answer
        // is still swapi.py4e.com's, the first in order that answers whole.
        #expect(connections(0, "swapi.dev") >= 1 && connections(0, "swapi.py4e.com") >= 1)

        let next = done[1]
        #expect(next["status"] as? Int == 0 && next["stderr"] as? String == "")
        #expect(next["stdout"] as? String == (try Fixtures.text("golden/show/3.txt")))
        // swapi.dev is asked beside swapi.py4e.com only when that is slower
        // than the attempt delay (a busy machine): one handshake at most.
        #expect(
            connections(1, "swapi.dev") <= connections(0, "swapi.dev") + 1, "the next run asks swapi.py4e.com first")
        #expect(connections(1, "swapi.py4e.com") > connections(0, "swapi.py4e.com"))

        #expect((done[2]["stdout"] as? String)?.contains("\nanswering: https://swapi.py4e.com/api/ since ") == true)
        let pinned = done[3]
        #expect(
            pinned["stdout"] as? String == (try Fixtures.text("golden/show/3.txt")) && pinned["stderr"] as? String == ""
        )
        #expect(
            connections(3, "www.swapi.tech") == connections(2, "www.swapi.tech") + 1
                && connections(3, "swapi.dev") == connections(2, "swapi.dev"))
    }
    /// Issue 42: SWAPI's four hosts black-holed (they accept, and nothing
    /// ever comes back): the first run finds it once, staggered, in about
    /// 4 s, not 15, and the next one asks none of them; a refresh does.
    @Test(.enabled(Capability.hostNamesNeeded) { await Capability.servesHostNames.value })
    func aBlackHoledNetworkIsFoundOnce() async throws {
        let cache = Fixtures.temporaryFolder("black-hole")
        let script = Fixtures.packageRoot.appendingPathComponent("Tests/Tools/public_hosts.py").path
        let runs = [["-v", "list"], ["-v", "show", "3"], ["--refresh", "list"]]
        let plan = String(decoding: try JSONSerialization.data(withJSONObject: runs), as: UTF8.self)
        let hosts = ["swapi.dev", "swapi.py4e.com", "www.swapi.tech", "swapi.info"]
        let silent = String(
            decoding: try JSONSerialization.data(
                withJSONObject: Dictionary(uniqueKeysWithValues: hosts.map { ($0, ["silent": true]) })),
            as: UTF8.self)
        let result = try await SpeciesRunner(build: .installed)(
            [], through: { ["unshare", "-n", "-m", "python3", script, $0, cache.path, plan, silent] })
        try #require(result.status == 0, "\(result)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let done = try #require(report["runs"] as? [[String: Any]])
        let lines = (done[0]["stderr"] as? String ?? "").split(separator: "\n")
        #expect(done[0]["status"] as? Int == 0)
        #expect(
            lines.filter { !$0.hasPrefix("verbose: ") }
                == [
                    "note: swapi.dev, swapi.py4e.com, www.swapi.tech and swapi.info did not answer (no answer began within 3 s): "
                        + "answering from the SWAPI data built in (recorded 2026-11-21)"
                ])
        // Each asked 0.25 s after the one before, each given 3 s: well
        // within the 15 s timeout, which asking them in turn would take.
        let took = lines.last { $0.hasPrefix("verbose: done after ") }?.split(separator: " ")[3]
        #expect(try #require(took.flatMap { Int($0) }) < 12_000, "\(lines)")
        let next = done[1]
        #expect(next["stdout"] as? String == (try Fixtures.text("golden/show/3.txt")))
        let told = (next["stderr"] as? String ?? "").split(separator: "\n").filter { !$0.hasPrefix("verbose: ") }
        #expect(
            told.count == 1
                && told[0].hasPrefix("note: swapi.dev, swapi.py4e.com, www.swapi.tech and swapi.info did not answer "))
        #expect(
            told.first?.contains(" ago: answering from the SWAPI data built in (recorded 2026-11-21); asked again in ")
                == true)
        #expect(!(next["stderr"] as? String ?? "").contains("verbose: GET "), "the next run asks none of them")
        #expect(
            (done[2]["stderr"] as? String)?.contains("did not answer (no answer began within 3 s)") == true,
            "a refresh asks them")
    }

    /// Issue 22: swapi.dev answers page 1, then fails; swapi.py4e.com's
    /// certificate has expired. The listing is www.swapi.tech's, whole (its
    /// own dates, no films); with every other service down, the data built
    /// into species, whole.
    @Test(
        .enabled(Capability.hostNamesNeeded) { await Capability.servesHostNames.value },
        arguments: SpeciesBuild.allCases)
    func aServiceThatFailsPartWayOnSWAPIsOwnHostNames(build: SpeciesBuild) async throws {
        let failing: [String: [String: Any]] = [
            "swapi.dev": ["certificate": "server.pem", "fault": "later-500"],
            "swapi.py4e.com": ["certificate": "expired.pem"],
        ]
        let down = failing.merging(["www.swapi.tech": ["down": true], "swapi.info": ["down": true]]) { $1 }
        for (hosts, answeredBy) in [
            (failing, "answered by www.swapi.tech"), (down, "answering from the SWAPI data built in"),
        ] {
            let cache = Fixtures.temporaryFolder("public-hosts")
            let script = Fixtures.packageRoot.appendingPathComponent("Tests/Tools/public_hosts.py").path
            let plan = #"[["list", "--all-pages", "--json"]]"#
            let served = String(decoding: try JSONSerialization.data(withJSONObject: hosts), as: UTF8.self)
            let result = try await SpeciesRunner(build: build)(
                [], through: { ["unshare", "-n", "-m", "python3", script, $0, cache.path, plan, served] })
            try #require(result.status == 0, "\(result)")
            let report = try #require(
                try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            let run = try #require((report["runs"] as? [[String: Any]])?.first)
            #expect(run["status"] as? Int == 0, "\(run)")
            let stderr = run["stderr"] as? String ?? ""
            #expect(
                stderr.hasPrefix(
                    "note: swapi.dev did not answer in full (HTTP 500 Internal Server Error, after 1 page, which is dropped); "
                        + "swapi.py4e.com did not answer (SSL certificate problem: certificate has expired)"),
                "\(stderr)")
            #expect(stderr.contains(answeredBy) && stderr.split(separator: "\n").count == 1, "\(stderr)")
            let species = try Self.species(run["stdout"] as? String ?? "")
            #expect(species.count == 37)
            if hosts.count == failing.count {
                #expect(
                    species.allSatisfy {
                        ($0["url"] as? String)?.hasPrefix("https://www.swapi.tech/api/species/") == true
                    })
                #expect(
                    species.allSatisfy {
                        $0["films"] as? [String] == [] && $0["created"] as? String == "2025-03-17T10:34:01.234000Z"
                    })
            } else {
                #expect(
                    species.allSatisfy { ($0["url"] as? String)?.hasPrefix("https://swapi.dev/api/species/") == true })
                #expect(species.first?["created"] as? String == "2014-12-10T13:52:11.567000Z")
            }
        }
    }

    @Test func anUntrustedCertificateIsSaidSoAndNotRetried() async throws {
        let untrusted = try await FixtureServer.start(["--tls", TestCertificates.url("untrusted.pem").path])
        let root = untrusted.root(session: FixtureServer.newSession())
        #expect(root.hasPrefix("https://"))
        let result = try await SpeciesRunner()(["--no-fallback", "--base-url", root, "list"])
        await untrusted.stop()
        #expect(result.status == 69)
        #expect(result.stdout == "")
        #expect(
            result.stderr
                == "error: could not reach \(root)species/: SSL certificate problem: self-signed certificate\n")
    }

    @Test(arguments: SpeciesBuild.allCases)
    func overHTTPSEveryPageArrives(build: SpeciesBuild) async throws {
        let root = try await https.root()
        let result = try await SpeciesRunner(build: build)(
            ["--no-cache", "--base-url", root, "list", "--all-pages", "--json"], environment: TestCertificates.trusted)
        #expect(result.status == 0, "\(result)")
        let species = try JSONDecoder().decode([StarWarsSpecies].self, from: Data(result.stdout.utf8))
        #expect(species.count == 37 && species.first?.url == root + "species/1/")
    }
}

private let hashing: Comment = "needs openssl(1) to name the CA's file in an SSL_CERT_DIR folder"
