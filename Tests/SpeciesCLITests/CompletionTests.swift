import Foundation
import Testing
import TestSupport

@testable import species

/// The completion scripts, run in the real shells with the built `species`
/// first on the PATH and an empty cache, so that names come from the data
/// built into species.
@Suite("Shell completions")
struct CompletionTests {
    /// Under the test run's home, which `make clean` removes.
    let cache = Fixtures.temporaryFolder("completion-cache")

    private var environment: [String: String] {
        let path =
            SpeciesBuild.debugFolder.path + ":"
            + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        return ChildProcess.environment(["PATH": path, "XDG_CACHE_HOME": cache.path])
    }

    private func shell(_ shell: String, _ arguments: [String]) async throws -> ProcessResult {
        try await ChildProcess.run(URL(fileURLWithPath: shell), arguments, environment: environment)
    }

    /// What bash completes for the words of `line` (the last one being
    /// completed; end the line with a space to complete a new word).
    private func bash(_ line: String) async throws -> [String] {
        var words = line.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        if words.last == nil { words.append("") }
        let array = words.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        let script = """
            source <(species completions bash) || exit 9
            COMP_WORDS=(\(array)); COMP_CWORD=\(words.count - 1); _species
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let result = try await shell("/bin/bash", ["--norc", "--noprofile", "-c", script])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr == "")
        return result.stdout.split(separator: "\n").map(String.init)
    }

    @Test(arguments: [
        ("species l", ["list"]),
        ("species ", ["list", "show", "cache", "completions", "help"]),
        ("species --offline s", ["show"]),
        ("species list --so", ["--sort"]),
        ("species list --sort ", ["name", "height", "lifespan"]),
        ("species list --format t", ["table", "tsv"]),
        ("species --color a", ["auto", "always"]),
        ("species list --fields name,cl", ["name,classification"]),
        ("species list --page ", []),
        ("species cache ", ["info", "clear"]),
        ("species completions f", ["fish"]),
        ("species help s", ["show"]),
        ("species show wook", ["Wookie"]),
        ("species show kel", ["Kel\\ Dor"]),
        ("species --base-url http://x/ show yo", ["Yoda\\'s\\ species"]),
        ("species show --re", ["--related", "--retries", "--refresh"]),
    ])
    func bashCompletes(line: String, expected: [String]) async throws {
        #expect(try await bash(line) == expected)
    }

    @Test func bashCompletesEveryNameAfterShow() async throws {
        let names = try await bash("species show ")
        #expect(names.count == 37)
        #expect(names.first == "Human")
    }

    @Test(.enabled(if: Capability.has("zsh"), "zsh is not installed"))
    func zshCompletes() async throws {
        // compadd and _describe print what they are given; compinit is not needed.
        let script = """
            compadd() { local i=${@[(i)--]}; print -rl -- ${@[i+1,-1]} }
            _describe() { print -rl -- ${(P)${@[-1]}} }
            compset() { return 1 }
            compdef() { : }
            source <(species completions zsh) || exit 9
            try() { words=(${(z)1}); [[ $1 == *' ' ]] && words+=(''); CURRENT=${#words}; PREFIX=${words[-1]}; print "== $1"; _species }
            try 'species list --sort '
            try 'species list --'
            try 'species show wook'
            try 'species '
            """
        let result = try await shell("/usr/bin/env", ["zsh", "-f", "-c", script])
        #expect(result.status == 0, "\(result)")
        let sections = result.stdout.components(separatedBy: "== ").dropFirst().map {
            $0.split(separator: "\n").map(String.init)
        }
        #expect(sections.count == 4)
        #expect(sections.first == ["species list --sort ", "name", "height", "lifespan"])
        #expect(sections.dropFirst().first?.contains("--all-pages") == true)
        #expect(sections.dropFirst().first?.contains("--offline") == true)
        // zsh matches the prefix itself, so compadd is given every name.
        #expect(sections.dropFirst(2).first?.contains("Wookie") == true)
        #expect(sections.dropFirst(2).first?.count == 38)
        #expect(
            sections.last?.contains(
                "list:Print one page of species, every page, or the first n, as a table, TSV, CSV, Markdown or JSON.")
                == true)
    }

    @Test(.enabled(if: Capability.has("fish"), "fish is not installed"))
    func fishCompletes() async throws {
        let script = """
            species completions fish | source; or exit 9
            for line in 'species show wook' 'species list --sort ' 'species list --fields name,cl' 'species ca' 'species list --rev' \\
                    'species list --format ' 'species cache --ti' 'species list --ti'
                echo "== $line"
                complete -C $line
            end
            """
        let result = try await shell("/usr/bin/env", ["fish", "--no-config", "-c", script])
        #expect(result.status == 0, "\(result)")
        let sections = result.stdout.components(separatedBy: "== ").dropFirst().map { section in
            section.split(separator: "\n").dropFirst().map { $0.split(separator: "\t").first.map(String.init) ?? "" }
        }
        #expect(
            sections == [
                ["Wookie"], ["height", "lifespan", "name"], ["name,classification,"], ["cache"],
                ["--reverse"],
                ["csv", "json", "jsonl", "markdown", "table", "tsv"], [], ["--timeout"],
            ])
        // A value carries a short description (what it is), not its option's
        // whole help; an option, the first clause of its help.
        let descriptions = result.stdout.split(separator: "\n").compactMap {
            $0.split(separator: "\t").dropFirst().first
        }
        #expect(descriptions.allSatisfy { $0.count <= 50 }, "\(result)")
        #expect(
            result.stdout.contains("\ncsv\tformat\n") && result.stdout.contains("\n--reverse\tReverse the order\n"),
            "\(result)")
    }

    @Test func namesComeFromTheCacheBeforeTheSnapshotAndNeverFromTheNetwork() async throws {
        // A server whose first page names species 1 with escape sequences.
        let server = ServerSession()
        let root = try await server.root(fault: "escape-name")
        let environment = environment.merging(["SWAPI_BASE_URL": root]) { $1 }
        let fromSnapshot = try await SpeciesRunner()(["__complete-names"], environment: environment)
        #expect(fromSnapshot.status == 0, "\(fromSnapshot)")
        #expect(fromSnapshot.stdout.split(separator: "\n").first == "Human")
        #expect(try await server.requests(fault: "escape-name") == [])

        let listed = try await SpeciesRunner()(["list", "--all-pages", "-q"], environment: environment)
        #expect(listed.status == 0)
        let fromCache = try await SpeciesRunner()(["__complete-names"], environment: environment)
        let names = fromCache.stdout.split(separator: "\n")
        // The cached page 1, whose Human has control characters: left out.
        #expect(names.count == 36)
        #expect(names.first == "Droid")
        #expect(fromCache.stderr == "")
    }

    @Test func theScriptsAreMadeFromTheCommandDefinitions() {
        for shell in Shell.allCases {
            let script = CompletionScript.render(for: shell)
            for command in Commands.visibleSubcommands {
                #expect(script.contains(command.name))
                for option in command.options + Options.global {
                    #expect(script.contains(option.key.dropFirst(2)), "\(shell) lacks \(option.key)")
                }
            }
            #expect(!script.contains("__manpage"))
        }
    }
}
