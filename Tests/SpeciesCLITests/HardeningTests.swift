import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// The built binary as a hostile server and a careless environment would
/// try it (issue 11): numbers past any range, output that cannot be
/// written, garbage that must not be cached, credentials that must not
/// leak, characters that fool a terminal, impossible values, misleading
/// messages and partial failures.
@Suite("Hardening")
struct HardeningTests {
    let server = ServerSession()

    private var species: SpeciesRunner { SpeciesRunner(server, fallback: false) }

    // MARK: 1. Numbers from the network

    @Test func aRetryAfterPastAnyRangeFailsAtOnceReadably() async throws {
        let result = try await species("retry-after-huge", ["list"])
        let root = try await server.root(fault: "retry-after-huge")
        #expect(result.status == 69 && !result.killedBySignal, "\(result)")
        #expect(result.stdout == "")
        #expect(
            result.stderr.hasPrefix(
                "error: \(root)species/ answered HTTP 503 Service Unavailable and asks to wait 31688087 years; "))
        #expect(result.stderr.hasSuffix(" s of the timeout are left (--timeout)\n"), "\(result)")
        #expect(try await server.requests(fault: "retry-after-huge").count == 1)
    }

    /// FoundationNetworking converted an announced length of 2^63 - 1 with
    /// a trapping Int64(_:) (Sources/URLSessionFixes/URLSessionFixes.c).
    @Test func aContentLengthPastInt64IsTooLargeNotACrash() async throws {
        let result = try await species("content-length-max", ["list", "--max-response-size", "100000000000"])
        let root = try await server.root(fault: "content-length-max")
        #expect(result.status == 65 && !result.killedBySignal, "\(result)")
        #expect(result.stdout == "")
        #expect(result.stderr == "error: \(root)species/: the response is larger than 93.1 GiB (--max-response-size)\n")
    }

    @Test func aContentLengthUnderARaisedLimitThatIsNeverSentIsACutAnswer() async throws {
        let result = try await species(
            "content-length-huge", ["list", "--max-response-size", "100000000000", "--retries", "0"])
        let root = try await server.root(fault: "content-length-huge")
        #expect(result.status == 69 && !result.killedBySignal, "\(result)")
        #expect(result.stdout == "")
        #expect(
            result.stderr == "error: could not reach \(root)species/: the connection dropped before a complete answer "
                + "(transfer closed with 29999999900 bytes remaining to read)\n")
    }

    @Test func aOneByteLimitSaysByte() async throws {
        let result = try await species(nil, ["list", "--max-response-size", "1"])
        #expect(result.status == 65)
        #expect(
            result.stderr
                == "error: \(try await server.root())species/: the response is larger than 1 byte (--max-response-size)\n"
        )
    }

    // MARK: 2. Output that cannot be written

    @Test(
        arguments: [
            ["list"], ["list", "--json"], ["list", "--jsonl"], ["list", "--format", "tsv"],
            ["list", "--all-pages", "--json"],
            ["show", "3"], ["show", "3", "--json"], ["--help"], ["list", "--help"], ["--version"], ["cache", "info"],
            ["completions", "bash"],
        ])
    func aFullDiskIsOneErrorAndStatus74(arguments: [String]) async throws {
        let result = try await species(arguments, stdout: "/dev/full")
        #expect(result.status == 74, "\(result)")
        #expect(result.stderr == "error: cannot write the output: No space left on device\n")
    }

    @Test(arguments: [["list"], ["show", "3", "--json"], ["--help"]])
    func aClosedStdoutIsOneErrorAndStatus74(arguments: [String]) async throws {
        let script = "\"$0\" \"$@\" >&-; echo \"status $?\" >&2"
        let result = try await species(arguments, through: { ["bash", "-c", script, $0] })
        #expect(result.stderr == "error: cannot write the output: Bad file descriptor\nstatus 74\n", "\(result)")
    }

    // MARK: 3. What is refused is never cached

    @Test(arguments: ["html", "truncated"])
    func aBodyThatIsNotSWAPIJSONIsNotCachedSoOfflineUsesTheBuiltInData(fault: String) async throws {
        let cache = try temporaryCache()
        let online = try await species(fault, ["list"], environment: cache.environment)
        #expect(online.status == 65)
        #expect(try cache.entries().isEmpty, "nothing stored")

        let offline = try await species(fault, ["list", "--offline"], environment: cache.environment)
        #expect(offline.status == 0, "\(offline)")
        #expect(offline.stdout == (try Fixtures.text("golden/list/page-1.txt")))
        #expect(offline.stderr.hasPrefix("offline: answering from the SWAPI data built into species"))
    }

    // MARK: 4. One origin rule

    @Test func aRedirectToAnotherPortIsRefusedAndNotCached() async throws {
        let cache = try temporaryCache()
        let result = try await species("redirect-other-port", ["list"], environment: cache.environment)
        let root = try await server.root(fault: "redirect-other-port")
        #expect(result.status == 65)
        #expect(result.stdout == "")
        let prefix = "error: \(root)species/: it redirects to another origin (http://127.0.0.1:"
        #expect(result.stderr.hasPrefix(prefix) && result.stderr.hasSuffix("/species/); not followed\n"), "\(result)")
        #expect(
            !result.stderr.contains(
                "127.0.0.1:\(try await FixtureServer.shared.value.port)/\(server.name)/fault=redirect-other-port/api/species/)"
            ))
        #expect(try cache.entries().isEmpty)
    }

    // MARK: 5. Credentials

    @Test func credentialsNeverReachAMessageOrTheDisk() async throws {
        let cache = try temporaryCache()
        let port = try await FixtureServer.shared.value.port
        let secretRoot = { (fault: String?) in
            "http://reader:s3cr3t-pw@127.0.0.1:\(port)/\(server.name)/" + (fault.map { "fault=\($0)/" } ?? "") + "api/"
        }
        var stderr = ""
        for (fault, arguments) in [
            ("500-once", ["list"]), ("page3-500", ["list", "--all-pages", "--retries", "1"]),
            (nil, ["show", "3", "--related"]),
        ] {
            let result = try await SpeciesRunner()(
                ["--no-fallback", "--base-url", secretRoot(fault)] + arguments, environment: cache.environment)
            stderr += result.stderr
        }
        #expect(!stderr.contains("s3cr3t") && !stderr.contains("reader"))
        #expect(
            stderr.contains("retry 1 of 3 in ")
                && stderr.contains(": http://***@127.0.0.1:\(port)/\(server.name)/fault=500-once/api/species/: "))
        #expect(
            stderr.contains(
                "error: http://***@127.0.0.1:\(port)/\(server.name)/fault=page3-500/api/species/?page=3 answered HTTP 500"
            ))

        let entries = try cache.entries()
        #expect(entries.count >= 3)
        for entry in entries {
            #expect(!String(decoding: try Data(contentsOf: entry), as: UTF8.self).contains("s3cr3t-pw"))
            let mode = try FileManager.default.attributesOfItem(atPath: entry.path)[.posixPermissions] as? Int
            #expect(mode == 0o600, "\(entry.lastPathComponent)")
        }

        let usage = try await SpeciesRunner()(["--base-url", "http://reader:s3cr3t-pw@host:99999/api/", "list"])
        #expect(usage.status == 64)
        #expect(
            usage.stderr.hasPrefix(
                "error: invalid value 'http://***@host:99999/api/' for '--base-url <url>': expected a port from 1 to 65535\n"
            ))
    }

    // MARK: 6. Characters that fool a terminal

    @Test func bidiZeroWidthAndSeparatorsAreEscapedAndEmojiTakeTwoColumns() async throws {
        let table = try await species("bidi-name", ["list", "--fields", "name,language"])
        #expect(table.status == 0, "\(table)")
        let lines = table.stdout.split(separator: "\n").prefix(3).map(String.init)
        #expect(
            lines == [
                "NAME                             LANGUAGE",
                #"Hu\u{202E}man\u{200B}\u{2028}🚀  Galactic\u{2066} Basic\u{FEFF} ❤️"#,
                "Droid                            n/a",
            ])

        let detail = try await species("bidi-name", ["show", "1"])
        #expect(detail.stdout.hasPrefix(#"Hu\u{202E}man\u{200B}\u{2028}🚀"# + "\n\n"))

        let tsv = try await species("bidi-name", ["list", "--format", "tsv", "--fields", "name"])
        #expect(tsv.stdout.split(separator: "\n")[1] == #"Hu\u{202E}man\u{200B}\u{2028}🚀"#)

        for output in [table.stdout, detail.stdout, tsv.stdout] {
            #expect(!output.unicodeScalars.contains { [0x202E, 0x200B, 0x2028, 0x2066, 0xFEFF].contains($0.value) })
        }

        let json = try await species("bidi-name", ["show", "1", "--json"])
        #expect(json.stdout.contains(#""name": "Hu\u202eman\u200b\u2028🚀""#))
        #expect(json.stdout.contains(#""language": "Galactic\u2066 Basic\ufeff ❤️""#))
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect(object?["name"] as? String == "Hu\u{202E}man\u{200B}\u{2028}🚀")
    }

    // MARK: 7. Impossible values

    @Test func anImpossibleDateIsAbsentWithAWarning() async throws {
        let result = try await species("impossible-date", ["show", "1", "--json"])
        #expect(result.status == 0, "\(result)")
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        #expect(object?["created"] is NSNull)
        #expect(object?["edited"] as? String == "2014-12-20T21:36:42.136000Z")
        #expect(
            result.stderr
                == "warning: species 'Human': field 'created' is not a valid UTC timestamp; treated as absent\n")
    }

    // MARK: 8. Messages that say what happened

    @Test func anUntrustedCertificateIsSaidSoAndNotRetried() async throws {
        let untrusted = try await FixtureServer.start(["--tls", TestCertificates.url("untrusted.pem").path])
        let root = untrusted.root(session: server.name)
        #expect(root.hasPrefix("https://"))
        let result = try await SpeciesRunner()(["--no-fallback", "--base-url", root, "list"])
        await untrusted.stop()
        #expect(result.status == 69)
        #expect(result.stdout == "")
        #expect(
            result.stderr
                == "error: could not reach \(root)species/: SSL certificate problem: self-signed certificate\n")
    }

    @Test(
        arguments: [
            ("redirect-no-location", "answered HTTP 302 Found without a Location to follow"),
            ("not-modified", "answered 304 Not Modified to a request that asked for no revalidation"),
        ])
    func anOddStatusIsNamed(fault: String, message: String) async throws {
        let result = try await species(fault, ["list"])
        #expect(result.status == 69)
        #expect(result.stderr == "error: \(try await server.root(fault: fault))species/ \(message)\n")
    }

    @Test func anUpperCaseSchemeIsAccepted() async throws {
        let root = try await server.root()
        let result = try await SpeciesRunner()(["--base-url", "HTTP" + root.dropFirst(4), "list"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == (try Fixtures.text("golden/list/page-1.txt")))
    }

    @Test(
        arguments: [
            ("http://127.0.0.1:65536/api/", "a port from 1 to 65535"),
            (
                "http://[::1]:8000/api/",
                "a host name or an IPv4 address (FoundationNetworking cannot request an IPv6 address literal)"
            ),
        ])
    func aRootThatCannotWorkIsAUsageError(url: String, expected: String) async throws {
        for (arguments, environment) in [(["--base-url", url, "list"], [:]), (["list"], ["SWAPI_BASE_URL": url])] {
            let result = try await SpeciesRunner()(arguments, environment: environment)
            #expect(result.status == 64)
            let source = environment.isEmpty ? "'--base-url <url>'" : "SWAPI_BASE_URL"
            #expect(
                result.stderr.hasPrefix("error: invalid value '\(url)' for \(source): expected \(expected)\n"),
                "\(result)")
        }
    }

    @Test(arguments: [
        ["--NAME"], ["list", "--NAME"], ["show", "NAME", "--offline"], ["list", "--search", "NAME", "--offline"],
        ["NAME"],
    ])
    func aHugeArgumentMakesAShortLine(template: [String]) async throws {
        let huge = String(repeating: "x", count: 100_000)
        let result = try await SpeciesRunner()(template.map { $0.replacingOccurrences(of: "NAME", with: huge) })
        #expect(result.status != 0)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("error: ") }, "\(result.stderr.prefix(300))")
        #expect(lines.allSatisfy { $0.count <= 1000 }, "\(lines.map(\.count))")
    }

    @Test func offlineAPageThatIsNotThereIsNotAServersAnswer() async throws {
        let result = try await species(nil, ["list", "--offline", "--page", "5"])
        #expect(result.status == 1)
        #expect(result.stdout == "")
        #expect(result.stderr.hasSuffix("error: page 5 does not exist; there are 4 pages\n"), "\(result)")
        #expect(!result.stderr.contains("404"))
    }

    // MARK: 9. Partial failure

    /// Issue 28: a related link that fails leaves the answer not whole.
    /// With no source left to ask, nothing is printed and the failure is
    /// the command's, in text and JSON alike (ServiceListTests shows the
    /// built-in data standing in).
    @Test(arguments: [
        ("person-500", 69, "answered HTTP 500 Internal Server Error"),
        ("person-html", 65, "did not answer with SWAPI JSON"),
    ])
    func aRelatedLinkThatFailsIsNoAnswer(fault: String, status: Int32, cause: String) async throws {
        for format in [[], ["--json"]] {
            let result = try await species(fault, ["show", "3", "--related", "--retries", "0"] + format)
            #expect(result.status == status && result.stdout == "", "\(result)")
            #expect(
                result.stderr.hasPrefix("error: \(try await server.root(fault: fault))people/13/ \(cause)"), "\(result)"
            )
            #expect(result.stderr.split(separator: "\n").count == 1)
        }
    }

    // MARK: 10. Odd states

    @Test(arguments: ["table", "tsv", "json", "jsonl"])
    func aSearchWithoutResultsPrintsNothingAndExits1(format: String) async throws {
        for pages in [[], ["--all-pages"]] {
            let result = try await species(nil, ["list", "--search", "zzzz", "--format", format] + pages)
            #expect(result.status == 1)
            #expect(result.stdout == (format == "json" ? "[]\n" : ""), "JSON is an empty array, for jq")
            #expect(result.stderr == "error: no species matches 'zzzz'\n")
        }
    }

    // MARK: Helpers

    private struct TemporaryCache {
        let folder: URL
        var environment: [String: String] { ["XDG_CACHE_HOME": folder.path] }

        func entries() throws -> [URL] {
            let species = folder.appendingPathComponent("species")
            guard FileManager.default.fileExists(atPath: species.path) else { return [] }
            return try FileManager.default.contentsOfDirectory(at: species, includingPropertiesForKeys: nil)
        }
    }

    private func temporaryCache() throws -> TemporaryCache {
        let folder = Fixtures.temporaryFolder("cache")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return TemporaryCache(folder: folder)
    }
}
