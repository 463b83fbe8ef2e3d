import SpeciesKit

/// The commands and options of `species` (contract: docs/cli.md): the one
/// definition behind parsing, `--help`, the manual page and the completions.
enum Commands {
    static let help = OptionDefinition("-h", "--help", help: "Show help information.")
    static let version = OptionDefinition("--version", help: "Show the version.")
    static let baseURL = OptionDefinition(
        "--base-url", value: "url",
        help: "The API root of any SWAPI service: swapi.dev's, swapi.tech's, swapi.info's or a copy of one (default: $SWAPI_BASE_URL, else https://swapi.dev/api/).")
    static let noFallback = OptionDefinition(
        "--no-fallback",
        help: "When the API cannot answer, fail rather than answer from the cache or the SWAPI data built into species (default: $SWAPI_NO_FALLBACK=1, else off).")
    static let timeout = OptionDefinition(
        "--timeout", value: "seconds",
        help: "Bound on each request, first byte to last; fractions allowed (default: $SWAPI_TIMEOUT, else 15).")
    static let retries = OptionDefinition(
        "--retries", value: "n", help: "Retries of HTTP 429, 500, 502, 503, 504 and dropped connections (default: 3).")
    static let maxResponseSize = OptionDefinition(
        "--max-response-size", value: "bytes", help: "Refuse larger responses (default: 104857600, 100 MiB).")
    static let serial = OptionDefinition(
        "--serial", help: "Follow next links one page at a time, instead of fetching pages at once.")
    static let maxAge = OptionDefinition(
        "--max-age", value: "seconds",
        help: "How long a cached response is used without asking the server (default: $SWAPI_MAX_AGE, else 86400).")
    static let refresh = OptionDefinition("--refresh", help: "Revalidate cached responses with the server now.")
    static let noCache = OptionDefinition("--no-cache", help: "Neither read nor write the cache.")
    static let offline = OptionDefinition(
        "--offline", help: "Never use the network: answer from the cache, else from the SWAPI data built into species.")
    static let color = OptionDefinition(
        "--color", value: "when", choices: ColorMode.allCases.map(\.rawValue),
        help: "Colour: {choices}; auto is on a terminal, unless NO_COLOR is set or TERM=dumb (default: auto).")
    static let quiet = OptionDefinition("-q", "--quiet", help: "No hints, progress or warnings on stderr; errors still.")

    /// Accepted before or after the subcommand.
    static let global = [
        baseURL, noFallback, timeout, retries, maxResponseSize, serial, maxAge, refresh, noCache, offline, color, quiet, version,
    ]

    static let page = OptionDefinition("--page", value: "n", help: "Print page <n>; SWAPI pages hold 10 species (default: 1).")
    static let allPages = OptionDefinition("--all-pages", help: "Follow the API's next links and print every species.")
    static let search = OptionDefinition(
        "--search", value: "text", help: "Only species whose name holds every word of <text>, ignoring case (swapi.dev's search).")
    static let format = OptionDefinition(
        "--format", value: "format", choices: OutputFormat.allCases.map(\.rawValue),
        help: "{choices}: an aligned table fitted to the terminal, tab-separated values with a header row, one JSON array, or one JSON object a line (default: table).")
    static let listJSON = OptionDefinition("--json", help: "The same as --format json: one JSON array.")
    static let jsonl = OptionDefinition("--jsonl", help: "The same as --format jsonl: one compact JSON object a line.")
    static let sort = OptionDefinition(
        "--sort", value: "key", choices: SpeciesOrder.allCases.map(\.rawValue),
        help: "Order by {choices}; numbers as numbers, unknown values last.")
    static let reverse = OptionDefinition("--reverse", help: "Reverse the order (of --sort, or of the API).")
    static let fields = OptionDefinition(
        "--fields", value: "a,b,...", choices: SpeciesField.allCases.map(\.rawValue), list: true,
        help: "The columns of the table and TSV, among {choices} (default: \(SpeciesField.defaults.map(\.rawValue).joined(separator: ", "))).")

    static let showJSON = OptionDefinition("--json", help: "Print one JSON object.")
    static let related = OptionDefinition(
        "--related", help: "Also the names of the species' homeworld, people and films (in episode order).")

