import SpeciesKit

/// An option that takes a value, typed: its definition, its default, and
/// how its text (or its environment variable's) becomes the value.
struct Option<Value: Sendable>: Sendable {
    let definition: OptionDefinition
    let defaultValue: Value
    /// The value of a text, or what the text should have been.
    let read: @Sendable (String) -> Result<Value, Rejection>

    /// Why a text is not a value: the part that is wrong (an element of a
    /// list), what was expected, and the choice it is nearest to.
    struct Rejection: Error {
        var text: String
        var expected: String
        var suggestion: String?
    }

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

extension Option {
    /// An option whose value is a whole number within `range`, wrapped;
    /// `expected` says what it asks for. A number past any Int is asked to
    /// be smaller, not told it is no whole number.
    init(
        _ definition: OptionDefinition, default defaultValue: Value, wholeNumberIn range: ClosedRange<Int>,
        expected: String,
        wrap: @escaping @Sendable (Int) -> Value
    ) {
        self.init(definition, default: defaultValue) { text in
            if let number = Int(text), range.contains(number) { return .success(wrap(number)) }
            let digits = text.drop { $0 == "+" }
            if Int(text) == nil, !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) {
                return .failure(Rejection(text: text, expected: "a smaller number, at most \(range.upperBound)"))
            }
            return .failure(Rejection(text: text, expected: expected))
        }
    }

    /// An option whose value is one of `cases`, named by `name`; a wrong
    /// one is told the nearest.
    static func choosing<Choice: Sendable>(
        _ definition: OptionDefinition, among cases: [Choice], default defaultValue: Value,
        named name: @escaping @Sendable (Choice) -> String,
        wrap: @escaping @Sendable (Choice) -> Value
    ) -> Option {
        Option(definition, default: defaultValue) { text in
            guard let choice = cases.first(where: { name($0) == text }) else {
                return .failure(Rejection.among(text, cases.map(name)))
            }
            return .success(wrap(choice))
        }
    }
}

extension Option.Rejection {
    /// `text` is not one of `choices`.
    static func among(_ text: String, _ choices: [String], list: Bool = false) -> Self {
        Self(
            text: text, expected: (list ? "fields among " : "") + SpeciesError.alternatives(choices),
            suggestion: text.isEmpty ? nil : EditDistance.closest(to: text, among: choices, limit: 1).first)
    }
}

/// An option without a value, which an environment variable may set too
/// (`--no-fallback`, `SWAPI_NO_FALLBACK=1`).
struct Flag: Sendable {
    let definition: OptionDefinition
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

    /// Whether the flag is given, or its environment variable says so.
    func isSet(_ flag: Flag, environment: [String: String]) -> Bool {
        has(flag.definition)
            || flag.definition.environment.map { ["1", "true", "yes"].contains(environment[$0]?.lowercased() ?? "") }
                ?? false
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
