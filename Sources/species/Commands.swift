import Foundation
import SpeciesKit

/// The options of `species` (contract: docs/cli.md), each declared once:
/// parsing, `--help`, the usage lines, the manual page and the completions
/// are made from these.
enum Options {
    static let help = Flag(definition: OptionDefinition(["-h", "--help"], summary: "Show help information"))
    static let version = Flag(definition: OptionDefinition(["--version"], summary: "Show the version"))

    // MARK: Global

    static let baseURL = Option<[APIRoot]>(
        OptionDefinition(
            ["--base-url"], value: "url", environment: "SWAPI_BASE_URL",
            shownDefault: APIRoot.publicServices.map(\.url.absoluteString).joined(separator: " "),
            summary:
                "The API root of a SWAPI service (swapi.dev's, swapi.py4e.com's, swapi.tech's, swapi.info's, or a copy); "
                + "several, repeated or separated by spaces or commas, are asked in turn"),
        default: APIRoot.publicServices
    ) { text in
        var roots: [APIRoot] = []
        for word in text.split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init) {
            guard let root = APIRoot(word) else {
                return .failure(.init(text: word, expected: APIRoot.problem(with: word) ?? "an API root"))
            }
            roots.append(root)
        }
        return roots.isEmpty ? .failure(.init(text: text, expected: "an http or https URL")) : .success(roots)
    }
    static let noFallback = Flag(
        definition: OptionDefinition(
            ["--no-fallback"], environment: "SWAPI_NO_FALLBACK", shownDefault: "off",
            summary:
                "When no service can answer, fail rather than answer from the cache or the SWAPI data built into species"
        ))
    static let timeout = Option(
        OptionDefinition(
            ["--timeout"], value: "seconds", environment: "SWAPI_TIMEOUT", shownDefault: "15",
            summary:
                "A deadline on each request, first byte to last, and on trying the services in turn; fractions allowed"),
        default: SpeciesClient.Configuration.defaultTimeout, expected: "a number of seconds from 0.001 to 86400"
    ) { Double($0).flatMap { (0.001...86400).contains($0) ? $0 : nil } }
    static let retries = Option(
        OptionDefinition(
            ["--retries"], value: "n", shownDefault: String(SpeciesClient.Configuration.defaultRetries),
            summary: "Retries of HTTP 429, 500, 502, 503, 504 and dropped connections, by the last service tried"),
        default: SpeciesClient.Configuration.defaultRetries, wholeNumberIn: 0...100,
        expected: "a whole number from 0 to 100"
    ) { $0 }
    static let maxResponseSize = Option(
        OptionDefinition(
            ["--max-response-size"], value: "bytes",
            shownDefault:
                "\(URLSessionTransport.defaultMaxResponseSize), \(ByteCount.describe(URLSessionTransport.defaultMaxResponseSize))",
            summary: "Refuse larger responses"),
        default: URLSessionTransport.defaultMaxResponseSize, wholeNumberIn: 1...1 << 40,
        expected: "a whole number of bytes from 1 to 1099511627776 (1 TiB)"
    ) { $0 }
    static let serial = Flag(
        definition: OptionDefinition(
            ["--serial"], summary: "Follow next links one page at a time, instead of fetching pages at once"))
    static let maxAge = Option(
        OptionDefinition(
            ["--max-age"], value: "seconds", environment: "SWAPI_MAX_AGE",
            shownDefault: String(Int(CachePolicy.defaultMaxAge)),
            summary: "How long a cached response is used without asking the server"),
        default: CachePolicy.defaultMaxAge, expected: "a number of seconds from 0 up"
    ) { Double($0).flatMap { $0 >= 0 && $0.isFinite ? $0 : nil } }
    static let refresh = Flag(
        definition: OptionDefinition(["--refresh"], summary: "Revalidate cached responses with the server now"))
    static let noCache = Flag(definition: OptionDefinition(["--no-cache"], summary: "Neither read nor write the cache"))
    static let offline = Flag(
        definition: OptionDefinition(
            ["--offline"],
            summary: "Never use the network: answer from the cache, else from the SWAPI data built into species"))
    static let color = Option<ColorMode>.choosing(
        OptionDefinition(
            ["--color"], value: "when", choices: ColorMode.allCases.map(\.rawValue),
            shownDefault: ColorMode.auto.rawValue,
            summary:
                "Colour: \(SpeciesError.alternatives(ColorMode.allCases.map(\.rawValue))); auto is on a terminal, unless NO_COLOR is set or TERM=dumb"
        ),
        among: ColorMode.allCases, default: .auto, named: \.rawValue, wrap: { $0 })
    static let quiet = Flag(
        definition: OptionDefinition(
            ["-q", "--quiet"], summary: "No hints, progress or warnings on stderr; errors still"))
    static let verbose = Flag(
        definition: OptionDefinition(
            ["-v", "--verbose"],
            summary:
                "Tell on stderr each request (URL, status, bytes, milliseconds; from the network, revalidated or from the cache), "
                + "each service given up on, dialects and the page plan"))

    /// Of these, at most one may be given, whatever the command.
    static let globalExclusive = [
        [refresh.definition, offline.definition], [refresh.definition, noCache.definition],
        [quiet.definition, verbose.definition],
    ]

    /// Accepted before or after the subcommand.
    static let global: [OptionDefinition] = [
        baseURL.definition, noFallback.definition, timeout.definition, retries.definition, maxResponseSize.definition,
        serial.definition, maxAge.definition, refresh.definition, noCache.definition, offline.definition,
        color.definition,
        quiet.definition, verbose.definition, version.definition,
    ]

    // MARK: list

    static let page = Option(
        OptionDefinition(
            ["--page"], value: "n", shownDefault: "1",
            summary: "Print page <n>; SWAPI pages hold \(SpeciesPage.size) species"),
        default: 1, wholeNumberIn: 1...Int.max, expected: "a whole number from 1 up"
    ) { $0 }
    static let allPages = Flag(
        definition: OptionDefinition(["--all-pages"], summary: "Follow the API's next links and print every species"))
    static let search = Option<String?>(
        OptionDefinition(
            ["--search"], value: "text",
            summary: "Only species whose name holds every word of <text>, ignoring case (swapi.dev's search)"),
        default: nil, expected: "some text"
    ) { text -> String?? in text.trimmingCharacters(in: .whitespaces).isEmpty ? .none : .some(text) }
    static let format = Option<OutputFormat>.choosing(
        OptionDefinition(
            ["--format"], value: "format", choices: OutputFormat.allCases.map(\.rawValue),
            shownDefault: OutputFormat.table.rawValue,
            summary:
                "\(SpeciesError.alternatives(OutputFormat.allCases.map(\.rawValue))): an aligned table fitted to the terminal, tab-separated values, CSV (RFC 4180), a Markdown table, one JSON array, or one JSON object a line"
        ),
        among: OutputFormat.allCases, default: .table, named: \.rawValue, wrap: { $0 })
    static let json = Flag(
        definition: OptionDefinition(["--json"], summary: "The same as --format json: one JSON array"))
    static let jsonl = Flag(
        definition: OptionDefinition(["--jsonl"], summary: "The same as --format jsonl: one compact JSON object a line")
    )
    static let sort = Option<SpeciesOrder?>.choosing(
        OptionDefinition(
            ["--sort"], value: "key", choices: SpeciesOrder.allCases.map(\.rawValue),
            summary:
                "Order by \(SpeciesError.alternatives(SpeciesOrder.allCases.map(\.rawValue))); numbers as numbers, unknown values last"
        ),
        among: SpeciesOrder.allCases, default: nil, named: \.rawValue, wrap: { $0 })
    static let reverse = Flag(
        definition: OptionDefinition(["--reverse"], summary: "Reverse the order (of --sort, or of the API)"))
    static let fields = Option<[SpeciesField]?>(
        OptionDefinition(
            ["--fields"], value: "a,b,...", choices: SpeciesField.allCases.map(\.name), list: true,
            shownDefault: SpeciesField.defaults.map(\.name).joined(separator: ", ") + "; with JSON, every key",
            summary:
                "The columns, or with JSON the keys, in this order, among \(SpeciesField.allCases.map(\.name).joined(separator: ", "))"
        ),
        default: nil
    ) { text in
        var fields: [SpeciesField] = []
        for word in text.split(separator: ",", omittingEmptySubsequences: false).map({
            $0.trimmingCharacters(in: .whitespaces)
        }) {
            guard let field = SpeciesField(named: word) else {
                return .failure(.among(word, SpeciesField.allCases.map(\.name), list: true))
            }
            // A field given twice is one column, one key.
            if !fields.contains(field) { fields.append(field) }
        }
        return .success(.some(fields))
    }
    static let limit = Option<Int?>(
        OptionDefinition(
            ["--limit"], value: "n",
            summary:
                "Print at most <n> species from the first on, after the search and the sort (not with --page); without a sort, fetch only the pages they fill"
        ),
        default: nil, wholeNumberIn: 1...Int.max, expected: "a whole number from 1 up"
    ) { $0 }

    // MARK: show

    static let showJSON = Flag(definition: OptionDefinition(["--json"], summary: "Print one JSON object"))
    static let related = Flag(
        definition: OptionDefinition(
            ["--related"], summary: "Also the names of the species' homeworld, people and films (in episode order)"))
}

