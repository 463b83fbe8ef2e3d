import Foundation

/// Which links from the server are followed: only those at the API root's
/// origin (`Origin`). An `http` link under an `https` root on the same host
/// and default port is upgraded to `https` (SWAPI has served such links);
/// nothing is ever downgraded. Any other link is refused without being
/// requested. A link followed carries the root's credentials, if any.
enum LinkPolicy {
    /// The `next` link `text`, found on `page`, as the URL to request.
    static func resolve(_ text: String, of page: URL, root: APIRoot) throws(SpeciesError) -> URL {
        func refuse(_ why: String) -> SpeciesError {
            .refused(url: page, problem: "its 'next' link '\(Excerpt.of(text))' \(why); not followed")
        }
        guard let absolute = URL(string: text, relativeTo: page)?.absoluteURL,
            var link = URLComponents(url: absolute, resolvingAgainstBaseURL: false),
            let scheme = link.scheme?.lowercased()
        else { throw refuse("is not a URL") }
        guard scheme == "http" || scheme == "https" else { throw refuse("is not an http(s) URL") }
        if scheme == "http", root.origin.scheme == "https", link.host?.lowercased() == root.origin.host,
            link.port ?? 80 == 80
        {
            link.scheme = "https"
            link.port = nil
        }
        if link.user == nil, let credentials = URLComponents(url: root.url, resolvingAgainstBaseURL: false) {
            link.percentEncodedUser = credentials.percentEncodedUser
            link.percentEncodedPassword = credentials.percentEncodedPassword
        }
        guard let url = link.url, Origin(url) == root.origin else { throw refuse("leaves \(root.origin)") }
        return url
    }
}
