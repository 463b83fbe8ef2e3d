import Foundation

/// How `show` matches a name, ignoring case: an exact match wins;
/// otherwise the single species whose name holds every term of the name
/// (as a search reads terms: `dor kel` is Kel Dor); several such matches
/// are ambiguous.
enum NameMatcher {
    /// The species `name` designates, or nil when none matches.
    /// - Throws: `Fault.ambiguousName` when several match equally well.
    static func match(_ name: String, in species: [StarWarsSpecies]) throws(Fault) -> StarWarsSpecies? {
        let key = identity(name)
        let terms = SearchTerms(name)
        let exact = species.filter { identity($0.name) == key }
        for candidates in [exact, exact.isEmpty ? species.filter { !$0.name.isEmpty && terms.matches($0.name) } : []] {
            if candidates.count == 1 { return candidates[0] }
            if candidates.count > 1 { throw .ambiguousName(name, matches: candidates.map(\.name)) }
        }
        return nil
    }

    /// A name as `show` reads it: two names of one identity are one name
    /// (docs/cli.md, "What is whole"), whatever their case, the white space
    /// around them, or their Unicode compatibility forms (a no-break space).
    static func identity(_ name: String) -> String {
        let bytes = name.utf8
        if bytes.first != 0x20, bytes.last != 0x20, bytes.allSatisfy({ (0x20..<0x7F).contains($0) }) {
            return name.lowercased()
        }
        return name.precomposedStringWithCompatibilityMapping.trimmingCharacters(in: .whitespacesAndNewlines)
            .lowercased()
    }

    /// What a search that found nothing for `name` means, given the same
    /// source's whole listing: no species so named, with the closest names;
    /// or, when the listing holds the name, no answer from that source
    /// (docs/cli.md, "What is whole").
    static func miss(_ name: String, searchedAt url: URL, listing: [StarWarsSpecies]) -> Fault {
        do throws(Fault) {
            if try match(name, in: listing) == nil {
                return .noSuchName(name, suggestions: EditDistance.closest(to: name, among: listing.map(\.name)))
            }
        } catch {}
        return .incomplete(url: url, .missed(name))
    }
}
