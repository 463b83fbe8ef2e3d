import Foundation

/// Fetches and decodes species and pages of species, checking the HTTP status
/// of every response (URLSession does not throw on a 404), and follows `next`
/// links under the rules of `NextLink`.
public struct SpeciesClient: Sendable {
    /// More pages than this is taken for a server that never ends.
    public static let maxPages = 500

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
    /// until `next` is null, handing each page over in API order. A link off
    /// the API's host, a loop, or more than `maxPages` pages end it with exit
    /// status 65; so does a `next` link that answers 404.
    public func forEachPage(from first: URL, _ body: (SpeciesPage) async throws -> Void) async throws {
        var url = first
        var page = try await self.page(at: first)
        var visited: Set<String> = [first.absoluteString]
        let counted = page.previous == nil ? page.count : nil
        var received = 0
        while true {
            received += page.results.count
            try await body(page)
            guard let next = page.next else { break }
            let nextURL = try NextLink.resolve(next, of: url, root: root)
            guard visited.insert(nextURL.absoluteString).inserted else {
                throw SpeciesError.refused(
                    url: url, problem: "its 'next' link leads back to \(nextURL.absoluteString), a page already read: a loop")
            }
            guard visited.count <= Self.maxPages else {
                throw SpeciesError.refused(url: nextURL, problem: "more than \(Self.maxPages) pages; stopped here")
            }
            page = try await self.page(at: nextURL, linkedFrom: url)
            url = nextURL
        }
        if let counted, counted != received {
            diagnostics.warning("the API counted \(counted) species but sent \(received), from \(first.absoluteString)")
        }
    }

    /// Every species of every page from `first` on, in API order.
    public func allSpecies(from first: URL) async throws -> [StarWarsSpecies] {
        var species: [StarWarsSpecies] = []
        try await forEachPage(from: first) { species += $0.results }
        return species
    }

    /// A page reached through the `next` link of `previous`: if it is not
    /// there, the fault is the link's.
    private func page(at url: URL, linkedFrom previous: URL) async throws -> SpeciesPage {
        do {
            return try await page(at: url)
        } catch SpeciesError.httpStatus(404, _) {
            throw SpeciesError.invalidResponse(
                url: previous, problem: "its 'next' link \(url.absoluteString) answered 404 Not Found")
        }
    }

    private func fetch<Value: Decodable>(_ type: Value.Type, from url: URL) async throws -> Value {
        let response: HTTPResponse
        do {
            response = try await transport.send(HTTPRequest(url: url))
        } catch let error as TransportError {
            throw Self.failure(error, url: url)
        }
        guard (200..<300).contains(response.status) else {
            throw SpeciesError.httpStatus(response.status, url: url)
        }
        return try ResponseDecoder.decode(type, from: response.body, url: url)
    }

    private static func failure(_ error: TransportError, url: URL) -> SpeciesError {
        switch error.kind {
        case .tooLarge:
            .refused(url: url, problem: error.detail + " (--max-response-size)")
        case .redirectRefused:
            .refused(url: url, problem: error.detail)
        case .throttled(let status, let retryAfter):
            .rateLimited(url: url, status: status, retryAfter: retryAfter, until: Date().addingTimeInterval(retryAfter))
        default:
            .unreachable(error)
        }
    }

    private func reportInvalidFields(of species: StarWarsSpecies) {
        for field in species.invalidFields {
            let problem = field == "created" || field == "edited" ? "is not a UTC timestamp" : "has the wrong JSON type"
            diagnostics.warning("species \(species.displayName): field '\(field)' \(problem); treated as absent")
        }
    }
}

/// How the client talks to the network.
public struct ConnectionSettings: Sendable, Equatable {
    public static let defaultTimeout = 15.0
    public static let defaultRetries = 3
    public static let defaultMaxResponseSize = 100 * 1024 * 1024

    /// Bound on each request, first byte to last, in seconds.
    public var timeout: Double
    /// Retries of 429, 500, 502, 503, 504 and dropped connections.
    public var retries: Int
    public var maxResponseSize: Int

    public init(
        timeout: Double = defaultTimeout, retries: Int = defaultRetries,
        maxResponseSize: Int = defaultMaxResponseSize
    ) {
        self.timeout = timeout
        self.retries = retries
        self.maxResponseSize = maxResponseSize
    }
}

extension SpeciesClient {
    /// The client of the tool: URLSession in the HTTP helper, each request
    /// bounded by the timeout and retried as `RetryingTransport` says.
    public static func live(
        root: APIRoot, settings: ConnectionSettings, helper: URL, diagnostics: any Diagnostics
    ) -> SpeciesClient {
        let network = HelperTransport(
            .init(executable: helper, maxResponseSize: settings.maxResponseSize, idleTimeout: settings.timeout))
        let transport = RetryingTransport(
            DeadlineTransport(network, seconds: settings.timeout),
            policy: .init(retries: settings.retries), diagnostics: diagnostics)
        return SpeciesClient(root: root, transport: transport, diagnostics: diagnostics)
    }
}
