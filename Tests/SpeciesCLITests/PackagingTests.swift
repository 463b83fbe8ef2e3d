import Foundation
import SpeciesKit
import Testing
import TestSupport

/// species as others get it: installed by make, and SpeciesKit as a
/// dependency of another package.
@Suite("Install, package and use as a library", .serialized)
struct PackagingTests {
    /// A folder of this test run, under .build, which `make clean` removes.
    private static func scratch(_ name: String) throws -> URL {
        let folder = Fixtures.temporaryFolder(name)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// The fenced blocks of a Markdown file of the package, in order, each
    /// with its language (empty for none).
    private static func blocks(of path: String) throws -> [(language: Substring, text: String)] {
        var blocks: [(Substring, String)] = []
        var current: (language: Substring, lines: [Substring])?
        for line in try Fixtures.text("../" + path).split(separator: "\n", omittingEmptySubsequences: false) {
            if let block = current, line == "```" {
                blocks.append((block.language, block.lines.joined(separator: "\n") + "\n"))
                current = nil
            } else if current == nil, line.hasPrefix("```") {
                current = (line.dropFirst(3), [])
            } else {
                current?.lines.append(line)
            }
        }
        return blocks
    }

    /// The URL the article's manifest names, which a user replaces with the
    /// one they cloned from.
    static let exampleURL = "https://example.org/you/species.git"

    /// What the getting-started article says, from a fresh clone in a folder
    /// of another name than this one's (named `species`, as the manifest's
    /// `package:` says): its whole manifest, depending on the clone by its
    /// git URL at `main`, with its code in `Sources/Example/main.swift`,
    /// built and run. It prints what the article says. (The README links to
    /// the article, and shows no code of its own.)
    @Test(.timeLimit(.minutes(10)))
    func theGettingStartedExampleBuildsAndRunsInAPackageOfItsOwn() async throws {
        #expect(try Self.blocks(of: "README.md").allSatisfy { $0.language != "swift" })
        let article = try Self.blocks(of: "Sources/SpeciesKit/SpeciesKit.docc/GettingStarted.md")
        let articleSwift = article.filter { $0.language == "swift" }.map(\.text)
        try #require(articleSwift.count == 2, "the article shows Package.swift, then main.swift")
        let clone = try Self.scratch("fresh").appendingPathComponent("elsewhere/species")
        let cloned = try await Self.command(["git", "clone", "-q", Fixtures.packageRoot.path, clone.path])
        try #require(cloned.status == 0, "\(cloned)")
        // The clone's main branch, whatever this checkout's branch is called.
        _ = try await Self.command(["git", "-C", clone.path, "checkout", "-q", "-B", "main"])
        let package = try Self.scratch("Example")
        let sources = package.appendingPathComponent("Sources/Example")
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)

        let root = try await ServerSession().root()
        /// Builds the package with `manifest` and `code`, and runs it.
        func run(manifest: String, code: String) async throws -> ProcessResult {
            try Data(manifest.replacingOccurrences(of: Self.exampleURL, with: clone.absoluteString).utf8)
                .write(to: package.appendingPathComponent("Package.swift"))
            try Data(code.utf8).write(to: sources.appendingPathComponent("main.swift"))
            let build = try await Self.command(["swift", "build", "--package-path", package.path], timeout: 540)
            try #require(build.status == 0, "\(build)")
            return try await ChildProcess.run(
                package.appendingPathComponent(".build/debug/Example"), [],
                environment: ChildProcess.environment(["SWAPI_BASE_URL": root]))
        }

        let started = try await run(manifest: articleSwift[0], code: articleSwift[1])
        let printed = try #require(article.first { $0.language.isEmpty }, "the article shows what it prints").text
        #expect(started.status == 0, "\(started)")
        #expect(started.stdout == printed.replacingOccurrences(of: "<SWAPI_BASE_URL>", with: root), "\(started)")
    }

