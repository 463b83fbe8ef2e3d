/// The commands and options of `species` (contract: `cli.md`).
enum Commands {
    static let help = OptionDefinition("-h", "--help", help: "Show help information.")
    static let version = OptionDefinition("--version", help: "Show the version.")
    static let baseURL = OptionDefinition(
        "--base-url", value: "url",
        help: "The API root; species live at <url>species/ (default: $SWAPI_BASE_URL, else https://swapi.dev/api/).")

    static let timeout = OptionDefinition(
        "--timeout", value: "seconds",
        help: "Bound on each request, first byte to last; fractions allowed (default: $SWAPI_TIMEOUT, else 15).")
    static let retries = OptionDefinition(
        "--retries", value: "n", help: "Retries of HTTP 429, 500, 502, 503, 504 and dropped connections (default: 3).")
    static let maxResponseSize = OptionDefinition(
        "--max-response-size", value: "bytes", help: "Refuse larger responses (default: 104857600, 100 MiB).")

    static let serial = OptionDefinition(
        "--serial", help: "Follow next links one page at a time, instead of fetching pages 2 to N at once.")

    static let maxAge = OptionDefinition(
        "--max-age", value: "seconds",
        help: "How long a cached response is used without asking the server (default: $SWAPI_MAX_AGE, else 86400).")
    static let refresh = OptionDefinition("--refresh", help: "Revalidate cached responses with the server now.")
    static let noCache = OptionDefinition("--no-cache", help: "Neither read nor write the cache.")
    static let offline = OptionDefinition(
        "--offline", help: "Never use the network: answer from the cache, else from the SWAPI snapshot built into species.")

    /// Accepted before or after the subcommand.
    static let global = [
        baseURL, timeout, retries, maxResponseSize, serial, maxAge, refresh, noCache, offline, version,
    ]

    static let page = OptionDefinition("--page", value: "n", help: "Print page <n>; SWAPI pages hold 10 species (default: 1).")
    static let allPages = OptionDefinition("--all-pages", help: "Follow the API's next links and print every species.")
    static let search = OptionDefinition(
        "--search", value: "text", help: "Only species whose name contains <text>, case-insensitively (the API's own search).")
    static let json = OptionDefinition("--json", help: "Print JSON: one array for a list, one object for show.")
    static let jsonl = OptionDefinition("--jsonl", help: "Print one compact JSON object per line.")

    static let list = CommandDefinition(
        path: "species list",
        abstract: "Print one page of species, or every page, as a table or as JSON.",
        usage: "species list [--page <n> | --all-pages] [--search <text>] [--json | --jsonl]",
        options: [page, allPages, search, json, jsonl, help])

    static let show = CommandDefinition(
        path: "species show",
        abstract: "Print the description of one species, or its JSON.",
        usage: "species show <name | id | url> [--json]",
        arguments: [
            ArgumentDefinition(
                label: "<name | id | url>",
                help: "A species name, matched case-insensitively: an exact match wins, else a single partial match (several words are joined with spaces). Or a species id, or an http(s) URL.")
        ],
        options: [json, help])

    static let cache = CommandDefinition(
        path: "species cache",
        abstract: "Show or empty the cache of responses.",
        usage: "species cache info | clear",
        arguments: [
            ArgumentDefinition(
                label: "info | clear",
                help: "info: where the cache is, how many entries and how old; clear: remove every entry.")
        ],
        options: [help])

    static let helpCommand = CommandDefinition(
        path: "species help",
        abstract: "Show help for a subcommand.",
        usage: "species help [<subcommand>]",
        arguments: [ArgumentDefinition(label: "<subcommand>", help: "The subcommand to explain.")],
        options: [help])

    static let root = CommandDefinition(
        path: "species",
        abstract: "Browse the species of the Star Wars API (SWAPI) from the command line.",
        usage: "species <subcommand> [<options>]",
        options: global + [help])

    static let subcommands = [list, show, cache, helpCommand]
}
