import Foundation

/// The API root, such as `https://swapi.dev/api/`; species live at
/// `<root>species/`.
public struct APIRoot: Sendable, Hashable, CustomStringConvertible {
    /// swapi.dev, the first of SWAPI's public services.
    public static let swapi = APIRoot(checked: "https://swapi.dev/api/")

    /// SWAPI's public services, in the order a client asks them: swapi.dev,
    /// its copy swapi.py4e.com (the same code and JSON), www.swapi.tech and
    /// swapi.info.
    public static let publicServices = [
        swapi, APIRoot(checked: "https://swapi.py4e.com/api/"), APIRoot(checked: "https://www.swapi.tech/api/"),
        APIRoot(checked: "https://swapi.info/api/"),
    ]

    /// The root, with its final slash: `https://swapi.dev/api/`.
    public let url: URL
    let origin: Origin
    /// The path as written, percent-escapes kept, with its final slash
    /// (`URL.path` decodes it and drops the slash).
    let path: String

    private init(checked text: String) {
        // A constant that passes `init?(_:)`.
        self = APIRoot(text)!
    }

    /// Accepts an absolute `http` or `https` URL (in any case) with a host
    /// name or IPv4 address, a port from 1 to 65535 if any, no backslash
    /// before its path, no query or fragment, and a path that is not the
    /// species list itself; adds a missing trailing slash.
    public init?(_ text: String) {
        guard Self.problem(with: text) == nil, var components = URLComponents(string: text),
            let scheme = components.scheme?.lowercased()
        else { return nil }
        components.scheme = scheme
        if !components.percentEncodedPath.hasSuffix("/") { components.percentEncodedPath += "/" }
        guard let url = components.url, let origin = Origin(url) else { return nil }
        self.url = url
        self.origin = origin
        self.path = components.percentEncodedPath
    }

    /// What keeps `text` from being an API root, in the words of an error
    /// message ("expected ..."); nil when it is one.
    package static func problem(with text: String) -> String? {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty, components.query == nil,
            components.fragment == nil
        else { return "an http or https URL" }
        // Foundation reads a backslash as part of the authority, browsers
        // (WHATWG's parsers) as a `/` ending it: each would reach another host.
        if text.split(separator: "://", maxSplits: 1).last?.prefix(while: { !"/?#".contains($0) }).contains("\\")
            == true
        {
            return "a URL without a backslash in its host part"
        }
        if components.path.split(separator: "/").last?.lowercased() == "species",
            let parent = URL(string: text)?.deletingLastPathComponent().absoluteString
        {
            return "the API root, not its species list: \(Excerpt.of(parent))"
        }
        if host.hasPrefix("[") || host.contains(":") {
            return "a host name or an IPv4 address (FoundationNetworking cannot request an IPv6 address literal)"
        }
        if !isCanonical(host) {
            return
                "a host name or an IPv4 address written as four numbers from 0 to 255 (FoundationNetworking cannot request '\(Excerpt.of(host))')"
        }
        if let port = components.port, !(1...65535).contains(port) { return "a port from 1 to 65535" }
        return nil
    }

    /// Whether FoundationNetworking can request `host` as it is written. A
    /// host whose last label is a number is an IPv4 address (as the WHATWG
    /// URL standard reads it), and libcurl rewrites the odd spellings
    /// (`127.1`, `2130706433`, `0x7f.0.0.1`, `127.000.0.1`) as `127.0.0.1`,
    /// which FoundationNetworking then refuses as a host it did not ask for
    /// (NSURLErrorDomain -1000). Only the usual spelling is one.
    private static func isCanonical(_ host: String) -> Bool {
        var labels = host.split(separator: ".", omittingEmptySubsequences: false)
        // A final dot ends a fully qualified name: the label before it counts.
        if labels.count > 1, labels.last?.isEmpty == true { labels.removeLast() }
        guard let last = labels.last, !last.isEmpty, last.allSatisfy(\.isASCII),
            last.allSatisfy(\.isNumber) || last.lowercased().hasPrefix("0x")
        else { return true }
        return labels.count == 4
            && labels.allSatisfy { label in
                label.allSatisfy({ $0.isASCII && $0.isNumber }) && (label == "0" || !label.hasPrefix("0"))
                    && (Int(label).map { $0 <= 255 } ?? false)
            }
    }

    /// `https://swapi.dev/api/`, with a password as `***`.
    public var description: String { url.redacted }

    /// The root as the cache folder keys what it remembers of the service:
    /// its URL without credentials.
    var key: String { url.withoutCredentials.absoluteString }

    /// `swapi.dev`: how messages name the service, its host (and port), or,
    /// when another of `services` has the same, its root without the scheme.
    func name(among services: [APIRoot]) -> String {
        let authority = origin.authority
        guard services.contains(where: { $0 != self && $0.origin.authority == authority }) else { return authority }
        return authority + path
    }

    /// Whether a link written under `root` (`ResourceReference.parse`) is
    /// under this API root: at its origin, or at its host's other scheme
    /// on the default ports (`Origin.follow`), the host in any case, and
    /// under its path exactly, percent-escapes as written.
    func owns(_ root: Substring) -> Bool {
        guard let url = URL(string: String(root)), let path = URLComponents(string: String(root))?.percentEncodedPath
        else { return false }
        return origin.follow(url) != nil && path == self.path
    }

    /// The one reading of a species URL's root (docs/cli.md, "What is
    /// whole"): whether a species written under `root` may be one of this
    /// service's, under its own root or under that of the public service it
    /// copies (`ServiceSpecies` holds an answer to one of them).
    func writes(_ root: Substring) -> Bool { owns(root) || Self.publicServices.contains { $0.owns(root) } }

    /// `url`, a species of this service in any spelling of the one grammar
    /// (`ResourceReference`) under its own root (`owns`), as the service is
    /// asked it: its dialect's own for SWAPI's hosts
    /// (`Dialect.ofPublicHost`), as given for another; nil when it is none
    /// of its species.
    func speciesURL(_ url: URL) -> URL? {
        guard let (reference, root) = ResourceReference.parse(url.absoluteString), reference.kind == .species,
            owns(root)
        else { return nil }
        let given = String(url.absoluteString.dropFirst(root.count))
        return Dialect.ofPublicHost(self).map { $0.url(of: reference, under: self) }
            ?? URL(string: given, relativeTo: self.url)?.absoluteURL
    }

    /// `path` under the root, with `query` percent-encoded.
    func endpoint(_ path: String, query: [(String, String)]) -> URL {
        guard var components = URLComponents(url: url.appendingPathComponent(path), resolvingAgainstBaseURL: false)
        else { return url }
        if !query.isEmpty {
            components.percentEncodedQueryItems = query.map {
                URLQueryItem(name: $0.0, value: QueryEncoding.encode($0.1))
            }
        }
        return components.url ?? url
    }
}

/// Percent-encoding of a query value. URLComponents' own `queryItems` leaves
/// `+` as it is, which servers decode as a space; this keeps only RFC 3986's
/// unreserved characters, so any text reaches the server intact.
enum QueryEncoding {
    private static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    static func encode(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? value
    }
}