    /// Runs a command found on the PATH, with the tests' environment.
    private static func command(_ arguments: [String], environment extra: [String: String] = [:], timeout: Double = 60)
        async throws -> ProcessResult
    {
        try await ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/env"), arguments, environment: ChildProcess.environment(extra),
            timeout: timeout)
    }

    /// Runs `make` in the package with the release build the installed
    /// species came from, so that nothing is built twice.
    private static func make(_ arguments: [String]) async throws -> ProcessResult {
        _ = try SpeciesBuild.installed.url
        return try await command(
            ["make", "-s", "-C", Fixtures.packageRoot.path] + arguments + ["SCRATCH=\(SpeciesBuild.scratch.path)"],
            timeout: 540)
    }

    /// The files under `folder`, as paths relative to it, sorted.
    private static func files(under folder: URL) throws -> [String] {
        try FileManager.default.subpathsOfDirectory(atPath: folder.path).filter { path in
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(
                atPath: folder.appendingPathComponent(path).path, isDirectory: &isFolder)
                && !isFolder.boolValue
        }.sorted()
    }

    /// What `--version` of a build made by `make` must say: the version, this
    /// checkout's commit, and a date.
    private static func expectBuildVersion(_ output: String, sourceLocation: SourceLocation = #_sourceLocation)
        async throws
    {
        let head = try await command(["git", "-C", Fixtures.packageRoot.path, "rev-parse", "--short=7", "HEAD"])
        let commit = head.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let match = output.wholeMatch(
            of: #/species (?<version>[0-9.]+) \((?<commit>[0-9a-f]+)(-dirty)?, (?<date>\d{4}-\d{2}-\d{2})\)\n/#)
        #expect(match?.output.version == Substring(SpeciesRelease.version), "\(output)", sourceLocation: sourceLocation)
        #expect(match?.output.commit == Substring(commit), "\(output)", sourceLocation: sourceLocation)
    }

    static let installedFiles = [
        "bin/species", "share/bash-completion/completions/species", "share/doc/species/LICENSE",
        "share/doc/species/LICENSE.swapi-data", "share/doc/species/README.md",
        "share/fish/vendor_completions.d/species.fish",
        "share/man/man1/species.1", "share/zsh/site-functions/_species",
    ]

    /// `make test` leaves the debug build that `make run` runs: one that
    /// knows its commit and date.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["SPECIES_MAKE"] == "1", "only make test builds so"))
    func theDebugBuildOfMakeTestKnowsItsCommit() async throws {
        try await Self.expectBuildVersion(try await SpeciesRunner()(["--version"]).stdout)
    }

    @Test(.timeLimit(.minutes(10)))
    func installPutsOneExecutableItsPageCompletionsAndDocsAndUninstallTakesThemAway() async throws {
        let prefix = try Self.scratch("prefix")
        let install = try await Self.make(["install", "PREFIX=\(prefix.path)"])
        try #require(install.status == 0, "\(install)")
        #expect(try Self.files(under: prefix) == Self.installedFiles)
        let version = try await SpeciesRunner(build: .at(prefix.appendingPathComponent("bin/species")))(["--version"])
        try await Self.expectBuildVersion(version.stdout)
        let symbols = try await Self.command(["nm", prefix.appendingPathComponent("bin/species").path])
        #expect(symbols.stderr.contains("no symbols"), "stripped")
        // The folder is on no PATH: install says the line that puts it there.
        let line = "export PATH=\"\(prefix.path)/bin:$PATH\""
        #expect(install.stdout.contains("your PATH does not hold \(prefix.path)/bin; add to ~/.profile: \(line)\n"))
        let found = try await Self.command(["sh", "-c", "\(line); command -v species"])
        #expect(found.stdout == "\(prefix.path)/bin/species\n", "\(found)")

        let uninstall = try await Self.make(["uninstall", "PREFIX=\(prefix.path)"])
        #expect(uninstall.status == 0, "\(uninstall)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: prefix.path) == [])
    }

    /// A prefix no shell searches: install names each shell that will not
    /// look there and the line to add, and that line makes the shell find
    /// species' completions.
    private static func installWhereNoShellLooks(
        _ shell: String, hint: (_ share: String) -> String, finds: (_ share: String) -> [String]
    ) async throws -> ProcessResult {
        let prefix = try scratch("hints-\(shell)")
        let install = try await make(["install", "PREFIX=\(prefix.path)"])
        try #require(install.status == 0, "\(install)")
        let share = prefix.appendingPathComponent("share").path
        #expect(install.stdout.contains(hint(share)), "\(install)")
        let found = try await command(
            finds(share), environment: ["PATH": prefix.appendingPathComponent("bin").path + ":/usr/bin:/bin"])
        _ = try await make(["uninstall", "PREFIX=\(prefix.path)"])
        return found
    }

    private static func dataDirectories(_ share: String) -> String {
        "export XDG_DATA_DIRS=\"\(share):${XDG_DATA_DIRS:-/usr/local/share:/usr/share}\""
    }

    @Test(.enabled(if: Capability.has("zsh"), "zsh is not installed"), .timeLimit(.minutes(10)))
    func installSaysTheLineThatMakesZshFindTheCompletions() async throws {
        func line(_ share: String) -> String { "fpath=(\(share)/zsh/site-functions $fpath)" }
        let found = try await Self.installWhereNoShellLooks(
            "zsh",
            hint: { "zsh does not look in \($0)/zsh/site-functions; add to ~/.zshrc, before compinit: \(line($0))\n" },
            finds: {
                [
                    "zsh", "-fc",
                    "\(line($0)); autoload -U compinit; compinit -u -d \($0)/.zcompdump; print -r -- $_comps[species]",
                ]
            })
        #expect(found.stdout == "_species\n", "\(found)")
    }

    @Test(.enabled(if: Capability.has("fish"), "fish is not installed"), .timeLimit(.minutes(10)))
    func installSaysTheLineThatMakesFishFindTheCompletions() async throws {
        let found = try await Self.installWhereNoShellLooks(
            "fish",
            hint: {
                "fish does not look in \($0)/fish/vendor_completions.d; add to ~/.profile: \(Self.dataDirectories($0))\n"
            },
            // fish reads XDG_DATA_DIRS at start-up, in its own config.fish.
            finds: {
                [
                    "sh", "-c",
                    "\(Self.dataDirectories($0)); exec fish --no-config -c 'source $__fish_data_dir/config.fish; complete -C \"species --verb\"'",
                ]
            })
        #expect(found.stdout.hasPrefix("--verbose\t"), "\(found)")
    }

    @Test(
        .enabled(
            if: FileManager.default.fileExists(atPath: "/usr/share/bash-completion/bash_completion"),
            "bash-completion is not installed"), .timeLimit(.minutes(10)))
    func installSaysTheLineThatMakesBashFindTheCompletions() async throws {
        let found = try await Self.installWhereNoShellLooks(
            "bash",
            hint: {
                "bash-completion does not look in \($0)/bash-completion/completions; add to ~/.profile: \(Self.dataDirectories($0))\n"
            },
            finds: {
                [
                    "bash", "--norc", "-c",
                    "\(Self.dataDirectories($0)); source /usr/share/bash-completion/bash_completion; __load_completion species; complete -p species",
                ]
            })
        #expect(found.stdout.contains("species"), "\(found)")
    }

    private struct MakeFailed: Error, CustomStringConvertible {
        let description: String
    }

    /// `make dist`, then `make deb` where dpkg-deb is, once for the suite,
    /// into a folder of their own.
    private static let packages = Task { () throws -> URL in
        let folder = try scratch("dist")
        let dist = try await make(["dist", "DIST=\(folder.path)"])
        guard dist.status == 0 else { throw MakeFailed(description: "make dist failed: \(dist)") }
        if Capability.has("dpkg-deb") {
            let deb = try await make(["deb", "DIST=\(folder.path)"])
            guard deb.status == 0 else { throw MakeFailed(description: "make deb failed: \(deb)") }
        }
        return folder
    }

    private static var architecture: String {
        var name = utsname()
        uname(&name)
        return withUnsafeBytes(of: &name.machine) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }

    @Test(.timeLimit(.minutes(10)))
    func theTarballHoldsWhatInstallPutsWithItsChecksum() async throws {
        let folder = try await Self.packages.value
        let name = "species-\(SpeciesRelease.version)-linux-\(Self.architecture)"
        let tarball = folder.appendingPathComponent("\(name).tar.gz").path
        let sums = try String(contentsOf: folder.appendingPathComponent("SHA256SUMS"), encoding: .utf8)
        #expect(sums.split(separator: "\n").contains { $0.hasSuffix("  \(name).tar.gz") })
        let check = try await Self.command(["sh", "-c", "cd '\(folder.path)' && sha256sum -c SHA256SUMS"])
        #expect(check.status == 0 && check.stdout.contains("\(name).tar.gz: OK"), "\(check)")

        let listing = try await Self.command(["tar", "-tvzf", tarball])
        let entries = listing.stdout.split(separator: "\n")
        #expect(entries.allSatisfy { $0.contains(" 0/0 ") }, "owned by root, by number: \(listing)")
        let paths = entries.compactMap { $0.split(separator: " ").last.map(String.init) }.filter { !$0.hasSuffix("/") }
        #expect(paths == Self.installedFiles.map { "\(name)/\($0)" })

        // As the README says: into a prefix, one folder stripped.
        let prefix = try Self.scratch("untarred")
        let untar = try await Self.command(["tar", "-xzf", tarball, "-C", prefix.path, "--strip-components=1"])
        #expect(untar.status == 0, "\(untar)")
        #expect(try Self.files(under: prefix) == Self.installedFiles)
        let species = SpeciesRunner(build: .at(prefix.appendingPathComponent("bin/species")))
        try await Self.expectBuildVersion(try await species(["--version"]).stdout)
        let listed = try await species([
            "list", "--offline", "-q", "--limit", "2", "--format", "csv", "--fields", "name,height",
        ])
        #expect(listed.stdout == "name,height\r\nHuman,180\r\nDroid,\r\n", "\(listed)")
    }

    @Test(.enabled(if: Capability.has("dpkg-deb"), "dpkg-deb is not installed"), .timeLimit(.minutes(10)))
    func theDebianPackagePutsFilesWhereDebiansShellsLook() async throws {
        let folder = try await Self.packages.value
        let architecture = try await Self.command(["dpkg", "--print-architecture"]).stdout.trimmingCharacters(
            in: .whitespacesAndNewlines)
        let deb = folder.appendingPathComponent("species_\(SpeciesRelease.version)_\(architecture).deb").path
        let sums = try String(contentsOf: folder.appendingPathComponent("SHA256SUMS"), encoding: .utf8)
        #expect(sums.contains("  species_\(SpeciesRelease.version)_\(architecture).deb\n"))

        let fields = try await Self.command([
            "dpkg-deb", "-f", deb, "Package", "Version", "Architecture", "Depends", "Maintainer",
        ])
        var control: [String: String] = [:]
        for line in fields.stdout.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            control[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        #expect(control["Package"] == "species")
        #expect(control["Version"] == SpeciesRelease.version)
        #expect(control["Architecture"] == architecture)
        let depends = control["Depends"]?.components(separatedBy: ", ") ?? []
        #expect(depends.contains("libcurl4") && depends.contains("libc6"), "\(fields)")
        #expect(control["Maintainer"]?.isEmpty == false)

        let contents = try await Self.command(["dpkg-deb", "-c", deb])
        let paths = contents.stdout.split(separator: "\n").compactMap { line in
            line.split(separator: " ").last.map(String.init)
        }
        .filter { path in !path.hasSuffix("/") }.sorted()
        #expect(
            paths == [
                "./usr/bin/species", "./usr/share/bash-completion/completions/species",
                "./usr/share/doc/species/README.md",
                "./usr/share/doc/species/changelog.gz", "./usr/share/doc/species/copyright",
                "./usr/share/fish/vendor_completions.d/species.fish",
                "./usr/share/man/man1/species.1.gz", "./usr/share/zsh/vendor-completions/_species",
            ], "\(contents)")
        #expect(contents.stdout.split(separator: "\n").allSatisfy { $0.contains(" root/root ") })

        let unpacked = try Self.scratch("deb")
        let extract = try await Self.command(["dpkg-deb", "-x", deb, unpacked.path])
        #expect(extract.status == 0, "\(extract)")
        let species = SpeciesRunner(build: .at(unpacked.appendingPathComponent("usr/bin/species")))
        try await Self.expectBuildVersion(try await species(["--version"]).stdout)
        let shown = try await species(["show", "3", "--offline", "-q"])
        #expect(shown.stdout == (try Fixtures.text("golden/show/3.txt")), "\(shown)")
        let page = try await Self.command(["sh", "-c", "gzip -dc '\(unpacked.path)/usr/share/man/man1/species.1.gz'"])
        #expect(page.stdout == (try Fixtures.text("../Sources/species/species.1")))
        let copyright = try String(
            contentsOf: unpacked.appendingPathComponent("usr/share/doc/species/copyright"), encoding: .utf8)
        #expect(
            copyright.contains(try Fixtures.text("swapi-data/LICENSE")),
            "the SWAPI data's licence travels with its copy")
        let md5sums = try await Self.command(["dpkg-deb", "-I", deb, "md5sums"])
        #expect(md5sums.stdout.split(separator: "\n").contains { $0.hasSuffix("  usr/bin/species") }, "\(md5sums)")
    }

    /// Debian's own checker finds no error (what it still notes is in
    /// docs/releases.md).
    @Test(.enabled(if: Capability.has("lintian"), "lintian is not installed"))
    func lintianFindsNoError() async throws {
        let folder = try await Self.packages.value
        let deb = try #require(
            try FileManager.default.contentsOfDirectory(atPath: folder.path).first { $0.hasSuffix(".deb") })
        let result = try await Self.command(
            ["lintian", "--fail-on", "error", folder.appendingPathComponent(deb).path], timeout: 300)
        #expect(result.status == 0, "\(result)")
        #expect(!result.stdout.contains("\nE: ") && !result.stdout.hasPrefix("E: "), "\(result)")
    }

    /// dpkg -i into a throwaway root that knows this machine's packages, so
    /// that Depends is checked against them; then dpkg -r.
    @Test(
        .enabled(
            if: Capability.has("dpkg-deb") && Capability.has("dpkg")
                && FileManager.default.fileExists(atPath: "/var/lib/dpkg/status"),
            "dpkg, dpkg-deb or its database in /var/lib/dpkg is missing: this machine does not install packages with dpkg"
        ),
        .timeLimit(.minutes(10)))
    func dpkgInstallsAndRemovesThePackage() async throws {
        let folder = try await Self.packages.value
        let deb = try FileManager.default.contentsOfDirectory(atPath: folder.path).first { $0.hasSuffix(".deb") }
        let package = folder.appendingPathComponent(try #require(deb)).path
        let root = try Self.scratch("dpkg-root")
        let database = root.appendingPathComponent("var/lib/dpkg")
        for name in ["info", "updates"] {
            try FileManager.default.createDirectory(
                at: database.appendingPathComponent(name), withIntermediateDirectories: true)
        }
        try FileManager.default.copyItem(
            atPath: "/var/lib/dpkg/status", toPath: database.appendingPathComponent("status").path)
        let dpkg = ["dpkg", "--root=\(root.path)", "--force-not-root", "--log=/dev/null"]

        let install = try await Self.command(dpkg + ["-i", package])
        #expect(install.status == 0, "\(install)")
        #expect(install.stdout.contains("Setting up species (\(SpeciesRelease.version))"), "\(install)")
        let listed = try await Self.command(dpkg + ["-L", "species"])
        #expect(listed.stdout.split(separator: "\n").contains("/usr/bin/species"), "\(listed)")
        let species = root.appendingPathComponent("usr/bin/species")
        try await Self.expectBuildVersion(try await SpeciesRunner(build: .at(species))(["--version"]).stdout)

        let remove = try await Self.command(dpkg + ["-r", "species"])
        #expect(remove.status == 0, "\(remove)")
        #expect(!FileManager.default.fileExists(atPath: species.path))
    }
}
