import Testing
import TestSupport

/// The workarounds of Sources/URLSessionFixes are linked in the debug build
/// and the installed one alike, though each takes another way to
/// FoundationNetworking's calls.
@Suite("Self-check of the platform workarounds")
struct SelfCheckTests {
    @Test(arguments: SpeciesBuild.allCases)
    func everyWorkaroundIsEngaged(build: SpeciesBuild) async throws {
        let result = try await SpeciesRunner(build: build)(["__selfcheck"])
        #expect(result.status == 0, "\(result)")
        #expect(
            result.stdout
                == "socket-callback wrapper: engaged\nContent-Length bound: engaged\nheaders-open check: engaged\n"
                + "transfer end: engaged\n")
        #expect(result.stderr == "")
    }
}