/// The commands of `species` (contract: docs/cli.md).
enum Commands {
    static let list = CommandDefinition(
        path: "species list",
        abstract: "Print one page of species, every page, or the first n, as a table, TSV, CSV, Markdown or JSON.",
        options: [
            Options.page.definition, Options.allPages.definition, Options.search.definition, Options.format.definition,
            Options.json.definition, Options.jsonl.definition, Options.sort.definition, Options.reverse.definition,
            Options.fields.definition, Options.limit.definition, Options.help.definition,
        ],
        exclusive: [
            [Options.page.definition, Options.allPages.definition],
            [Options.page.definition, Options.limit.definition],
            [Options.format.definition, Options.json.definition, Options.jsonl.definition],
        ],
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
        path: "species show",
        abstract: "Print the description of one species, or its JSON.",
        arguments: [
            ArgumentDefinition(
                label: "<name | id | url>",
                help:
                    "A species name, matched case-insensitively: an exact match wins, else the single species whose name holds every word. Or a species id, or a species URL of one of the services."
            )
        ],
        options: [Options.showJSON.definition, Options.related.definition, Options.help.definition],
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
        path: "species cache",
        abstract: "Show or empty the cache of responses.",
        arguments: [
            .choosing(
                CacheAction.allCases.map(\.rawValue),
                help:
                    "info: where the cache is, how many entries and how old, and which service answers; clear: remove every entry."
            )
        ],
        options: [Options.help.definition],
        examples: [
            Example(command: "species cache info", description: "Where the cache is, and what it holds."),
            Example(command: "species cache clear", description: "Empty it."),
        ])

