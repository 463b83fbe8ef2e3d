import Foundation

/// Which links from the server are followed: those the API root's origin
/// follows as it follows a redirect (`Origin.follow`). Any other link is
/// refused without being requested. A link followed carries the root's
/// credentials, if any.
enum LinkPolicy {
    /// The `next` link `text`, found on `page`, as the URL to request.
    static func resolve(_ text: String, of page: URL, root: APIRoot) throws(Fault) -> URL {
        guard let absolute = URL(string: text, relativeTo: page)?.absoluteURL,
            ["http", "https"].contains(absolute.scheme?.lowercased())
        else { throw .badLink(url: page, link: text, .notHTTP) }
        guard let followed = root.origin.follow(absolute),
            var link = URLComponents(url: followed, resolvingAgainstBaseURL: false)
        else { throw .badLink(url: page, link: text, .leavesOrigin(root.origin.description)) }
        if link.user == nil, let credentials = URLComponents(url: root.url, resolvingAgainstBaseURL: false) {
            link.percentEncodedUser = credentials.percentEncodedUser
            link.percentEncodedPassword = credentials.percentEncodedPassword
        }
        return link.url ?? followed
    }
}
