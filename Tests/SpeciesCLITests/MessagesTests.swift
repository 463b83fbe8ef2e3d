import Foundation
import SpeciesKit
import Testing
import TestSupport

@testable import species

/// What species says when something is wrong: one short line, the cause
/// kept whole, never a password, and a usage error for a value that
/// cannot work.
@Suite("Messages and secrets")
struct MessagesTests {
    let server = ServerSession()

    /// Without the cache or the fallback, which a failing server would
    /// otherwise try.
    private var uncached: SpeciesRunner { SpeciesRunner(server, options: ["--no-cache"], fallback: false) }

    /// The installed species, without the cache.
    private func installed(_ arguments: [String], environment: [String: String] = [:]) async throws -> ProcessResult {
        try await SpeciesRunner(build: .installed)(["--no-cache"] + arguments, environment: environment)
    }

    @Test func credentialsNeverReachAMessageOrTheDisk() async throws {
        let cache = try TemporaryCache()
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
            stderr.contains("note: retry 1 of 3 in ")
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

    @Test func aLimitPastAnyNumberIsTooLarge() async throws {
        let result = try await installed(["list", "--limit", "99999999999999999999"])
        #expect(result.status == 64)
        #expect(
            result.stderr.hasPrefix(
                "error: invalid value '99999999999999999999' for '--limit <n>': expected a smaller number, at most 9223372036854775807\n"
            ))
    }

    @Test func aPasswordInAnArgumentNeverShows() async throws {
        let result = try await SpeciesRunner()(["show", "http://alice:s3cr3t@host/api/planets/1/"])
        #expect(result.status == 64)
        #expect(!result.stderr.contains("s3cr3t") && !result.stderr.contains("alice"))
        #expect(result.stderr.hasPrefix("error: 'http://***@host/api/planets/1/' is not a species URL of this API"))
    }

    /// A name or search longer than any SWAPI name is refused, in a short
    /// line, and nothing is asked.
    @Test func aLongNameOrSearchIsRefusedUnasked() async throws {
        let long = String(repeating: "x", count: 2_000)
        let session = ServerSession()
        for arguments in [["list", "--search", long], ["show", long]] {
            let result = try await SpeciesRunner(session)(arguments)
            #expect(result.status == 64 && result.stdout == "", "\(result)")
            #expect(
                result.stderr.hasPrefix("error: a name or search is at most 100 characters, not 2000\n"), "\(result)")
        }
        #expect(try await session.requests().isEmpty)
    }

    @Test(arguments: ["127.1", "2130706433", "0x7f.0.0.1", "127.000.000.001"])
    func anOddSpellingOfAnAddressIsAUsageError(host: String) async throws {
        let result = try await SpeciesRunner()(["--base-url", "http://\(host):8000/api/", "list"])
        #expect(result.status == 64)
        #expect(
            result.stderr.hasPrefix(
                "error: invalid value 'http://\(host):8000/api/' for '--base-url <url>': expected a host name or an IPv4 address "
                    + "written as four numbers from 0 to 255 (FoundationNetworking cannot request '\(host)')\n"))
    }
}
