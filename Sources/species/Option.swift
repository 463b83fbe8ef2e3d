import SpeciesKit

/// Why a text is not an option's value: the part that is wrong (an
/// element of a list), what was expected, and the choice it is nearest to.
struct Rejection: Error {
    var text: String
    var expected: String
    var suggestion: String?

    /// `text` is not one of `choices`.
    static func among(_ text: String, _ choices: [String], list: Bool = false) -> Self {
        Self(
            text: text, expected: (list ? "fields among " : "") + SpeciesError.alternatives(choices),
            suggestion: text.isEmpty ? nil : EditDistance.closest(to: text, among: choices, limit: 1).first)
    }

    /// The case whose raw value `text` is, or the nearest.
    static func choice<Choice: RawRepresentable<String> & CaseIterable>(_ text: String) -> Result<Choice, Self> {
        Choice(rawValue: text).map(Result.success) ?? .failure(.among(text, Choice.allCases.map(\.rawValue)))
    }

    /// `text` as a whole number within `range`, or why not: `expected`, or,
    /// for a number past any Int, that it must be smaller.
    static func wholeNumber(_ text: String, in range: ClosedRange<Int>, expected: String) -> Result<Int, Self> {
        if let number = Int(text), range.contains(number) { return .success(number) }
        let digits = text.drop { $0 == "+" }
        if Int(text) == nil, !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) {
            return .failure(Self(text: text, expected: "a smaller number, at most \(range.upperBound)"))
        }
        return .failure(Self(text: text, expected: expected))
    }
}

/// An option that takes a value, typed: its definition, its default, and
/// how its text (or its environment variable's) becomes the value.
struct Option<Value: Sendable>: Sendable {
    let definition: OptionDefinition
    let defaultValue: Value
    /// The value of a text, or what the text should have been.
    let read: @Sendable (String) -> Result<Value, Rejection>

    init(
        _ definition: OptionDefinition, default defaultValue: Value,
        read: @escaping @Sendable (String) -> Result<Value, Rejection>
    ) {
        self.definition = definition
        self.defaultValue = defaultValue
        self.read = read
    }

    /// An option whose text is read by `convert`, which gives nil for a
    /// text that is not `expected`.
    init(
        _ definition: OptionDefinition, default defaultValue: Value, expected: String,
        _ convert: @escaping @Sendable (String) -> Value?
    ) {
        self.init(definition, default: defaultValue) { text in
            convert(text).map(Result.success) ?? .failure(Rejection(text: text, expected: expected))
        }
    }
}

/// An option a command takes, bound to what it sets: the definition that
/// parsing, help, the manual page and the completions see, and how its
/// value lands in the command. A command's options are its bindings, so it
/// lists no option it does not read, as swift-argument-parser's properties
/// do.
struct Binding<Command>: Sendable {
    let definition: OptionDefinition
    let apply: @Sendable (ParsedArguments, [String: String], inout Command) throws(UsageError) -> Void
}

extension Option {
    /// The value (else the environment variable's, else the default) at `path`.
    func bind<Command>(_ path: WritableKeyPath<Command, Value> & Sendable) -> Binding<Command> {
        Binding(definition: definition) { parsed, environment, command throws(UsageError) in
            command[keyPath: path] = try parsed.value(of: self, environment: environment)
        }
    }
}

extension OptionDefinition {
    /// A flag: whether it is given (or its environment variable says so), at `path`.
    func bind<Command>(_ path: WritableKeyPath<Command, Bool> & Sendable) -> Binding<Command> {
        Binding(definition: self) { parsed, environment, command in
            command[keyPath: path] = parsed.isSet(self, environment: environment)
        }
    }

    /// A flag: `set` applied when it is given (or its environment variable says so).
    func bind<Command>(_ set: @escaping @Sendable (inout Command) -> Void) -> Binding<Command> {
        Binding(definition: self) { parsed, environment, command in
            if parsed.isSet(self, environment: environment) { set(&command) }
        }
    }
}

extension Array {
    /// `command` with the options of the line, or their variables, applied.
    func read<Command>(_ parsed: ParsedArguments, _ environment: [String: String], into command: Command)
        throws(UsageError) -> Command where Element == Binding<Command>
    {
        var command = command
        for binding in self {
            try binding.apply(parsed, environment, &command)
        }
        return command
    }
}

extension ParsedArguments {
    /// The option's value, else its environment variable's (when set and
    /// not empty), else its default.
    func value<Value>(of option: Option<Value>, environment: [String: String]) throws(UsageError) -> Value {
        try values(of: option, environment: environment).last ?? option.defaultValue
    }

    /// Every value the option was given, in order; else its environment
    /// variable's; else none.
    func values<Value>(of option: Option<Value>, environment: [String: String]) throws(UsageError) -> [Value] {
        let definition = option.definition
        let texts = values(definition)
        if !texts.isEmpty {
            return try texts.map { text throws(UsageError) in
                try read(text, by: option, source: "'\(definition.synopsis)'")
            }
        }
        guard let variable = definition.environment, let text = environment[variable], !text.isEmpty else { return [] }
        return [try read(text, by: option, source: variable)]
    }

    /// Whether the flag is given, or its environment variable says so
    /// (`SWAPI_NO_FALLBACK=1`).
    func isSet(_ flag: OptionDefinition, environment: [String: String]) -> Bool {
        has(flag)
            || flag.environment.map { ["1", "true", "yes"].contains(environment[$0]?.lowercased() ?? "") } ?? false
    }

    private func read<Value>(_ text: String, by option: Option<Value>, source: String) throws(UsageError) -> Value {
        switch option.read(text) {
        case .success(let value): return value
        case .failure(let rejection):
            throw UsageError(
                message: "invalid value '\(Excerpt.of(rejection.text))' for \(source): expected \(rejection.expected)"
                    + (rejection.suggestion.map { "; did you mean '\($0)'?" } ?? ""),
                command: command)
        }
    }
}
