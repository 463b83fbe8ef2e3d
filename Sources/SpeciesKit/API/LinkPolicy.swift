import Foundation

/// Which links from the server are followed (`next` links, and links to a
/// species' planet, people and films): only those on the API root's host
/// and port. An `http` link under an `https` root on that host is upgraded
/// to `https` (SWAPI has served such links); nothing is ever downgraded. Any
/// other link is refused without being requested.
enum LinkPolicy {
    /// - Parameters:
    ///   - kind: how messages name the link, such as `'next' link`.
    ///   - page: where the link was found.
    static func resolve(_ text: String, kind: String = "'next' link", of page: URL, root: APIRoot) throws(SpeciesError) -> URL {
        func refuse(_ why: String) -> SpeciesError {
            .refused(url: page, problem: "its \(kind) '\(text)' \(why); not followed")
        }
        guard let absolute = URL(string: text, relativeTo: page)?.absoluteURL,
            var link = URLComponents(url: absolute, resolvingAgainstBaseURL: false),
            let scheme = link.scheme?.lowercased()
        else { throw refuse("is not a URL") }
        guard scheme == "http" || scheme == "https" else { throw refuse("is not an http(s) URL") }
        guard let base = URLComponents(url: root.url, resolvingAgainstBaseURL: false),
            let baseHost = base.host?.lowercased(), link.host?.lowercased() == baseHost
        else { throw refuse("leaves \(authority(root.url))") }
        if scheme == "http", base.scheme?.lowercased() == "https" {
            link.scheme = "https"
            if link.port == 80 { link.port = nil }
        }
        guard link.scheme?.lowercased() == base.scheme?.lowercased(), port(of: link) == port(of: base) else {
            throw refuse("leaves \(authority(root.url))")
        }
        guard let url = link.url else { throw refuse("is not a URL") }
        return url
    }

    private static func port(of components: URLComponents) -> Int? {
        components.port ?? (components.scheme?.lowercased() == "https" ? 443 : 80)
    }

    private static func authority(_ url: URL) -> String {
        (url.scheme.map { $0 + "://" } ?? "") + (url.host ?? "") + (url.port.map { ":\($0)" } ?? "")
    }
}
