import Foundation

/// Help text in swift-argument-parser's layout: OVERVIEW, USAGE, ARGUMENTS,
/// OPTIONS and GLOBAL OPTIONS, labels in a margin, wrapped to `width`; then
/// EXAMPLES. A subcommand's help names the global options in one short
/// block; the root's lists its SUBCOMMANDS first, then explains the options
/// people use most, then MORE OPTIONS.
struct HelpFormatter {
    /// Help wraps at the terminal's width, or `COLUMNS`, within these:
    /// narrower, labels and text would not fit side by side; wider, lines
    /// grow too long to read (clap's bound too).
    static let widths = 40...100
    static let standardWidth = 80

    let width: Int
    /// Where the help of each option begins.
    private var margin: Int { min(26, width / 3) }

    init(width: Int = standardWidth) {
        self.width = min(max(width, Self.widths.lowerBound), Self.widths.upperBound)
    }

    func render(_ command: CommandDefinition, subcommands: [CommandDefinition]) -> String {
        var sections = [
            wrap("OVERVIEW: " + command.abstract, width: width).joined(separator: "\n"),
            usage(command, label: "USAGE:"),
        ]
        if !command.arguments.isEmpty {
            sections.append("ARGUMENTS:\n" + rows(command.arguments.map { ($0.label, $0.help) }))
        }
        if subcommands.isEmpty {
            sections.append("OPTIONS:\n" + rows(command.options.map { ($0.label, $0.help) }))
            let names = command.globalOptions.map { $0.names.joined(separator: "/") }.joined(separator: ", ")
            let root = command.path.split(separator: " ").first.map(String.init) ?? command.path
            sections.append(
                "GLOBAL OPTIONS:\n"
                    + wrap(names + "; see '\(root) --help'.", width: width - 2).map { "  " + $0 }.joined(
                        separator: "\n"))
        } else {
            sections.append(
                "SUBCOMMANDS:\n" + rows(subcommands.map { ($0.name, $0.abstract) })
                    + "\n\n"
                    + wrap("See '\(command.path) help <subcommand>' for detailed help.", width: width - 2).map {
                        "  " + $0
                    }
                    .joined(separator: "\n"))
            let more = command.options.filter { !Options.everyday.contains($0) }
            sections.append("OPTIONS:\n" + rows(Options.everyday.map { ($0.label, $0.help) }))
            sections.append("MORE OPTIONS:\n" + rows(more.map { ($0.label, $0.help) }))
        }
        if !command.examples.isEmpty {
            sections.append(
                "EXAMPLES:\n"
                    + command.examples.map { example in
                        (wrap(example.description, width: width - 2).map { "  " + $0 }
                            + example.lines(width: width - 4).map { "    " + $0 })
                            .joined(separator: "\n")
                    }.joined(separator: "\n"))
        }
        return sections.joined(separator: "\n\n") + "\n"
    }

    /// The usage line, wrapped between whole `[...]` and `<...>` groups, with
    /// continuation lines aligned after the command's name, or four spaces
    /// in when a group would not fit there. A group wider than a line is
    /// wrapped between its words.
    func usage(_ command: CommandDefinition, label: String) -> String {
        let head = "\(label) \(command.path)"
        let groups = Self.splitGroups(command.usage)
        let aligned = head.count + 1 + (groups.map(\.count).max() ?? 0) <= width
        let indent = String(repeating: " ", count: aligned ? head.count + 1 : 4)
        var lines = [head]
        func add(_ piece: String) {
            if lines[lines.count - 1].count + 1 + piece.count > width, lines[lines.count - 1] != indent {
                lines.append(indent + piece)
            } else {
                lines[lines.count - 1] += (lines[lines.count - 1] == indent ? "" : " ") + piece
            }
        }
        for group in groups {
            if indent.count + group.count > width {
                if lines[lines.count - 1] != indent { lines.append(indent) }
                for word in Self.splitGroups(group, inside: true) { add(word) }
            } else {
                add(group)
            }
        }
        return lines.joined(separator: "\n")
    }

    /// Words, keeping spaces inside brackets: `[--page <n>] <name>` gives
    /// `[--page <n>]` and `<name>`; `inside`, only inside `<...>`, so that
    /// `[--format <format> | --json]` gives `[--format <format>`, `|`, `--json]`.
    private static func splitGroups(_ text: String, inside: Bool = false) -> [String] {
        var groups: [String] = []
        var current = ""
        var depth = 0
        for character in text {
            if character == " " && depth == 0 {
                if !current.isEmpty { groups.append(current) }
                current = ""
                continue
            }
            if character == "<" || (character == "[" && !inside) { depth += 1 }
            if character == ">" || (character == "]" && !inside) { depth -= 1 }
            current.append(character)
        }
        if !current.isEmpty { groups.append(current) }
        return groups
    }

    /// One entry a label: the help text beside it, or below it when the label
    /// does not fit the margin.
    private func rows(_ entries: [(label: String, help: String)]) -> String {
        entries.map { label, help in
            let indent = String(repeating: " ", count: margin)
            let lines = wrap(help, width: width - margin)
            let head = "  " + label
            guard head.count < margin - 1, let first = lines.first else {
                return ([head] + lines.map { indent + $0 }).joined(separator: "\n")
            }
            let padded = head + String(repeating: " ", count: margin - head.count)
            return ([padded + first] + lines.dropFirst().map { indent + $0 }).joined(separator: "\n")
        }.joined(separator: "\n")
    }

    /// Greedy word wrap; a word longer than the width gets a line of its own.
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty && line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += line.isEmpty ? String(word) : " " + word
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    private func wrap(_ text: String, width: Int) -> [String] {
        Self.wrap(text, width: width)
    }
}

extension Example {
    /// The command in lines of at most `width` columns, as a shell reads
    /// them: each but the last ends in ` \`, and the next is indented by two.
    /// Quoted words are never split.
    func lines(width: Int) -> [String] {
        var words: [String] = []
        var quote: Character?
        for character in command {
            if character == " ", quote == nil {
                words.append("")
                continue
            }
            if character == "'" || character == "\"" { quote = quote == character ? nil : quote ?? character }
            if words.isEmpty { words.append("") }
            words[words.count - 1].append(character)
        }
        var lines = [""]
        for word in words where !word.isEmpty {
            let line = lines[lines.count - 1]
            if !line.trimmingCharacters(in: .whitespaces).isEmpty && line.count + 1 + word.count + 2 > width {
                lines[lines.count - 1] += " \\"
                lines.append("  " + word)
            } else {
                lines[lines.count - 1] += (line.isEmpty ? "" : " ") + word
            }
        }
        return lines
    }
}
