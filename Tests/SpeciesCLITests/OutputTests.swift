import Foundation
import SpeciesKit
import Testing
import TestSupport

@testable import species

/// Where the output goes, and how species ends: a full disk, a closed or
/// non-blocking stdout, a closed pipe, Ctrl-C, and no exit handler run.
@Suite("Output, signals and the end of a run")
struct OutputTests {
    let server = ServerSession()
    let https = ServerSession(on: FixtureServer.sharedHTTPS)
    /// A server of this suite's own, whose huge page holds 2,000 species
    /// (1.4 MB as JSON lines).
    static let hugePages = Task { try await FixtureServer.start(["--huge-page", "2000"]) }
    let session = ServerSession(on: OutputTests.hugePages)

    /// Without the fallback, which a failing server would otherwise try.
    private var species: SpeciesRunner { SpeciesRunner(server, fallback: false) }

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

    /// A parent that leaves its pipe non-blocking, and reads it only once
    /// species has filled it: every line arrives, exit 0 (before: exit 74
    /// after 65,536 bytes).
    @Test(arguments: SpeciesBuild.allCases)
    func aNonBlockingPipeGetsEveryLine(build: SpeciesBuild) async throws {
        let script = """
            import array, fcntl, json, os, subprocess, sys, termios, time
            read, write = os.pipe()
            fcntl.fcntl(write, fcntl.F_SETFL, fcntl.fcntl(write, fcntl.F_GETFL) | os.O_NONBLOCK)
            child = subprocess.Popen(sys.argv[1:], stdout=write, stderr=subprocess.PIPE)
            os.close(write)
            capacity, waiting = fcntl.fcntl(read, 1032), array.array("i", [0])  # F_GETPIPE_SZ
            while fcntl.ioctl(read, termios.FIONREAD, waiting) == 0 and waiting[0] < capacity and child.poll() is None:
                time.sleep(0.01)
            with os.fdopen(read, "rb") as pipe:
                output = pipe.read()
            print(json.dumps({"status": child.wait(), "lines": output.count(b"\\n"), "stderr": child.stderr.read().decode()}))
            """
        let result = try await SpeciesRunner(session, options: ["--no-cache"], build: build)(
            "huge-page", ["list", "--all-pages", "--jsonl"], through: { ["python3", "-c", script, $0] })
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result)")
        #expect(report["status"] as? Int == 0 && report["lines"] as? Int == 2000, "\(report)")
    }

    @Test func aFailedPageLeavesEveryFormatEmpty() async throws {
        let root = try await server.root(fault: "page3-500")
        let error = "error: \(root)species/?page=3 answered HTTP 500 Internal Server Error\n"
        for format in ["--json", "--jsonl", "--all-pages"] {
            let arguments = ["list", "--all-pages", "--retries", "0"] + (format == "--all-pages" ? [] : [format])
            let result = try await species("page3-500", arguments)
            #expect(result.status == 69)
            #expect(result.stderr == error)
            #expect(result.stdout == "")
        }
    }

    @Test func ctrlCEndsItAtOnceWithoutAStackTrace() async throws {
        let fault = "hang"
        // SIGINT and SIGPIPE at their defaults, whatever the test runner's
        // are, so that the test interrupts it as Ctrl-C would.
        let reset =
            "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); "
            + "signal.signal(signal.SIGPIPE, signal.SIG_DFL); os.execv(sys.argv[1], sys.argv[1:])"
        let process = try await species.start(
            fault, ["list", "--timeout", "60"], through: { ["python3", "-c", reset, $0] })
        _ = try await server.requests(fault: fault, atLeast: 1)
        process.signal(SIGINT)
        let result = try await process.result()
        #expect(
            result.killedBySignal && result.status == SIGINT, "the shell reports this as exit status 130: \(result)")
        #expect(result.stderr == "")
        #expect(result.stdout == "")
    }

    @Test func aClosedPipeEndsItQuietly() async throws {
        let script = "\"$0\" \"$@\" | head -1; echo \"status ${PIPESTATUS[0]}\" >&2"
        let result = try await species(
            "big-page", ["list", "--all-pages", "--jsonl"], through: { ["bash", "-c", script, $0] })
        #expect(result.stdout.hasPrefix(#"{"id":1,"name":"Human 1","#))
        #expect(result.stdout.split(separator: "\n").count == 1)
        #expect(result.stderr == "status 141\n", "killed by SIGPIPE, with nothing written on stderr")
    }

    /// OpenSSL's cleanup, one of C's exit handlers, raced FoundationNetworking's
    /// own at exit (swift-corelibs-foundation #5469): SIGSEGV after whole
    /// output, about one HTTPS run in 400. species runs no exit handlers.
    @Test(arguments: SpeciesBuild.allCases)
    func noExitHandlerRunsAtExit(build: SpeciesBuild) async throws {
        let library = try await PreloadLibrary.built("exit_handlers")
        let root = try await https.root()
        for arguments in [
            ["--version"], ["--no-cache", "--base-url", root, "list", "--all-pages"],
            ["--no-fallback", "--base-url", "http://127.0.0.1:\(SelfCheckCommand.closedPort() ?? 9)/api/", "list"],
        ] {
            let result = try await SpeciesRunner(build: build)(
                arguments, environment: TestCertificates.trusted.merging(["LD_PRELOAD": library.path]) { $1 })
            #expect(!result.killedBySignal, "\(result)")
            #expect(!result.stderr.contains("exit handlers ran"), "\(arguments): \(result)")
        }
        let ordinary = try await ChildProcess.run(
            URL(fileURLWithPath: "/bin/true"), [], environment: ChildProcess.environment(["LD_PRELOAD": library.path]))
        #expect(ordinary.stderr == "exit handlers ran\n", "the library works")
    }
}
