/// Help text in swift-argument-parser's layout: OVERVIEW, USAGE, ARGUMENTS,
/// OPTIONS, GLOBAL OPTIONS and SUBCOMMANDS, labels in a 26-column margin,
/// wrapped at 80 columns; then EXAMPLES.
enum HelpFormatter {
    static let width = 80
    static let margin = 26

    static func render(
        _ command: CommandDefinition, subcommands: [CommandDefinition], globalOptions: [OptionDefinition]
    ) -> String {
        var sections = [
            wrap("OVERVIEW: " + command.abstract, width: width).joined(separator: "\n"),
            usage(command, label: "USAGE:"),
        ]
        if !command.arguments.isEmpty {
            sections.append("ARGUMENTS:\n" + rows(command.arguments.map { ($0.label, $0.help) }))
        }
        sections.append("OPTIONS:\n" + rows(command.options.map { ($0.label, $0.help) }))
        if subcommands.isEmpty {
            sections.append("GLOBAL OPTIONS:\n" + rows(globalOptions.map { ($0.label, $0.help) }))
        } else {
            sections.append(
                "SUBCOMMANDS:\n" + rows(subcommands.map { ($0.name, $0.abstract) })
                    + "\n\n  See '\(command.path) help <subcommand>' for detailed help.")
        }
        if !command.examples.isEmpty {
            sections.append("EXAMPLES:\n" + command.examples.map { example in
                wrap(example.description, width: width - 2).map { "  " + $0 }.joined(separator: "\n") + "\n    " + example.command
            }.joined(separator: "\n"))
        }
        return sections.joined(separator: "\n\n") + "\n"
    }

    /// The usage line, wrapped between whole `[...]` and `<...>` groups, with
    /// continuation lines aligned after the command's name.
    static func usage(_ command: CommandDefinition, label: String) -> String {
        let head = "\(label) \(command.path)"
        let groups = splitGroups(command.usage)
        let indent = String(repeating: " ", count: head.count + 1)
        var lines = [head]
        for group in groups {
            if lines[lines.count - 1].count + 1 + group.count > width, lines[lines.count - 1] != head {
                lines.append(indent + group)
            } else {
                lines[lines.count - 1] += " " + group
            }
        }
        return lines.joined(separator: "\n")
    }

    /// Words, keeping spaces inside brackets: `[--page <n>] <name>` gives
    /// `[--page <n>]` and `<name>`.
    private static func splitGroups(_ text: String) -> [String] {
        var groups: [String] = []
        var current = ""
        var depth = 0
        for character in text {
            if character == " " && depth == 0 {
                if !current.isEmpty { groups.append(current) }
                current = ""
                continue
            }
            if character == "[" || character == "<" { depth += 1 }
            if character == "]" || character == ">" { depth -= 1 }
            current.append(character)
        }
        if !current.isEmpty { groups.append(current) }
        return groups
    }

    /// One entry a label: the help text beside it, or below it when the label
    /// does not fit the margin.
    private static func rows(_ entries: [(label: String, help: String)]) -> String {
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
}
