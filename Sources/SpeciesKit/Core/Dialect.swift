import Foundation

/// The three shapes in which SWAPI services answer (docs/swapi-dialects.md).
/// Which one a service speaks is read from its answers; its host only
/// chooses the first guess.
enum Dialect: String, Sendable, CaseIterable {
    /// swapi.dev, swapi.py4e.com: Django REST Framework, pages of 10.
    case drf
    /// www.swapi.tech: an envelope around each answer, pages with `limit`.
    case tech
    /// swapi.info: static files, one array of everything.
    case info

    /// SWAPI's own public services: the hosts whose data is the data built
    /// into SpeciesKit, and the dialect each speaks.
    static func ofPublicHost(_ root: APIRoot) -> Dialect? {
        guard root.path == "/api/" else { return nil }
        switch root.origin.host {
        case "swapi.dev", "swapi.py4e.com": return .drf
        case "www.swapi.tech", "swapi.tech": return .tech
        case "swapi.info": return .info
        default: return nil
        }
    }

    /// The dialect of a service not heard from yet: its host's, else drf's.
    static func guess(for root: APIRoot) -> Dialect { ofPublicHost(root) ?? .drf }

    /// `swapi.dev's`, for messages: the service the dialect is named after.
    var service: String {
        switch self {
        case .drf: "swapi.dev's"
        case .tech: "swapi.tech's"
        case .info: "swapi.info's"
        }
    }

    /// The request for page `page` of the species. On swapi.tech, a search
    /// is asked another way (`search(_:)`), and swapi.info has one answer,
    /// every species, for any page.
    func listingURL(_ root: APIRoot, page: Int = 1, search: String? = nil) -> URL {
        switch self {
        case .drf:
            root.endpoint(
                "species/", query: (search.map { [("search", $0)] } ?? []) + (page == 1 ? [] : [("page", String(page))])
            )
        case .tech:
            root.endpoint(
                "species", query: [("page", String(page)), ("limit", String(SpeciesPage.size)), ("expanded", "true")])
        case .info: root.endpoint("species/", query: [])
        }
    }

    /// swapi.tech's search: `name` is a regular expression, case ignored.
    /// A term of a search, its metacharacters escaped, narrows the species
    /// to those the terms are then matched against.
    func techSearchURL(_ root: APIRoot, term: String) -> URL {
        let escaped = term.unicodeScalars.map {
            #"\^$.|?*+()[]{}/-"#.unicodeScalars.contains($0) ? "\\\($0)" : String($0)
        }.joined()
        // swapi.tech filters by the field the parameter is named after.
        return root.endpoint("species", query: [(SpeciesField.name.key, escaped)])
    }

    /// A resource, as the dialect writes its URLs.
    func url(of reference: ResourceReference, under root: APIRoot) -> URL {
        root.endpoint(path(of: reference), query: [])
    }

    /// `planets/9/` on swapi.dev, `planets/9` elsewhere.
    func path(of reference: ResourceReference) -> String { self == .drf ? reference.path + "/" : reference.path }
}
