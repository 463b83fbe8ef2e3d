import Foundation
import Testing

@testable import SpeciesKit

/// Issue 49: SWAPI's rules as tables, each read by one function of the core.
@Suite("SWAPI's rules: kinds, names, roots")
struct SWAPIRulesTests {
    /// What an object of each key set is: the first kind, in the table's
    /// order, of a field it carries that a species lacks, or nil.
    @Test(
        arguments: [
            (["name", "classification", "url"], nil),
            (["name", "classification", "url", "uid", "description"], nil),
            (["name", "height", "mass"], ResourceReference.Kind.people),
            (["name", "climate"], .planets),
            (["title", "episode_id"], .films),
            (["name", "model", "vehicle_class"], .vehicles),
            (["name", "hyperdrive_rating"], .starships),
            (["name", "vehicles"], .people),
        ] as [([String], ResourceReference.Kind?)])
    func anObjectOfAnotherKindIsNoSpecies(keys: [String], kind: ResourceReference.Kind?) {
        #expect(ResourceReference.Kind.species.foreignMark(has: keys.contains)?.kind == kind)
    }

    /// A vehicle and a starship share most fields: each tells itself apart.
    @Test func vehiclesAndStarshipsAreTwoKinds() {
        let crawler = ["name", "model", "manufacturer", "vehicle_class", "pilots", "films", "url"]
        let falcon = ["name", "model", "manufacturer", "hyperdrive_rating", "MGLT", "starship_class", "url"]
        #expect(ResourceReference.Kind.vehicles.foreignMark(has: crawler.contains) == nil)
        #expect(ResourceReference.Kind.starships.foreignMark(has: crawler.contains)?.key == "vehicle_class")
        #expect(ResourceReference.Kind.starships.foreignMark(has: falcon.contains) == nil)
        #expect(ResourceReference.Kind.vehicles.foreignMark(has: falcon.contains)?.kind == .starships)
        #expect(ResourceReference("https://swapi.dev/api/vehicles/4/")?.description == "vehicle 4")
        #expect(ResourceReference("https://swapi.dev/api/starships/9")?.description == "starship 9")
    }

    /// A Sand Crawler's fields beside a species' under a species URL do
    /// not decode as a species.
    @Test func aSandCrawlerDoesNotDecodeAsASpecies() {
        let crawler =
            #"{"name":"Sand Crawler","classification":"x","model":"Digger Crawler","url":"https://swapi.dev/api/species/20/"}"#
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(StarWarsSpecies.self, from: Data(crawler.utf8))
        }
    }

    /// Names as `show` reads them: one identity for what it cannot tell apart.
    @Test(arguments: [
        ("Human", "HUMAN", true), ("Human", "Human ", true), ("Human", " human\t", true),
        ("Yoda's species", "Yoda's\u{a0}species", true), ("Kel Dor", "Kel\u{3000}Dor", true),
        ("Human", "Humans", false), ("Kel Dor", "KelDor", false), ("Twi'lek", "Twi’lek", false),
    ])
    func oneIdentityForNamesShowCannotTellApart(first: String, second: String, same: Bool) {
        #expect((NameMatcher.identity(first) == NameMatcher.identity(second)) == same)
    }

    /// A root is a URL like any other: its percent-escapes are kept. `show`
    /// takes the species URLs under its own root only (issue 49, item 4,
    /// deferred); a listing may also hold those of the public service a
    /// copy keeps (`writes`).
    @Test(
        arguments: [
            (
                "http://127.0.0.1/my%20api/", "http://127.0.0.1/my%20api/species/3/",
                "http://127.0.0.1/my%20api/species/3/"
            ),
            (
                "http://127.0.0.1/a%3Ab/api/", "http://127.0.0.1/a%3Ab/api/species/3",
                "http://127.0.0.1/a%3Ab/api/species/3"
            ),
            ("http://127.0.0.1/copy/api/", "https://swapi.dev/api/species/3/", nil),
            ("http://127.0.0.1/copy/api/", "https://example.com/api/species/3/", nil),
            ("http://127.0.0.1/my%20api/", "http://127.0.0.1/my%2Fapi/species/3/", nil),
        ] as [(String, String, String?)])
    func aRootReadsTheSpeciesURLsItsListingsPrint(root: String, url: String, asked: String?) throws {
        let root = try #require(APIRoot(root))
        #expect(URL(string: url).flatMap { root.speciesURL($0) }?.absoluteString == asked)
        #expect(root.writes("https://swapi.dev/api/") && root.writes("https://swapi.info/api/"))
        #expect(!root.writes("https://example.com/api/"))
    }

    /// A pasted URL names the service it is written under, not the first
    /// service that would read it.
    @Test func aPastedURLNamesItsOwnService() throws {
        let info = try #require(URL(string: "https://swapi.info/api/species/3"))
        #expect(Question.one(.url(info)).named(among: APIRoot.publicServices) == APIRoot.publicServices[3])
        let checked = try SpeciesQuery.url(info).checked(roots: APIRoot.publicServices)
        #expect(checked == .url(try #require(URL(string: "https://swapi.info/api/species/3"))))
    }
}
