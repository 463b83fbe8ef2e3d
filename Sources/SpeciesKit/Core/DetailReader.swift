import Foundation

/// One species, planet, person or film of a service, as `show` and
/// `--related` ask for it (docs/cli.md, "show"): the URL asked, what its
/// answer must be, and what SWAPI's 404 for it means. Pure: `RemoteCatalog`
/// fetches and feeds it.
struct DetailReader: Equatable {
    let root: APIRoot
    let reference: ResourceReference
    /// The service's dialect, as far as the attempt knows it.
    let dialect: Dialect
    /// The URL asked: a pasted species URL that this service writes is sent
    /// as it was checked; any other is the reference's, in the service's dialect.
    let url: URL
    /// A pasted URL of the public service a copy may print in its place
    /// (docs/cli.md, "show"): the copy's answer must print it too.
    let printed: Printed?

    /// A species URL of the public service `by`.
    struct Printed: Equatable {
        let url: URL
        let by: APIRoot
    }

    init(_ reference: ResourceReference, of root: APIRoot, in dialect: Dialect, pasted: URL? = nil) {
        self.root = root
        self.reference = reference
        self.dialect = dialect
        let written = pasted.flatMap { ResourceReference.parse($0.absoluteString) }.flatMap {
            $0.reference == reference ? $0.root : nil
        }
        switch (pasted, written.map(root.owns)) {
        case (let pasted?, true?): (url, printed) = (pasted, nil)
        case (let pasted?, false?) where !APIRoot.publicServices.contains(root):
            let by = written.flatMap { written in APIRoot.publicServices.first { $0.owns(written) } }
            (url, printed) = (dialect.url(of: reference, under: root), by.map { Printed(url: pasted, by: $0) })
        default: (url, printed) = (dialect.url(of: reference, under: root), nil)
        }
    }

    /// The species `body` holds: the one asked, an object of the species'
    /// kind under a species URL of the service.
    func species(in body: Data) throws(Fault) -> StarWarsSpecies.Decoded {
        let decoded = try ResponseBody.decode(DetailBody<StarWarsSpecies.Decoded>.self, from: body, url: url).value
        var service = ServiceSpecies(root: root)
        guard service.id(of: decoded.species) == reference.id else { throw .invalidResponse(url: url, .notASpecies) }
        if let printed, ResourceReference.parse(decoded.species.url).map({ printed.by.owns($0.root) }) != true {
            throw .notASpeciesURL(printed.url.absoluteString, of: root)
        }
        return decoded
    }

    /// The planet, person or film `body` holds, an object of its kind.
    func resource(in body: Data) throws(Fault) -> RelatedResource {
        let resource = try ResponseBody.decode(DetailBody<RelatedResource>.self, from: body, url: url).value
        guard resource.kinds.contains(reference.kind) else {
            throw .invalidResponse(url: url, .notOfKind(reference.kind.noun))
        }
        return resource
    }

    /// After a 404 at `url`, and the service's species list answering whole
    /// in `listed`: nil when the 404 is SWAPI's answer that the thing does
    /// not exist; else the reader that asks again in the dialect the list
    /// showed.
    func afterNotFound(listed: Dialect) -> DetailReader? {
        listed == dialect ? nil : DetailReader(reference, of: root, in: listed)
    }
}