    static let completions = CommandDefinition(
        path: "species completions",
        abstract: "Print a script that completes species' commands, options and species names in a shell.",
        arguments: [.choosing(Shell.allCases.map(\.rawValue), help: "The shell.")],
        options: [Options.help.definition],
        examples: [
            Example(command: "source <(species completions bash)", description: "Completion in this bash."),
            Example(
                command: "species completions fish > ~/.config/fish/completions/species.fish",
                description: "Install for fish."),
        ])

    static let helpCommand = CommandDefinition(
        path: "species help",
        abstract: "Show help for a subcommand.",
        arguments: [ArgumentDefinition(label: "<subcommand>", help: "The subcommand to explain.", optional: true)],
        options: [Options.help.definition],
        examples: [
            Example(command: "species help list", description: "The options of list."),
            Example(command: "species help", description: "The subcommands."),
        ])

    /// For the completion scripts: the names of cached (else bundled) species.
    static let completeNames = CommandDefinition(
        path: "species __complete-names", abstract: "Print the species names known offline, one a line.",
        options: [Options.help.definition],
        hidden: true)

    /// For `make man`: the manual page.
    static let manualPage = CommandDefinition(
        path: "species __manpage", abstract: "Print the manual page.", options: [Options.help.definition], hidden: true)

    /// Whether the workarounds of Sources/URLSessionFixes are in place.
    static let selfCheck = CommandDefinition(
        path: "species __selfcheck", abstract: "Say which workarounds for FoundationNetworking are engaged.",
        options: [Options.help.definition], hidden: true)

    static let root = CommandDefinition(
        path: "species",
        abstract: "Browse the species of the Star Wars API (SWAPI) from the command line.",
        options: Options.global + [Options.help.definition],
        examples: [
            Example(command: "species list", description: "The first page of species, as a table."),
            Example(
                command: "species show wookiee", description: "One species: it suggests 'Wookie', SWAPI's spelling."),
            Example(
                command: "species --offline list --all-pages --json",
                description: "Every species, from the data built into species."),
        ],
        leadsToSubcommands: true)

    static let subcommands = [list, show, cache, completions, helpCommand, completeNames, manualPage, selfCheck]

    /// The subcommands people see.
    static var visibleSubcommands: [CommandDefinition] { subcommands.filter { !$0.hidden } }
}

/// Environment variables that are no option's, for the manual page.
enum EnvironmentVariables {
    static let others: [(name: String, meaning: String)] = [
        ("NO_COLOR", "When set and not empty, no colour under --color auto."),
        ("TERM", "When dumb, no colour under --color auto, and no progress line."),
        ("COLUMNS", "The width of the table; else the terminal's, else no limit."),
        ("XDG_CACHE_HOME", "The cache is $XDG_CACHE_HOME/species/ (an absolute path), else ~/.cache/species/."),
        (
            "CURL_CA_BUNDLE, SSL_CERT_FILE",
            "A bundle of CA certificates to trust, read in place of the system's bundle, as curl and OpenSSL read it (CURL_CA_BUNDLE first); the system's folder is still read."
        ),
        (
            "SSL_CERT_DIR",
            "A folder of CA certificates to trust, as OpenSSL reads one, in place of the system's folder; the system's bundle is still read."
        ),
    ]
}
