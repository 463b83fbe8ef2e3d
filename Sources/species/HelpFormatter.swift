import SpeciesKit

/// What help and the manual page say, as the one model both are made of: a
/// section's title, its prose, its rows (a label and its text), the usage
/// lines of commands, and examples. Each renders it in its own way
/// (`HelpFormatter`; the manual page's maker, in the tests).
struct HelpSection {
    var title: String
    var prose: [String] = []
    var rows: [(label: String, text: String)] = []
    var usage: [CommandDefinition] = []
    var examples: [Example] = []

    static func rows(_ options: [OptionDefinition]) -> [(label: String, text: String)] {
        options.map { ($0.label, $0.help) }
    }

    /// A command's help: OVERVIEW, USAGE, ARGUMENTS, OPTIONS, the global
    /// options in one block, EXAMPLES; the root's lists its SUBCOMMANDS,
    /// explains the options people use most, then MORE OPTIONS.
    static func help(for command: CommandDefinition) -> [HelpSection] {
        var sections = [
            HelpSection(title: "OVERVIEW", prose: [command.abstract]), HelpSection(title: "USAGE", usage: [command]),
        ]
        if !command.arguments.isEmpty {
            sections.append(HelpSection(title: "ARGUMENTS", rows: command.arguments.map { ($0.label, $0.help) }))
        }
        if command == Commands.root {
            sections += [
                HelpSection(
                    title: "SUBCOMMANDS", prose: ["See '\(command.path) help <subcommand>' for detailed help."],
                    rows: Commands.visibleSubcommands.map { ($0.name, $0.abstract) }),
                HelpSection(title: "OPTIONS", rows: rows(Options.everyday)),
                HelpSection(
                    title: "MORE OPTIONS", rows: rows(command.options.filter { !Options.everyday.contains($0) })),
            ]
        } else {
            let globals = Invocation.parser.options(of: command).filter { Options.global.contains($0) }
            sections += [
                HelpSection(title: "OPTIONS", rows: rows(command.options)),
                HelpSection(
                    title: "GLOBAL OPTIONS",
                    prose: [
                        globals.map { $0.names.joined(separator: "/") }.joined(separator: ", ")
                            + "; see 'species --help'."
                    ]),
            ]
        }
        return sections + (command.examples.isEmpty ? [] : [HelpSection(title: "EXAMPLES", examples: command.examples)])
    }
}

/// Help text in swift-argument-parser's layout: sections under titles,
/// labels in a margin, wrapped to `width`.
struct HelpFormatter {
    /// Help wraps at the terminal's width, or `COLUMNS`, within these:
    /// narrower, labels and text would not fit side by side; wider, lines
    /// grow too long to read (clap's bound too).
    static let widths = 40...100
    static let standardWidth = 80

    let width: Int
    /// Where the help of each option begins.
    private var margin: Int { min(26, width / 3) }

    init(width: Int = standardWidth) { self.width = min(max(width, Self.widths.lowerBound), Self.widths.upperBound) }

    func render(_ sections: [HelpSection]) -> String {
        sections.map { section in
            // The overview is one paragraph after its title.
            if section.title == "OVERVIEW" {
                return wrap("OVERVIEW: " + section.prose.joined(), width: width).joined(separator: "\n")
            }
            if !section.usage.isEmpty {
                return section.usage.map { usage($0, label: "USAGE:") }.joined(separator: "\n")
            }
            var lines = [section.title + ":"]
            lines += rows(section.rows)
            lines += section.prose.flatMap {
                (section.rows.isEmpty ? [] : [""]) + wrap($0, width: width - 2).map { "  " + $0 }
            }
            for example in section.examples {
                lines += wrap(example.description, width: width - 2).map { "  " + $0 }
                lines += example.lines(width: width - 4).map { "    " + $0 }
            }
            return lines.joined(separator: "\n")
        }.joined(separator: "\n\n") + "\n"
    }

    /// The usage line, wrapped between whole groups, with continuation
    /// lines aligned after the command's name, or four spaces in when a
    /// group would not fit there. A group wider than a line is wrapped
    /// between its words, never inside `<...>`.
    func usage(_ command: CommandDefinition, label: String) -> String {
        let head = "\(label) \(command.path)"
        let aligned = head.count + 1 + (command.usage.map(\.count).max() ?? 0) <= width
        let indent = String(repeating: " ", count: aligned ? head.count + 1 : 4)
        let words = command.usage.flatMap { group in
            var depth = 0
            return indent.count + group.count <= width
                ? [group]
                : [""]
                    + group.split { character in
                        depth += character == "<" ? 1 : character == ">" ? -1 : 0
                        return character == " " && depth == 0
                    }.map(String.init)
        }
        return Self.wrap(words, width: width, head: head, indent: indent).joined(separator: "\n")
    }

    /// One entry a label: the text beside it, or below it when the label
    /// does not fit the margin.
    private func rows(_ entries: [(label: String, text: String)]) -> [String] {
        entries.flatMap { label, text in
            let indent = String(repeating: " ", count: margin)
            let lines = wrap(text, width: width - margin)
            let head = "  " + label
            guard head.count < margin - 1, let first = lines.first else { return [head] + lines.map { indent + $0 } }
            return [head + String(repeating: " ", count: margin - head.count) + first]
                + lines.dropFirst().map { indent + $0 }
        }
    }

    /// Greedy word wrap; a word longer than the width gets a line of its own.
    static func wrap(_ text: String, width: Int) -> [String] {
        wrap(text.split(separator: " ").map(String.init), width: width)
    }

    /// Words on lines of at most `width` columns, as many a line as fit:
    /// the first line begins with `head`, the others with `indent`, and
    /// each but the last ends with `end`. An empty word begins a line.
    static func wrap(_ words: [String], width: Int, head: String = "", indent: String = "", end: String = "")
        -> [String]
    {
        var lines = [head]
        for word in words {
            let line = lines[lines.count - 1]
            let bare = line.isEmpty || (lines.count > 1 && line == indent)
            if word.isEmpty {
                if !bare { lines.append(indent) }
            } else if !bare, line.count + 1 + word.count + end.count > width {
                lines[lines.count - 1] += end
                lines.append(indent + word)
            } else {
                lines[lines.count - 1] += (bare ? "" : " ") + word
            }
        }
        return lines == [""] ? [] : lines
    }

    private func wrap(_ text: String, width: Int) -> [String] { Self.wrap(text, width: width) }
}

extension Example {
    /// The command in lines of at most `width` columns, as a shell reads
    /// them: each but the last ends in ` \`, and the next is indented by two.
    /// Quoted words are never split.
    func lines(width: Int) -> [String] {
        var quote: Character?
        let words = command.split { character in
            if character == "'" || character == "\"" { quote = quote == character ? nil : quote ?? character }
            return character == " " && quote == nil
        }.map(String.init)
        return HelpFormatter.wrap(words, width: width, indent: "  ", end: " \\")
    }
}
