import Foundation

/// Which redirects are followed: within the same host, and never from https
/// down to http.
public enum RedirectPolicy {
    /// Why the redirect from `origin` to `target` is not followed; nil when it is.
    public static func objection(from origin: URL, to target: URL) -> String? {
        guard let host = origin.host?.lowercased(), target.host?.lowercased() == host else {
            return "to another host"
        }
        switch (origin.scheme?.lowercased(), target.scheme?.lowercased()) {
        case (_, "https"), ("http", "http"): return nil
        case ("https", "http"): return "down from https to http"
        default: return "to a URL that is not http(s)"
        }
    }
}
