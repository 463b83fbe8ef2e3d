import SpeciesKit

/// `species.1`, a man(7) page made from the same definitions as `--help`,
/// so the two cannot drift apart (`make man` rewrites it; a test compares).
enum ManualPage {
    /// The width of an example's lines: man indents them 7 columns, and RS
    /// 4 more, within a terminal of 80.
    static let exampleWidth = 66

    /// Fixed, so that the page only changes when its text does.
    static let date = "2026-11-21"

    /// The environment variables: the options' own, then the others.
    static var environment: [(name: String, meaning: String)] {
        (Options.global + Commands.subcommands.flatMap(\.options)).uniqued().compactMap { option in
            option.environment.map {
                ($0, option.takesValue ? "As \(option.key), when it is not given." : "When 1, as \(option.key).")
            }
        } + EnvironmentVariables.others
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

        page.section("SYNOPSIS")
        for command in Commands.visibleSubcommands + [Commands.root] {
            page.request("PP")
            page.synopsis(command)
        }

        page.section("DESCRIPTION")
        page.paragraph(
            "species prints the species of SWAPI, the Star Wars API, as a table, tab-separated values, CSV, a Markdown table, detail text or JSON. Results go to stdout; hints, progress, warnings and errors to stderr, one line each. It asks SWAPI's public services in turn (swapi.dev, swapi.py4e.com, www.swapi.tech, swapi.info), remembers the one that answered, and speaks each of their dialects. Responses are cached; when no service can answer, the cache answers, and for SWAPI's own hosts the SWAPI data built into species; --offline never uses the network."
        )

        page.section("COMMANDS")
        for command in Commands.visibleSubcommands {
            page.request("SS", command.path)
            page.synopsis(command)
            page.paragraph(command.abstract)
            for argument in command.arguments {
                page.request("TP")
                page.text(Roff.italic(argument.label))
                page.text(Roff.escape(argument.help))
            }
            for option in command.options where option != Options.help {
                page.option(option)
            }
        }

        page.section("GLOBAL OPTIONS")
        page.paragraph(
            "Every subcommand takes them before its name, and ignores those that mean nothing to it; list and show take them after it too. An option wins over its environment variable."
        )
        for option in Options.global + [Options.help] {
            page.option(option)
        }

        page.section("ENVIRONMENT")
        for (name, meaning) in environment {
            page.request("TP")
            page.text(Roff.bold(name))
            page.text(Roff.escape(meaning))
        }

        page.section("FILES")
        page.request("TP")
        page.text(Roff.italic("~/.cache/species/"))
        page.text(Roff.escape("The cache of responses, one file each (see species cache)."))

        page.section("EXIT STATUS")
        page.paragraph("Every failure prints one line starting with error: on stderr.")
        for status in ExitStatus.allCases {
            page.request("TP")
            page.text(Roff.bold(String(status.rawValue)))
            page.text(Roff.escape(status.meaning))
        }

        page.section("EXAMPLES")
        for command in [Commands.root] + Commands.visibleSubcommands {
            for example in command.examples {
                page.paragraph(example.description)
                page.request("RS", "4")
                page.request("nf")
                for line in example.lines(width: Self.exampleWidth) {
                    page.text(Roff.bold(line))
                }
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

    mutating func section(_ name: String) {
        request("SH", name)
    }

    /// A line of text, already escaped; `\&` keeps a leading `.` or `'`
    /// from reading as a request.
    mutating func text(_ line: String) {
        text += (line.hasPrefix(".") || line.hasPrefix("'") ? "\\&" : "") + line + "\n"
    }

    mutating func paragraph(_ prose: String) {
        request("PP")
        text(Self.escape(prose))
    }

    /// `species list [--page <n>] ...`: the command bold, the rest plain.
    mutating func synopsis(_ command: CommandDefinition) {
        text(Self.bold(command.path) + (command.usage.isEmpty ? "" : " " + Self.escape(command.usage)))
    }

    /// `-q, --quiet` or `--page <n>`, then its help, as a tagged paragraph.
    mutating func option(_ option: OptionDefinition) {
        request("TP")
        text(
            option.names.map(Self.bold).joined(separator: ", ")
                + (option.valueName.map { " " + Self.italic("<\($0)>") } ?? ""))
        text(Self.escape(option.help))
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
