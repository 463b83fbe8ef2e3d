import Foundation

/// Finds the one species `show` was asked for: by id, by URL, or by name.
public struct SpeciesLookup: Sendable {
    private let client: SpeciesClient

    public init(client: SpeciesClient) {
        self.client = client
    }

    public func find(_ query: String) async throws -> StarWarsSpecies {
        let query = query.trimmingCharacters(in: .whitespacesAndNewlines)
        if !query.isEmpty, query.allSatisfy({ $0.isASCII && $0.isNumber }), let id = Int(query) {
            return try await species(at: client.root.speciesURL(id: id), what: "species \(id)")
        }
        if let url = Self.httpURL(query) {
            return try await species(at: url, what: "the species at \(url.absoluteString)")
        }
        return try await find(named: query)
    }

    /// Asks the API's own search first (usually one request); only when that
    /// finds nothing does it read every species, to match locally and to
    /// suggest the closest names.
    private func find(named name: String) async throws -> StarWarsSpecies {
        let found = try await client.allSpecies(from: client.root.speciesURL(search: name))
        if let match = try NameMatcher.match(name, in: found) {
            return match
        }
        let everyone = try await client.allSpecies(from: client.root.speciesURL())
        if let match = try NameMatcher.match(name, in: everyone) {
            return match
        }
        let suggestions = EditDistance.closest(to: name, among: everyone.compactMap(\.name))
        throw SpeciesError.noSuchName(name, suggestions: suggestions)
    }

    private func species(at url: URL, what: String) async throws -> StarWarsSpecies {
        do {
            return try await client.species(at: url)
        } catch SpeciesError.httpStatus(404, _) {
            throw SpeciesError.notFound(what: what, url: url)
        }
    }

    private static func httpURL(_ text: String) -> URL? {
        let lowercased = text.lowercased()
        guard lowercased.hasPrefix("http://") || lowercased.hasPrefix("https://") else { return nil }
        return URL(string: text)
    }
}
