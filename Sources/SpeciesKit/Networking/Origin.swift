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

    /// Whether a request may go on from this origin to `other`: the same
    /// origin, or an `http` origin on the default port to its `https` on
    /// the default port (the secure upgrade SWAPI's hosts make). Never down.
    func admits(_ other: Origin) -> Bool {
        other == self
            || (scheme == "http" && port == 80 && other.scheme == "https" && other.port == 443 && other.host == host)
    }

    /// `swapi.dev`, `127.0.0.1:8000`: the host, and the port unless it is
    /// the scheme's own.
    var authority: String {
        let defaultPort = scheme == "https" ? 443 : 80
        return (host.contains(":") ? "[\(host)]" : host) + (port == defaultPort ? "" : ":\(port)")
    }

    /// `https://swapi.dev`, `http://127.0.0.1:8000`.
    var description: String {
        "\(scheme)://\(authority)"
    }
}

extension URL {
    /// The URL without its user name and password: what is cached, and what
    /// the disk ever sees.
    package var withoutCredentials: URL {
        guard user != nil || password != nil,
            var components = URLComponents(url: self, resolvingAgainstBaseURL: false)
        else { return self }
        components.user = nil
        components.password = nil
        return components.url ?? self
    }

    /// The URL for messages: credentials show as `***`, so that a password
    /// in `--base-url` never reaches a terminal or a log, and a long one is
    /// cut in its middle (`Excerpt`).
    package var redacted: String {
        Excerpt.of(absoluteString, limit: 200)
    }
}
