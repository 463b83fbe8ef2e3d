import SpeciesKit

@testable import species

/// `species.1`, a man(7) page made from the same definitions as `--help`,
/// so the two cannot drift apart (`make man` rewrites it; a test compares).
/// It is made here, beside that test, as the bundle and the goldens are made
/// by Tests/Tools: the installed `species` needs only the page.
enum ManualPage {
    /// The width of an example's lines: man indents them 7 columns, and RS
    /// 4 more, within a terminal of 80.
    static let exampleWidth = 66

    /// Fixed, so that the page only changes when its text does.
    static let date = "2026-12-07"

    /// The environment variables: the options' own, then the others.
    static var environment: [(name: String, meaning: String)] {
        (Options.global + Commands.subcommands.flatMap(\.options)).uniqued().compactMap { option in
            option.environment.map {
                ($0, option.takesValue ? "As \(option.key), when it is not given." : "When 1, as \(option.key).")
            }
        } + EnvironmentVariables.others
    }

    /// The page's sections, made as help's are (`HelpSection`): every
    /// command's usage, options and examples, the global options, the
    /// environment and the exit statuses.
    static var sections: [HelpSection] {
        let commands = Commands.visibleSubcommands
        return [
            HelpSection(title: "SYNOPSIS", usage: commands + [Commands.root]),
            HelpSection(
                title: "DESCRIPTION",
                prose: [
                    "species prints the species of SWAPI, the Star Wars API, as a table, tab-separated values, CSV, a Markdown table, detail text or JSON. Results go to stdout; notices, warnings and errors to stderr, one line each, and hints and progress only at a terminal. It asks SWAPI's public services in turn (swapi.dev, swapi.py4e.com, www.swapi.tech, swapi.info), remembers the one that answered, and speaks each of their dialects. Responses are cached; when no service can answer, the cache answers, and for SWAPI's own hosts the SWAPI data built into species; --offline never uses the network."
                ]), HelpSection(title: "COMMANDS"),
        ]
            + commands.map { command in
                HelpSection(
                    title: command.path, prose: [command.abstract],
                    rows: command.arguments.map { ($0.label, $0.help) }
                        + HelpSection.rows(command.options.filter { $0 != Options.help }), usage: [command])
            } + [
                HelpSection(
                    title: "GLOBAL OPTIONS",
                    prose: [
                        "Every subcommand takes them before its name; list and show take them after it too, the others only --color, --quiet, --verbose and --version. An option wins over its environment variable."
                    ], rows: HelpSection.rows(Options.global + [Options.help])),
                HelpSection(title: "ENVIRONMENT", rows: environment.map { ($0.name, $0.meaning) }),
                HelpSection(
                    title: "FILES",
                    rows: [("~/.cache/species/", "The cache of responses, one file each (see species cache).")]),
                HelpSection(
                    title: "EXIT STATUS",
                    prose: [
                        "Every failure prints one line starting with error: on stderr; a usage error adds a line, its command's usage, and at a terminal a note that names its help. Other lines on stderr start with warning:, note: or verbose:."
                    ], rows: ExitStatus.allCases.map { (String($0.rawValue), $0.meaning) }),
                HelpSection(title: "EXAMPLES", examples: ([Commands.root] + commands).flatMap(\.examples)),
            ]
    }

    static func render() -> String {
        var page = Roff()
        page.request("TH", "SPECIES", "1", date, "species \(SpeciesRelease.version)", "User Commands")
        // Ragged right, no hyphenation: option names must survive intact.
        page.request("nh")
        page.request("ad", "l")
        page.section("NAME")
        page.text(
            "species \\- "
                + Roff.escape(
                    Commands.root.abstract.prefix(1).lowercased() + Commands.root.abstract.dropFirst().dropLast()))
        for section in sections {
            let command = section.title.hasPrefix("species ")
            page.request(command ? "SS" : "SH", section.title)
            for usage in section.usage {
                if !command { page.request("PP") }
                page.text(Roff.bold(usage.path) + " " + Roff.escape(usage.usage.joined(separator: " ")))
            }
            for prose in section.prose { page.paragraph(prose) }
            for (label, text) in section.rows {
                page.request("TP")
                // An option's names bold and its value's placeholder italic;
                // an argument italic; a variable, a status, a file bold.
                let (names, value) = (
                    label.split(separator: " <").first.map(String.init) ?? label,
                    label.split(separator: " <").dropFirst().first
                )
                page.text(
                    label.hasPrefix("-")
                        ? names.split(separator: ", ").map { Roff.bold(String($0)) }.joined(separator: ", ")
                            + (value.map { " " + Roff.italic("<" + $0) } ?? "")
                        : label.hasPrefix("<") || label.contains(" | ") ? Roff.italic(label) : Roff.bold(label))
                page.text(Roff.escape(text))
            }
            for example in section.examples {
                page.paragraph(example.description)
                page.request("RS", "4")
                page.request("nf")
                for line in example.lines(width: Self.exampleWidth) { page.text(Roff.bold(line)) }
                page.request("fi")
                page.request("RE")
            }
        }
        page.section("SEE ALSO")
        page.text(Roff.bold("jq") + "(1), " + Roff.escape("https://swapi.dev/documentation"))
        return page.text
    }
}

