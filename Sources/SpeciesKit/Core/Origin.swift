import Foundation

/// Where a URL leads: its scheme, host and port (RFC 6454), the one rule of
/// "the same place" for redirects, `next` links and related links. Schemes
/// and hosts compare without case; a missing port is the scheme's own.
struct Origin: Hashable, Sendable, CustomStringConvertible {
    let scheme: String
    let host: String
    let port: Int

    init?(_ url: URL) {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = url.host?.lowercased(), !host.isEmpty
        else { return nil }
        self.scheme = scheme
        self.host = host
        self.port = url.port ?? (scheme == "https" ? 443 : 80)
    }

    /// `url`, as a request from this origin may go on to it, by a redirect
    /// or a link: at this origin; or at this host's other scheme, both on
    /// their default ports, which SWAPI's hosts serve as one, over `https`
    /// (an `http` URL is upgraded, as SWAPI has served such links): never
    /// down to `http`. Nil anywhere else.
    func follow(_ url: URL) -> URL? {
        guard let other = Origin(url) else { return nil }
        guard other != self else { return url }
        guard other.host == host, other.scheme != scheme, other.hasDefaultPort, hasDefaultPort else { return nil }
        guard other.scheme == "http", var upgraded = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            return url
        }
        upgraded.scheme = "https"
        upgraded.port = nil
        return upgraded.url
    }

    private var hasDefaultPort: Bool { port == (scheme == "https" ? 443 : 80) }

    /// `swapi.dev`, `127.0.0.1:8000`: the host, and the port unless it is
    /// the scheme's own.
    var authority: String { (host.contains(":") ? "[\(host)]" : host) + (hasDefaultPort ? "" : ":\(port)") }

    /// `https://swapi.dev`, `http://127.0.0.1:8000`.
    var description: String { "\(scheme)://\(authority)" }
}

extension URL {
    /// The URL without its user name and password: what is cached, and what
    /// the disk ever sees.
    package var withoutCredentials: URL {
        guard user != nil || password != nil, var components = URLComponents(url: self, resolvingAgainstBaseURL: false)
        else { return self }
        components.user = nil
        components.password = nil
        return components.url ?? self
    }

    /// The URL for messages: credentials show as `***`, so that a password
    /// in an API root never reaches a terminal or a log, and a long one is
    /// cut in its middle (`Excerpt`).
    package var redacted: String { Excerpt.of(absoluteString, limit: 200) }
}
