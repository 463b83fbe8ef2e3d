import Foundation
import Testing
import TestSupport

private let soakRuns = ProcessInfo.processInfo.environment["SOAK_RUNS"].flatMap(Int.init)

/// `make soak`: the installed build, over HTTPS, run many times, two at a
/// time. It once ended with SIGSEGV after whole output about one run in 400
/// (swift-corelibs-foundation #5469, Sources/species/SpeciesMain.swift).
@Suite("Soak", .enabled(if: soakRuns != nil, "make soak runs it (SOAK_RUNS=N)"))
struct SoakTests {
    @Test(.timeLimit(.minutes(60)))
    func httpsRunsOfEveryPageEndWithoutASignal() async throws {
        let runs = soakRuns ?? 0
        let root = try await ServerSession(on: FixtureServer.sharedHTTPS).root()
        let species = SpeciesRunner(build: .installed, environment: TestCertificates.trusted)
        let expected = try Fixtures.text("golden/list/all-pages.txt")
        let outcomes = try await withThrowingTaskGroup(of: String.self, returning: [String: Int].self) { group in
            var outcomes: [String: Int] = [:]
            for number in 0..<runs {
                if number >= 2, let outcome = try await group.next() { outcomes[outcome, default: 0] += 1 }
                group.addTask {
                    let result = try await species(["--no-cache", "--base-url", root, "list", "--all-pages"])
                    if result.killedBySignal { return "signal \(result.status)" }
                    return result.status == 0 && result.stdout == expected
                        ? "whole output, exit 0" : "exit \(result.status)"
                }
            }
            for try await outcome in group { outcomes[outcome, default: 0] += 1 }
            return outcomes
        }
        let signals = outcomes.filter { $0.key.hasPrefix("signal") }.values.reduce(0, +)
        print(
            "soak: \(runs) HTTPS runs of the installed species list --all-pages: \(signals) signals; "
                + outcomes.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", "))
        #expect(signals == 0, "\(outcomes)")
        #expect(outcomes["whole output, exit 0"] == runs, "\(outcomes)")
    }
}
