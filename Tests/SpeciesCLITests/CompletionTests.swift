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
        ("species list -o t", ["table", "tsv"]),
        ("species list -ao t", ["table", "tsv"]),
        ("species show 3 -o ", ["text", "json", "jsonl"]),
        ("species show 3 --format ", ["text", "json", "jsonl"]),
        ("species --color a", ["auto", "always"]),
        ("species list --fields name,cl", ["name,classification,"]),
        ("species list --page ", []),
        ("species cache ", ["info", "clear"]),
        ("species completions f", ["fish"]),
        ("species help s", ["show"]),
        ("species show wook", ["Wookie"]),
        ("species show kel", ["Kel\\ Dor"]),
        ("species --base-url http://x/ show yo", ["Yoda\\'s\\ species"]),
        ("species show --re", ["--related", "--retries", "--refresh"]),
        ("species cache --ti", []),
    ])
    func bashCompletes(line: String, expected: [String]) async throws {
        #expect(try await bash(line) == expected)
    }

    @Test func bashCompletesEveryNameAfterShow() async throws {
        let names = try await bash("species show ")
        #expect(names.count == 37)
        #expect(names.first == "Human")
    }

    /// bash splits `--format=js` and a URL's `:` into words of their own.
    @Test func bashWordsSplitAtEqualsAndColonAreJoinedAgain() async throws {
        let script = """
            source <(species completions bash) || exit 9
            COMP_WORDS=(species list --format = j); COMP_CWORD=4; _species; printf '%s\\n' "${COMPREPLY[@]}"
            COMP_WORDS=(species --base-url http : //x/ show kel); COMP_CWORD=6; _species; printf '%s\\n' "${COMPREPLY[@]}"
            """
        let result = try await shell("/bin/bash", ["--norc", "--noprofile", "-c", script])
        #expect(result.stdout == "json\njsonl\nKel\\ Dor\n", "\(result)")
    }

    @Test(.enabled(if: Capability.has("zsh"), "zsh is not installed"))
    func zshCompletes() async throws {
        // _describe prints what it is given; compinit is not needed.
        let script = """
            _describe() { print -rl -- ${(P)4}; (( ${@[(I)-S]} )) && print -- '(no space)' }
            compdef() { : }
            source <(species completions zsh) || exit 9
            try() { words=(${(z)1}); [[ $1 == *' ' ]] && words+=(''); CURRENT=${#words}; print "== $1"; _species }
            try 'species list --sort '
            try 'species list --'
            try 'species show wook'
            try 'species '
            try 'species show 3 -o '
            try 'species list --fields name,cl'
            """
        let result = try await shell("/usr/bin/env", ["zsh", "-f", "-c", script])
        #expect(result.status == 0, "\(result)")
        let sections = result.stdout.components(separatedBy: "== ").dropFirst().map {
            $0.split(separator: "\n").dropFirst().map { $0.split(separator: ":").first.map(String.init) ?? "" }
        }
        #expect(sections.count == 6)
        #expect(sections.first == ["name", "height", "lifespan"])
        #expect(sections.dropFirst().first?.contains("--all-pages") == true)
        #expect(sections.dropFirst().first?.contains("--offline") == true)
        #expect(sections.dropFirst(2).first == ["Wookie"])
        #expect(sections.dropFirst(3).first == ["list", "show", "cache", "completions", "help"])
        #expect(sections.dropFirst(4).first == ["text", "json", "jsonl"])
        #expect(sections.last == ["name,classification,", "(no space)"])
        #expect(result.stdout.contains("\nlist:Print one page of species, every page, or the…\n"))
    }

    /// Issue 44: zsh itself, interactive in a pseudo-terminal (`zpty`),
    /// completes a name typed in another case, as bash and fish do; the
    /// completed line is made a command that prints it.
    @Test(.enabled(if: Capability.has("zsh"), "zsh is not installed"))
    func zshCompletesANameTypedInAnotherCase() async throws {
        let script = #"""
            zmodload zsh/zpty || exit 9
            zpty -b shell zsh -f -i
            zpty -w shell 'PS1="> "; autoload -Uz compinit; compinit -u -D; source <(species completions zsh)'
            zpty -w shell 'print -r -- READY'
            zpty -r shell line '*READY*' || exit 8
            for typed in 'species show kel' 'species show WOOK' 'species show yoda'; do
                zpty -w -n shell "$typed"$'\t'
                # After the completion, the line is turned into a command that prints it, and run.
                zpty -w -n shell $'\x01print -r -- LINE:\x05\r'
                zpty -r shell line '*'$'\n''LINE:*'$'\r' || exit 7
                print -r -- ${${line##*$'\n'LINE:}%$'\r'}
            done
            zpty -d shell
            """#
        // A read that never matches would wait for ever: 30 s at most.
        let result = try await shell("/usr/bin/env", ["timeout", "30", "zsh", "-f", "-c", script])
        #expect(result.status == 0, "\(result)")
        #expect(
            result.stdout == "species show Kel Dor\nspecies show Wookie\nspecies show Yoda's species\n",
            "\(result)")
    }

    @Test(.enabled(if: Capability.has("fish"), "fish is not installed"))
    func fishCompletes() async throws {
        let script = """
            species completions fish | source; or exit 9
            for line in 'species show wook' 'species show kel' 'species list --sort ' 'species list --fields name,cl' 'species ca' 'species list --rev' \\
                    'species list --format ' 'species cache --ti' 'species list --ti' 'species show 3 -o '
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
                ["Wookie"], ["Kel Dor"], ["height", "lifespan", "name"], ["name,classification,"], ["cache"],
                ["--reverse"],
                ["csv", "json", "jsonl", "markdown", "table", "tsv"], [], ["--timeout"], ["json", "jsonl", "text"],
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

    /// Names come from the cache, else from the data built in, never from
    /// the network; a name with control characters is left out.
    @Test func namesComeFromTheCacheBeforeTheSnapshotAndNeverFromTheNetwork() async throws {
        // A server whose first page names species 1 with escape sequences.
        let server = ServerSession()
        let root = try await server.root(fault: "escape-name")
        let environment = environment.merging(["SWAPI_BASE_URL": root]) { $1 }
        let fromSnapshot = try await SpeciesRunner()(["__complete", "fish", "show", ""], environment: environment)
        #expect(fromSnapshot.status == 0, "\(fromSnapshot)")
        #expect(fromSnapshot.stdout.split(separator: "\n").first == "Human\tspecies")
        #expect(try await server.requests(fault: "escape-name") == [])

        let listed = try await SpeciesRunner()(["list", "--all-pages", "-q"], environment: environment)
        #expect(listed.status == 0)
        let fromCache = try await SpeciesRunner()(["__complete", "fish", "show", ""], environment: environment)
        let names = fromCache.stdout.split(separator: "\n")
        // The cached page 1, whose Human has control characters: left out.
        #expect(names.count == 36)
        #expect(names.first == "Droid\tspecies")
        #expect(fromCache.stderr == "")
    }

    /// Each script asks species, and holds no command, option or value of
    /// its own.
    @Test func theScriptsAskSpecies() {
        for shell in Shell.allCases {
            #expect(shell.script.contains("species __complete \(shell.rawValue)"))
            #expect(shell.script.split(separator: "\n").count < 20)
            #expect(!shell.script.contains("--all-pages") && !shell.script.contains("list"))
        }
    }
}
