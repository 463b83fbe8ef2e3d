import SpeciesKit

/// An option of a command, bound to where its value lands, as
/// swift-argument-parser's `@Option` and `@Flag` are: the definition that
/// parsing, help, the manual page and the completions see, and how its
/// value, or else its environment variable's, is read into the command. A
/// command's options are a list of these, so it lists none it does not
/// read. There are two kinds: an option, which takes a value, and a flag.
struct Option<Command>: Sendable {
    let definition: OptionDefinition
    /// Sets what the line and the environment say in the command.
    let apply: @Sendable (ParsedArguments, [String: String], inout Command) throws(CommandError) -> Void

    /// An option whose value `read` reads into `path`: the last given, or,
    /// with `combine`, all of them combined in order. When none is given,
    /// its environment variable's (when set and not empty); else `path`
    /// keeps its default.
    static func option<Value>(
        _ definition: OptionDefinition, _ path: WritableKeyPath<Command, Value> & Sendable,
        combine: (@Sendable (Value, Value) -> Value)? = nil,
        read: @escaping @Sendable (String) throws(CommandError) -> Value
    ) -> Option {
        Option(definition: definition) { parsed, environment, command throws(CommandError) in
            var texts = parsed.values(definition).map { (text: $0, source: "'\(definition.synopsis)'") }
            var usage: CommandDefinition? = parsed.command
            if texts.isEmpty, let variable = definition.environment, let text = environment[variable], !text.isEmpty {
                texts = [(text, variable)]
                usage = nil
            }
            var value: Value?
            for (text, source) in texts {
                let read = try Self.read(text, for: source, usage: usage, by: read)
                value = value.map { combine?($0, read) ?? read } ?? read
            }
            if let value { command[keyPath: path] = value }
        }
    }

    /// A flag: `value` at `path` when it is given, or when its environment
    /// variable is on (`1`, `true`, `yes`; `0`, `false`, `no` and empty are
    /// off; anything else is a usage error, as a bad value of an option is).
    static func flag<Value: Sendable>(
        _ definition: OptionDefinition, _ path: WritableKeyPath<Command, Value> & Sendable, _ value: Value
    ) -> Option {
        Option(definition: definition) { parsed, environment, command throws(CommandError) in
            var on = parsed.has(definition)
            if !on, let variable = definition.environment, let text = environment[variable] {
                on = try Self.read(text, for: variable, usage: nil) { text throws(CommandError) in
                    switch text.lowercased() {
                    case "1", "true", "yes": return true
                    case "", "0", "false", "no": return false
                    default: throw .expected("1, true or yes (on), or 0, false or no (off)", instead: text)
                    }
                }
            }
            if on { command[keyPath: path] = value }
        }
    }

    /// `text` read as a value, or the usage error that says why not; the
    /// command's usage follows it when the value is the command line's (an
    /// environment variable's has nothing to do with the line).
    private static func read<Value>(
        _ text: String, for source: String, usage: CommandDefinition?, by read: (String) throws(CommandError) -> Value
    ) throws(CommandError) -> Value {
        do {
            return try read(text)
        } catch {
            throw CommandError(
                "invalid value '\(Excerpt.of(error.value ?? text))' for \(source): \(error.message)", .usage,
                usage: usage)
        }
    }
}

extension Array {
    /// `command` with the options of the line, or their variables, applied.
    func read<Command>(_ parsed: ParsedArguments, _ environment: [String: String], into command: Command)
        throws(CommandError) -> Command where Element == Option<Command>
    {
        var command = command
        for option in self {
            try option.apply(parsed, environment, &command)
        }
        return command
    }
}

/// How option values are read: each gives the value, or throws what it
/// expected (`CommandError.expected`).
enum Read {
    /// The case whose raw value `text` is.
    static func choice<Choice: RawRepresentable<String> & CaseIterable>(_ text: String) throws(CommandError) -> Choice {
        guard let choice = Choice(rawValue: text) else {
            let choices = Choice.allCases.map(\.rawValue)
            throw .expected(Phrase.alternatives(choices), instead: text, nearest: choices)
        }
        return choice
    }

    /// `text` as a whole number within `range`; past any Int, it must be
    /// smaller.
    static func wholeNumber(_ text: String, in range: ClosedRange<Int>, expected: String) throws(CommandError) -> Int {
        if let number = Int(text), range.contains(number) { return number }
        let digits = text.drop { $0 == "+" }
        if Int(text) == nil, !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) {
            throw .expected("a smaller number, at most \(range.upperBound)", instead: text)
        }
        throw .expected(expected, instead: text)
    }

    /// `text` as a number of seconds within `range`: decimal digits, with
    /// one point at most (no `0x10`, `1e3`, `inf` or `1_000`).
    static func seconds(_ text: String, in range: ClosedRange<Double>, expected: String) throws(CommandError) -> Double
    {
        let decimal =
            text.contains(where: \.isNumber) && text.count { $0 == "." } <= 1
            && text.allSatisfy { ("0"..."9").contains($0) || $0 == "." }
        guard decimal, let seconds = Double(text), range.contains(seconds) else {
            throw .expected(expected, instead: text)
        }
        return seconds
    }
}
