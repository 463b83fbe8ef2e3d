import Foundation
import SpeciesKit

/// The options every command takes: `--help` and `--version`, which stand
/// for the whole line. The others are each command's own
/// (`ListCommand.options`, `ShowCommand.options`), or the global ones
/// (`GlobalSettings.options`).
enum Options {
    static let help = OptionDefinition(names: ["-h", "--help"], everywhere: true, summary: "Show help information")
    static let version = OptionDefinition(names: ["-V", "--version"], everywhere: true, summary: "Show the version")

    /// The global options, as the root's help explains them: every command
    /// takes them before its name; after it, those that ask services take
    /// them all, the others those marked `everywhere`.
    static let global = GlobalSettings.options.map(\.definition) + [version]

    /// The options people use most, which the root's help lists first.
    static let everyday =
        [GlobalSettings.baseURL, GlobalSettings.offline, GlobalSettings.timeout, GlobalSettings.color].map(\.definition)
        + [GlobalSettings.quiet, GlobalSettings.verbose].map(\.definition) + [version, help]
}

/// The commands of `species` (contract: docs/cli.md).
enum Commands {
    static let list = CommandDefinition(
        path: "species list",
        abstract: "Print one page of species, every page, or the first n, as a table, TSV, CSV, Markdown or JSON.",
        options: ListCommand.options.map(\.definition) + [Options.help], asksServices: true,
        exclusive: ListCommand.exclusive, alternatives: [ListCommand.formats],
        examples: [
            Example(
                command: "species list --sort height --reverse --limit 5 --format markdown",
                description: "The five tallest species, as a Markdown table."),
            Example(
                command: "species list --search an --all-pages --format tsv --fields name,language",
                description: "Names and languages of the species with 'an' in their names, for a script."),
            Example(
                command: "species list --all-pages --json | jq -r '.[].name'", description: "Every name, through jq."),
        ])

    static let show = CommandDefinition(
        path: "species show", abstract: "Print the description of one species, or its JSON.",
        arguments: [
            ArgumentDefinition(
                label: "<name | id | url>",
                help:
                    "A species name, matched case-insensitively: an exact match wins, else the single species whose name holds every word. Or a species id, or a species URL of one of the services."
            )
        ], options: ShowCommand.options.map(\.definition) + [Options.help], asksServices: true,
        alternatives: [ShowCommand.formats],
        examples: [
            Example(command: "species show wookie", description: "The Wookie's description."),
            Example(
                command: "species show kel dor --related",
                description: "The Kel Dor, their homeworld, people and films."),
            Example(
                command: "species show 3 --json | jq .\(SpeciesField.averageHeight.key)",
                description: "One field of species 3."),
        ])

    static let cache = CommandDefinition(
        path: "species cache", abstract: "Show or empty the cache of responses.",
        arguments: [
            .choosing(
                CacheAction.allCases.map(\.rawValue),
                help:
                    "info: where the cache is, how many entries and how old, and which service answers; clear: remove every entry."
            )
        ], options: [Options.help],
        examples: [
            Example(command: "species cache info", description: "Where the cache is, and what it holds."),
            Example(command: "species cache clear", description: "Empty it."),
        ])

    static let completions = CommandDefinition(
        path: "species completions",
        abstract: "Print a script that completes species' commands, options and species names in a shell.",
        arguments: [.choosing(Shell.allCases.map(\.rawValue), help: "The shell.")], options: [Options.help],
        examples: [
            Example(command: "source <(species completions bash)", description: "Completion in this bash."),
            Example(
                command: "species completions fish > ~/.config/fish/completions/species.fish",
                description: "Install for fish."),
        ])

    static let helpCommand = CommandDefinition(
        path: "species help", abstract: "Show help for a subcommand.",
        arguments: [ArgumentDefinition(label: "<subcommand>", help: "The subcommand to explain.", optional: true)],
        options: [Options.help],
        examples: [
            Example(command: "species help list", description: "The options of list."),
            Example(command: "species help", description: "The subcommands."),
        ])

    /// For the completion scripts: what fits the words typed so far.
    static let complete = CommandDefinition(
        path: "species __complete",
        abstract: "Print what completes the last of the words given, for a shell, one a line.",
        arguments: [ArgumentDefinition(label: "<shell> <word>...", help: "The shell, then the words after species.")],
        hidden: true)

    /// Whether the workarounds of Sources/URLSessionFixes are in place.
    static let selfCheck = CommandDefinition(
        path: "species __selfcheck", abstract: "Say which workarounds for FoundationNetworking are engaged.",
        options: [Options.help], hidden: true)

    static let root = CommandDefinition(
        path: "species", abstract: "Browse the species of the Star Wars API (SWAPI) from the command line.",
        options: Options.global + [Options.help],
        examples: [
            Example(command: "species list", description: "The first page of species, as a table."),
            Example(
                command: "species show wookiee", description: "One species: it suggests 'Wookie', SWAPI's spelling."),
            Example(
                command: "species --offline list --all-pages --json",
                description: "Every species, from the data built into species."),
        ], leadsToSubcommands: true)

    static let subcommands = [list, show, cache, completions, helpCommand, complete, selfCheck]

    /// The subcommands people see.
    static var visibleSubcommands: [CommandDefinition] { subcommands.filter { !$0.hidden } }
}