/// man(7) source, built a request and a line at a time.
private struct Roff {
    private(set) var text = ""

    mutating func request(_ name: String, _ arguments: String...) {
        text += "." + name
        for argument in arguments.map(Self.escape) {
            let plain = !argument.isEmpty && !argument.contains(where: { $0 == " " || $0 == "\"" })
            text += plain ? " " + argument : " \"" + argument.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }
        text += "\n"
    }

    mutating func section(_ name: String) { request("SH", name) }

    /// A line of text, already escaped; `\&` keeps a leading `.` or `'`
    /// from reading as a request.
    mutating func text(_ line: String) {
        text += (line.hasPrefix(".") || line.hasPrefix("'") ? "\\&" : "") + line + "\n"
    }

    mutating func paragraph(_ prose: String) {
        request("PP")
        text(Self.escape(prose))
    }

    static func bold(_ text: String) -> String { "\\fB" + escape(text) + "\\fR" }
    static func italic(_ text: String) -> String { "\\fI" + escape(text) + "\\fR" }

    /// Backslashes, hyphens (as `\-`, so that options copy as ASCII) and
    /// characters beyond ASCII, as roff escapes.
    static func escape(_ text: some StringProtocol) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": escaped += "\\e"
            case "-": escaped += "\\-"
            case _ where scalar.isASCII: escaped.unicodeScalars.append(scalar)
            default: escaped += "\\[u" + String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 4) + "]"
            }
        }
        return escaped
    }
}

extension String {
    fileprivate func leftPadded(to length: Int) -> String {
        String(repeating: "0", count: max(0, length - count)) + self
    }
}

extension ExitStatus {
    /// What the status says: the manual page's words, and docs/cli.md's.
    var meaning: String {
        switch self {
        case .success: "Success, also when the cache or the built-in data answered for an API that could not."
        case .nothingMatched:
            "Nothing matched: no such name, id or page, a search without results, or an ambiguous name."
        case .usage:
            "Usage error: unknown command or option, missing or malformed argument, a value of an option or its "
                + "environment variable that is not of its kind, a URL that is not a species URL of a service of "
                + "the list (its host and port, no user or password, the path exactly), a name or "
                + "search of more than 100 characters, a search without a word, a certificate variable that names "
                + "neither a file nor a folder."
        case .badData:
            "The server's answer is not SWAPI JSON, or breaks a rule of the client (a link or redirect off the API's "
                + "origin, a loop, a size cap, more than 500 header lines or 100 KiB of headers, a count of more than "
                + "500 pages, a listing that is not whole), and nothing could stand in."
        case .unavailable:
            "No service could be reached, or each timed out (--timeout), answered with an HTTP error (the last after "
                + "its retries) or was not SWAPI, and nothing could stand in."
        case .internalError:
            "A bug in species, or a build whose workarounds for FoundationNetworking are not engaged (its self-check "
                + "says which)."
        case .ioError:
            "Writing the output failed (a full disk, a closed stdout), or species cache clear could not remove an entry."
        case .interrupted: "Interrupted (Ctrl-C)."
        }
    }
}

/// Environment variables that are no option's, for the manual page.
enum EnvironmentVariables {
    static let others: [(name: String, meaning: String)] = [
        ("NO_COLOR", "When set and not empty, no colour under --color auto."),
        ("TERM", "When dumb, no colour under --color auto, and no progress line."),
        ("COLUMNS", "The width of the table; else the terminal's, else no limit."),
        (
            "XDG_CACHE_HOME, HOME",
            "The cache is $XDG_CACHE_HOME/species/ (an absolute path), else ~/.cache/species/ (HOME an existing folder's absolute path), else none."
        ),
        (
            "CURL_CA_BUNDLE, SSL_CERT_FILE",
            "A bundle of CA certificates to trust, read in place of the system's bundle, as curl and OpenSSL read it (CURL_CA_BUNDLE first); the system's folder is still read."
        ),
        (
            "SSL_CERT_DIR",
            "A folder of CA certificates to trust, as OpenSSL reads one, in place of the system's folder; the system's bundle is still read."
        ),
    ]
}