    static let list = CommandDefinition(
        path: "species list",
        abstract: "Print one page of species, or every page, as a table, TSV or JSON.",
        usage: "species list [--page <n> | --all-pages] [--search <text>] [--format <format> | --json | --jsonl] [--sort <key>] [--reverse] [--fields <a,b,...>]",
        options: [page, allPages, search, format, listJSON, jsonl, sort, reverse, fields, help],
        examples: [
            Example(command: "species list --all-pages --sort height --reverse", description: "Every species, the tallest first."),
            Example(command: "species list --search an --all-pages --format tsv --fields name,language", description: "Names and languages of the species with 'an' in their names, for a script."),
            Example(command: "species list --all-pages --json | jq -r '.[].name'", description: "Every name, through jq."),
        ])

    static let show = CommandDefinition(
        path: "species show",
        abstract: "Print the description of one species, or its JSON.",
        usage: "species show <name | id | url> [--json] [--related]",
        arguments: [
            ArgumentDefinition(
                label: "<name | id | url>",
                help: "A species name, matched case-insensitively: an exact match wins, else the single species whose name holds every word. Or a species id, or a species URL of the API.")
        ],
        options: [showJSON, related, help],
        examples: [
            Example(command: "species show wookie", description: "The Wookie's description."),
            Example(command: "species show kel dor --related", description: "The Kel Dor, their homeworld, people and films."),
            Example(command: "species show 3 --json | jq .average_height", description: "One field of species 3."),
        ])

    static let cache = CommandDefinition(
        path: "species cache",
        abstract: "Show or empty the cache of responses.",
        usage: "species cache info | clear",
        arguments: [
            .choosing(
                CacheAction.allCases.map(\.rawValue),
                help: "info: where the cache is, how many entries and how old; clear: remove every entry.")
        ],
        options: [help],
        examples: [
            Example(command: "species cache info", description: "Where the cache is, and what it holds."),
            Example(command: "species cache clear", description: "Empty it."),
        ])

    static let completions = CommandDefinition(
        path: "species completions",
        abstract: "Print a script that completes species' commands, options and species names in a shell.",
        usage: "species completions bash | zsh | fish",
        arguments: [.choosing(Shell.allCases.map(\.rawValue), help: "The shell.")],
        options: [help],
        examples: [
            Example(command: "source <(species completions bash)", description: "Completion in this bash."),
            Example(command: "species completions fish > ~/.config/fish/completions/species.fish", description: "Install for fish."),
        ])

    static let helpCommand = CommandDefinition(
        path: "species help",
        abstract: "Show help for a subcommand.",
        usage: "species help [<subcommand>]",
        arguments: [ArgumentDefinition(label: "<subcommand>", help: "The subcommand to explain.")],
        options: [help],
        examples: [
            Example(command: "species help list", description: "The options of list."),
            Example(command: "species help", description: "The subcommands."),
        ])

    /// For the completion scripts: the names of cached (else bundled) species.
    static let completeNames = CommandDefinition(
        path: "species __complete-names", abstract: "Print the species names known offline, one a line.",
        usage: "species __complete-names", options: [help], hidden: true)

    /// For `make man`: the manual page.
    static let manualPage = CommandDefinition(
        path: "species __manpage", abstract: "Print the manual page.", usage: "species __manpage", options: [help], hidden: true)

    static let root = CommandDefinition(
        path: "species",
        abstract: "Browse the species of the Star Wars API (SWAPI) from the command line.",
        usage: "species <subcommand> [<options>]",
        options: global + [help],
        examples: [
            Example(command: "species list", description: "The first page of species, as a table."),
            Example(command: "species show wookiee", description: "One species: it suggests 'Wookie', SWAPI's spelling."),
            Example(command: "species --offline list --all-pages --json", description: "Every species, from the data built into species."),
        ])

    static let subcommands = [list, show, cache, completions, helpCommand, completeNames, manualPage]

    /// The subcommands people see.
    static var visibleSubcommands: [CommandDefinition] { subcommands.filter { !$0.hidden } }
}
