import Foundation
import SpeciesKit

/// The global options, after the environment and the defaults (docs/cli.md,
/// "Global options and environment"): every command takes them before its
/// name, and `list` and `show` after it too.
struct GlobalSettings: Equatable {
    // The command line stands in the cache and the built-in data unless
    // told not to (docs/cli.md, "Which service answers").
    var client = SpeciesClient.Configuration(fallback: true)
    var colorMode = ColorMode.auto
    var quiet = false
    var verbose = false

    /// The defaults, with the cache in its folder of `environment`.
    static func defaults(environment: [String: String]) -> Self {
        var settings = Self()
        settings.client.cache.directory = ResponseCache.defaultDirectory(environment: environment)
        return settings
    }

    static let baseURL = Option<Self>.option(
        OptionDefinition(
            names: ["--base-url"], valueName: "url", environment: "SWAPI_BASE_URL",
            shownDefault: APIRoot.publicServices.map(\.url.absoluteString).joined(separator: " "),
            summary:
                "The API root of a SWAPI service (swapi.dev's, swapi.py4e.com's, swapi.tech's, swapi.info's, or a copy); "
                + "several, repeated or separated by spaces or commas, are asked in turn"), \.client.roots, combine: +
    ) { text throws(ValueProblem) in
        var roots: [APIRoot] = []
        for word in text.split(whereSeparator: { $0 == "," || $0.isWhitespace }).map(String.init) {
            guard let root = APIRoot(word) else {
                throw ValueProblem(expected: APIRoot.problem(with: word) ?? "an API root", value: word)
            }
            roots.append(root)
        }
        guard !roots.isEmpty else { throw ValueProblem(expected: "an http or https URL", value: text) }
        return roots
    }
    static let noFallback = Option<Self>.flag(
        OptionDefinition(
            names: ["--no-fallback"], environment: "SWAPI_NO_FALLBACK", shownDefault: "off",
            summary:
                "When no service can answer, fail rather than answer from the cache or the SWAPI data built into species"
        ), \.client.fallback, false)
    static let timeout = Option<Self>.option(
        OptionDefinition(
            names: ["--timeout"], valueName: "seconds", environment: "SWAPI_TIMEOUT", shownDefault: "15",
            summary: "The deadline of the whole command: every service, page, retry, wait and related resource it asks "
                + "of the network ends within it, then the cache or the built-in data answers; fractions allowed"),
        \.client.timeout
    ) { text throws(ValueProblem) in
        try Read.seconds(text, in: 0.001...86400, expected: "a decimal number of seconds from 0.001 to 86400")
    }
    static let retries = Option<Self>.option(
        OptionDefinition(
            names: ["--retries"], valueName: "n", shownDefault: String(SpeciesClient.Configuration.defaultRetries),
            summary: "Retries of HTTP 429, 500, 502, 503, 504 and dropped connections, by the last service tried"),
        \.client.retries
    ) { text throws(ValueProblem) in try Read.wholeNumber(text, in: 0...100, expected: "a whole number from 0 to 100") }
    static let maxResponseSize = Option<Self>.option(
        OptionDefinition(
            names: ["--max-response-size"], valueName: "bytes",
            shownDefault:
                "\(SpeciesClient.Configuration.defaultMaxResponseSize), \(ByteCount.describe(SpeciesClient.Configuration.defaultMaxResponseSize))",
            summary: "Refuse larger responses"), \.client.maxResponseSize
    ) { text throws(ValueProblem) in
        try Read.wholeNumber(text, in: 1...1 << 40, expected: "a whole number of bytes from 1 to 1099511627776 (1 TiB)")
    }
    static let serial = Option<Self>.flag(
        OptionDefinition(
            names: ["--serial"], summary: "Follow next links one page at a time, instead of fetching pages at once"),
        \.client.serial, true)
    static let maxAge = Option<Self>.option(
        OptionDefinition(
            names: ["--max-age"], valueName: "seconds", environment: "SWAPI_MAX_AGE",
            shownDefault: String(Int(CachePolicy.defaultMaxAge)),
            summary: "How long a cached response is used without asking the server"), \.client.cache.maxAge
    ) { text throws(ValueProblem) in
        try Read.seconds(
            text, in: 0...Double.greatestFiniteMagnitude, expected: "a decimal number of seconds from 0 up")
    }
    static let refresh = Option<Self>.flag(
        OptionDefinition(names: ["--refresh"], summary: "Revalidate cached responses with the server now"),
        \.client.cache.mode, .refresh)
    static let noCache = Option<Self>.flag(
        OptionDefinition(names: ["--no-cache"], summary: "Neither read nor write the cache"), \.client.cache.directory,
        nil)
    static let offline = Option<Self>.flag(
        OptionDefinition(
            names: ["--offline"], environment: "SWAPI_OFFLINE", shownDefault: "off",
            summary:
                "Never use the network: answer from the cache, else, for SWAPI's services, from the SWAPI data built into species"
        ), \.client.cache.mode, .offline)
    static let color = Option<Self>.option(
        OptionDefinition(
            names: ["--color"], valueName: "when", choices: ColorMode.allCases.map(\.rawValue),
            shownDefault: ColorMode.auto.rawValue, everywhere: true,
            summary:
                "Colour: \(Phrase.alternatives(ColorMode.allCases.map(\.rawValue))); auto is on a terminal, unless NO_COLOR is set or TERM=dumb"
        ), \.colorMode, read: Read.choice)
    static let quiet = Option<Self>.flag(
        OptionDefinition(
            names: ["-q", "--quiet"], everywhere: true,
            summary: "No hints, progress or warnings on stderr; errors still"), \.quiet, true)
    static let verbose = Option<Self>.flag(
        OptionDefinition(
            names: ["-v", "--verbose"], everywhere: true,
            summary:
                "Tell on stderr each request (URL, status, bytes, milliseconds; from the network, revalidated or from the cache), "
                + "each service given up on, dialects, the page plan, and how long the command took"), \.verbose, true)

    /// Each global option, in the order help shows them.
    static let options = [
        Self.baseURL, Self.noFallback, Self.timeout, Self.retries, Self.maxResponseSize, Self.serial, Self.maxAge,
        Self.refresh, Self.noCache, Self.offline, Self.color, Self.quiet, Self.verbose,
    ]

    /// Of these, at most one may be given.
    static let exclusive = [[Self.refresh, Self.offline], [Self.refresh, Self.noCache], [Self.quiet, Self.verbose]].map
    { $0.map(\.definition) }
}
