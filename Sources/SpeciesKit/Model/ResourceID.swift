/// The numeric id of a SWAPI resource, read from its URL.
public enum ResourceID {
    /// The last path component that is a number: `.../species/3/` gives 3.
    /// The scheme, host and port, the query and the fragment are never read.
    public static func from(url: String) -> Int? {
        var path = Substring(url)
        if let schemeEnd = path.range(of: "://") {
            let authorityAndPath = path[schemeEnd.upperBound...]
            path = authorityAndPath.firstIndex(of: "/").map { authorityAndPath[$0...] } ?? ""
        }
        if let end = path.firstIndex(where: { $0 == "?" || $0 == "#" }) {
            path = path[..<end]
        }
        for component in path.split(separator: "/").reversed() {
            if component.allSatisfy({ $0.isASCII && $0.isNumber }), let id = Int(component) {
                return id
            }
        }
        return nil
    }
}
