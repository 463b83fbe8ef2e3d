import Foundation
import SpeciesKit

/// The global options, after the environment and the defaults (docs/cli.md,
/// "Global options and environment"): given before or after the command,
/// to the commands that ask SWAPI.
struct GlobalSettings: Equatable {
    var client = SpeciesClient.Configuration()
    var colorMode = ColorMode.auto
    var quiet = false
    var verbose = false

    /// The defaults, with the cache in its folder of `environment`.
    static func defaults(environment: [String: String]) -> Self {
        var settings = Self()
        settings.client.cache.directory = ResponseCache.defaultDirectory(environment: environment)
        return settings
    }

    private static let baseURL = Option<[APIRoot]>(
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

    /// Each global option, read into the settings.
    static let options: [Binding<GlobalSettings>] = [
        // Each --base-url adds to the list.
        Binding(definition: baseURL.definition) { parsed, environment, settings throws(UsageError) in
            let roots = try parsed.values(of: baseURL, environment: environment).flatMap { $0 }
            settings.client.roots = roots.isEmpty ? baseURL.defaultValue : roots
        },
        OptionDefinition(
            ["--no-fallback"], environment: "SWAPI_NO_FALLBACK", shownDefault: "off",
            summary:
                "When no service can answer, fail rather than answer from the cache or the SWAPI data built into species"
        ).bind { $0.client.fallback = false },
        Option(
            OptionDefinition(
                ["--timeout"], value: "seconds", environment: "SWAPI_TIMEOUT", shownDefault: "15",
                summary:
                    "The deadline of the whole command: every service, page, retry, wait and related resource it asks "
                    + "of the network ends within it, then the cache or the built-in data answers; fractions allowed"
            ),
            default: SpeciesClient.Configuration.defaultTimeout, expected: "a number of seconds from 0.001 to 86400"
        ) { Double($0).flatMap { (0.001...86400).contains($0) ? $0 : nil } }.bind(\.client.timeout),
        Option(
            OptionDefinition(
                ["--retries"], value: "n", shownDefault: String(SpeciesClient.Configuration.defaultRetries),
                summary: "Retries of HTTP 429, 500, 502, 503, 504 and dropped connections, by the last service tried"),
            default: SpeciesClient.Configuration.defaultRetries
        ) { Rejection.wholeNumber($0, in: 0...100, expected: "a whole number from 0 to 100") }.bind(\.client.retries),
        Option(
            OptionDefinition(
                ["--max-response-size"], value: "bytes",
                shownDefault:
                    "\(URLSessionTransport.defaultMaxResponseSize), \(ByteCount.describe(URLSessionTransport.defaultMaxResponseSize))",
                summary: "Refuse larger responses"),
            default: URLSessionTransport.defaultMaxResponseSize
        ) {
            Rejection.wholeNumber(
                $0, in: 1...1 << 40, expected: "a whole number of bytes from 1 to 1099511627776 (1 TiB)")
        }.bind(\.client.maxResponseSize),
        OptionDefinition(
            ["--serial"], summary: "Follow next links one page at a time, instead of fetching pages at once"
        ).bind(\.client.serial),
        Option(
            OptionDefinition(
                ["--max-age"], value: "seconds", environment: "SWAPI_MAX_AGE",
                shownDefault: String(Int(CachePolicy.defaultMaxAge)),
                summary: "How long a cached response is used without asking the server"),
            default: CachePolicy.defaultMaxAge, expected: "a number of seconds from 0 up"
        ) { Double($0).flatMap { $0 >= 0 && $0.isFinite ? $0 : nil } }.bind(\.client.cache.maxAge),
        OptionDefinition(["--refresh"], summary: "Revalidate cached responses with the server now")
            .bind { $0.client.cache.mode = .refresh },
        OptionDefinition(["--no-cache"], summary: "Neither read nor write the cache")
            .bind { $0.client.cache.directory = nil },
        OptionDefinition(
            ["--offline"],
            summary: "Never use the network: answer from the cache, else from the SWAPI data built into species"
        ).bind { $0.client.cache.mode = .offline },
        Option(
            OptionDefinition(
                ["--color"], value: "when", choices: ColorMode.allCases.map(\.rawValue),
                shownDefault: ColorMode.auto.rawValue,
                summary:
                    "Colour: \(SpeciesError.alternatives(ColorMode.allCases.map(\.rawValue))); auto is on a terminal, unless NO_COLOR is set or TERM=dumb"
            ), default: .auto, read: Rejection.choice
        ).bind(\.colorMode),
        OptionDefinition(
            ["-q", "--quiet"], summary: "No hints, progress or warnings on stderr; errors still"
        ).bind(\.quiet),
        OptionDefinition(
            ["-v", "--verbose"],
            summary:
                "Tell on stderr each request (URL, status, bytes, milliseconds; from the network, revalidated or from the cache), "
                + "each service given up on, dialects and the page plan"
        ).bind(\.verbose),
    ]

    /// Of these, at most one may be given.
    static let exclusive = options.groups(
        ["--refresh", "--offline"], ["--refresh", "--no-cache"], ["--quiet", "--verbose"])
}

extension Array {
    /// The definitions of each group of options, named by their long names.
    func groups<Command>(_ groups: [String]...) -> [[OptionDefinition]] where Element == Binding<Command> {
        groups.map { keys in keys.compactMap { key in first { $0.definition.key == key }?.definition } }
    }
}
