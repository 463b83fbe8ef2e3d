import Foundation

/// Fetches and decodes species and pages of species, checking the HTTP status
/// of every response (URLSession does not throw on a 404).
public struct SpeciesClient: Sendable {
    public let root: APIRoot
    private let transport: any HTTPTransport
    private let diagnostics: any Diagnostics

    public init(root: APIRoot, transport: any HTTPTransport, diagnostics: any Diagnostics) {
        self.root = root
        self.transport = transport
        self.diagnostics = diagnostics
    }

    public func page(at url: URL) async throws -> SpeciesPage {
        let page = try await fetch(SpeciesPage.self, from: url)
        page.results.forEach(reportInvalidFields)
        return page
    }

    public func species(at url: URL) async throws -> StarWarsSpecies {
        let species = try await fetch(StarWarsSpecies.self, from: url)
        guard species.name != nil || species.url != nil else {
            throw SpeciesError.invalidResponse(url: url, problem: "the object has neither 'name' nor 'url': it is not a species")
        }
        reportInvalidFields(of: species)
        return species
    }

    /// Fetches the page at `first`, then each page its `next` link names,
    /// until `next` is null, handing each page over in API order.
    public func forEachPage(from first: URL, _ body: (SpeciesPage) async throws -> Void) async throws {
        var url: URL? = first
        while let current = url {
            let page = try await page(at: current)
            try await body(page)
            url = try page.next.map { try resolve(next: $0, of: current) }
        }
    }

    /// Every species of every page from `first` on, in API order.
    public func allSpecies(from first: URL) async throws -> [StarWarsSpecies] {
        var species: [StarWarsSpecies] = []
        try await forEachPage(from: first) { species += $0.results }
        return species
    }

    private func resolve(next: String, of page: URL) throws -> URL {
        guard let url = URL(string: next, relativeTo: page)?.absoluteURL else {
            throw SpeciesError.invalidResponse(url: page, problem: "'next' is not a URL: '\(next)'")
        }
        return url
    }

    private func fetch<Value: Decodable>(_ type: Value.Type, from url: URL) async throws -> Value {
        let response: HTTPResponse
        do {
            response = try await transport.send(HTTPRequest(url: url))
        } catch let error as TransportError {
            throw SpeciesError.unreachable(error)
        }
        guard (200..<300).contains(response.status) else {
            throw SpeciesError.httpStatus(response.status, url: url)
        }
        return try ResponseDecoder.decode(type, from: response.body, url: url)
    }

    private func reportInvalidFields(of species: StarWarsSpecies) {
        for field in species.invalidFields {
            let problem = field == "created" || field == "edited" ? "is not a UTC timestamp" : "has the wrong JSON type"
            diagnostics.warning("species \(species.displayName): field '\(field)' \(problem); treated as absent")
        }
    }
}
