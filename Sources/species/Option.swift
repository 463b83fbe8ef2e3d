import SpeciesKit

/// An option of the command line as parsing, help, the manual page and
/// completion see it: its names, the placeholder of its value, the values
/// it accepts, where its value comes from when it is not given, what it
/// does, and, for a global option, whether every command takes it after its
/// name (else only the commands that ask services do).
struct OptionDefinition: Sendable, Equatable {
    /// Short name first, then long: `["-h", "--help"]`.
    var names: [String]
    /// The placeholder of the option's value, such as `n` in `--page <n>`;
    /// nil for a flag.
    var valueName: String? = nil
    /// The values accepted; empty for a free value.
    var choices: [String] = []
    /// The value is a comma-separated list of choices (`--fields`).
    var takesList = false
    /// The environment variable read when the option is not given.
    var environment: String? = nil
    /// The default as help shows it; nil when there is none to show.
    var shownDefault: String? = nil
    /// A global option that every command takes after its name too.
    var everywhere = false
    /// What the option does, without its default.
    var summary: String

    /// The summary and where the value comes from when the option is not
    /// given: `(default: $SWAPI_TIMEOUT, else 15)`.
    var help: String {
        let variable = environment.map { "$" + $0 + (takesValue ? "" : "=1") }
        switch (variable, shownDefault) {
        case (let variable?, let shown?): return summary + " (default: \(variable), else \(shown))."
        case (let variable?, nil): return summary + " (default: \(variable))."
        case (nil, let shown?): return summary + " (default: \(shown))."
        case (nil, nil): return summary + "."
        }
    }

    var takesValue: Bool { valueName != nil }

    /// The long name, which identifies the option.
    var key: String { names.last ?? "" }

    /// `-h, --help` or `--page <n>`.
    var label: String { names.joined(separator: ", ") + (valueName.map { " <\($0)>" } ?? "") }

    /// `--page <n>`: how error messages and usage lines name the option.
    var synopsis: String { key + (valueName.map { " <\($0)>" } ?? "") }
}

/// An option bound to where its value lands, as swift-argument-parser's
/// `@Option` and `@Flag` are. A command's options are a list of these, so
/// it lists none it does not read. Given several times, or with another
/// option of the same setting, the last one given wins, as in git and curl;
/// an option that `combine`s (`--base-url`) adds each value to the others.
struct Option<Command>: Sendable {
    let definition: OptionDefinition
    /// What it sets: options of one setting (`--refresh`, `--offline`) share it.
    let setting: PartialKeyPath<Command> & Sendable
    /// Sets the value given (nil for a flag) in the command; `again` when
    /// the option was given before on this line.
    let set: @Sendable (String?, _ again: Bool, inout Command) throws(ValueProblem) -> Void
    /// Sets what the option's environment variable says, when it is set
    /// and not empty.
    let fromEnvironment: @Sendable (String, inout Command) throws(ValueProblem) -> Void

    /// An option whose value `read` reads into `path`.
    static func option<Value>(
        _ definition: OptionDefinition, _ path: WritableKeyPath<Command, Value> & Sendable,
        combine: (@Sendable (Value, Value) -> Value)? = nil,
        read: @escaping @Sendable (String) throws(ValueProblem) -> Value
    ) -> Option {
        Option(definition: definition, setting: path) { text, again, command throws(ValueProblem) in
            let value = try read(text ?? "")
            command[keyPath: path] = again ? combine?(command[keyPath: path], value) ?? value : value
        } fromEnvironment: { text, command throws(ValueProblem) in
            command[keyPath: path] = try read(text)
        }
    }

    /// A flag: `value` at `path` when it is given, or when its environment
    /// variable is on (`1`, `true`, `yes`; `0`, `false`, `no` and empty are
    /// off; anything else is a usage error, as a bad value of an option is).
    static func flag<Value: Sendable>(
        _ definition: OptionDefinition, _ path: WritableKeyPath<Command, Value> & Sendable, _ value: Value
    ) -> Option {
        Option(definition: definition, setting: path) { _, _, command in
            command[keyPath: path] = value
        } fromEnvironment: { text, command throws(ValueProblem) in
            switch text.lowercased() {
            case "1", "true", "yes": command[keyPath: path] = value
            case "0", "false", "no": break
            default: throw ValueProblem(expected: "1, true or yes (on), or 0, false or no (off)")
            }
        }
    }
}

extension Array {
    /// `command` with the options of the line applied in their order, then,
    /// for each setting no option of the line set, the environment variable
    /// of its option (`--refresh` so wins over `SWAPI_OFFLINE`). A bad
    /// value of the line is a usage error of `parsed.command`; a bad value
    /// of a variable stands alone, as the line was not wrong.
    func read<Command>(_ parsed: ParsedArguments, _ environment: [String: String], into command: Command)
        throws(CommandError) -> Command where Element == Option<Command>
    {
        var command = command
        var given: Set<String> = []
        var set: Set<PartialKeyPath<Command>> = []
        for occurrence in parsed.occurrences {
            guard let option = first(where: { $0.definition == occurrence.option }) else { continue }
            do { try option.set(occurrence.value, given.contains(option.definition.key), &command) } catch {
                let problem = UsageProblem.badValue(
                    occurrence.value ?? "", source: "'\(option.definition.synopsis)'", error)
                throw .usage(problem, of: parsed.command)
            }
            given.insert(option.definition.key)
            set.insert(option.setting)
        }
        for option in self where !set.contains(option.setting) {
            guard let variable = option.definition.environment, let text = environment[variable], !text.isEmpty else {
                continue
            }
            do { try option.fromEnvironment(text, &command) } catch {
                throw CommandError(UsageProblem.badValue(text, source: variable, error).message, .usage)
            }
        }
        return command
    }
}

/// How values are read, each one way wherever it is read: a number is
/// ASCII digits only (no sign, no `0x`, no `_`), seconds are decimal.
enum Read {
    /// The case whose raw value `text` is.
    static func choice<Choice: RawRepresentable<String> & CaseIterable>(_ text: String) throws(ValueProblem) -> Choice {
        guard let choice = Choice(rawValue: text) else {
            let choices = Choice.allCases.map(\.rawValue)
            throw ValueProblem(expected: Phrase.alternatives(choices), value: text, nearest: choices)
        }
        return choice
    }

    /// `text` as a whole number within `range`; past any Int, it must be
    /// smaller.
    static func wholeNumber(_ text: String, in range: ClosedRange<Int>, expected: String) throws(ValueProblem) -> Int {
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw ValueProblem(expected: expected, value: text)
        }
        guard let number = Int(text), range.contains(number) else {
            throw ValueProblem(
                expected: Int(text) == nil ? "a smaller number, at most \(range.upperBound)" : expected, value: text)
        }
        return number
    }

    /// `text` as a number of seconds within `range`: decimal digits, with
    /// one point at most (no `0x10`, `1e3`, `inf`, `+5` or `1_000`).
    static func seconds(_ text: String, in range: ClosedRange<Double>, expected: String) throws(ValueProblem) -> Double
    {
        let decimal =
            text.contains(where: \.isNumber) && text.count { $0 == "." } <= 1
            && text.allSatisfy { ("0"..."9").contains($0) || $0 == "." }
        guard decimal, let seconds = Double(text), range.contains(seconds) else {
            throw ValueProblem(expected: expected, value: text)
        }
        return seconds
    }
}
