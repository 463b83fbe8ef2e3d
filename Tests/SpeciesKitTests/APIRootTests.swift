import Foundation
import Testing

@testable import SpeciesKit

@Suite("API root and URLs")
struct APIRootTests {
    @Test(
        "a missing trailing slash is added",
        arguments: [
            ("http://127.0.0.1:8000/api", "http://127.0.0.1:8000/api/"),
            ("https://swapi.dev/api/", "https://swapi.dev/api/"),
            ("HTTPS://swapi.dev", "https://swapi.dev/"),
        ])
    func normalises(text: String, expected: String) throws {
        #expect(try #require(APIRoot(text)).url.absoluteString == expected)
    }

    @Test(arguments: [
        "ftp://swapi.dev/api/", "swapi.dev/api", "http://", "http://host/api/?format=json", "http://host/api/#top", "",
        "not a url", "file:///tmp/api/",
    ])
    func rejectsWhatIsNotAnHTTPRoot(text: String) {
        #expect(APIRoot(text) == nil)
    }

    @Test(
        "what a root must be, said plainly",
        arguments: [
            ("HTTP://127.0.0.1:8000/api/", nil), ("http://h:65535/", nil), ("http://h:1/", nil),
            ("http://h:65536/", "a port from 1 to 65535"), ("http://h:0/", "a port from 1 to 65535"),
            (
                "http://[::1]:8000/api/",
                "a host name or an IPv4 address (FoundationNetworking cannot request an IPv6 address literal)"
            ),
            ("ftp://h/", "an http or https URL"), ("http://h/?q", "an http or https URL"),
        ])
    func problems(text: String, problem: String?) {
        #expect(APIRoot.problem(with: text) == problem)
        #expect((APIRoot(text) == nil) == (problem != nil))
    }

    @Test(
        arguments: [
            ("http://user:secret@h:99999/api/", "http://***@h:99999/api/"), ("https://token@h/", "https://***@h/"),
            ("http://h/a@b", "http://h/a@b"), ("not a url", "not a url"), ("http://u:p@h?x@y", "http://***@h?x@y"),
        ])
    func credentialsInTextAreRedacted(text: String, shown: String) {
        #expect(Excerpt.redactingCredentials(text) == shown)
    }

    @Test func buildsSpeciesURLsAsSWAPIWritesThem() {
        let root = APIRoot.swapi
        #expect(Dialect.drf.listingURL(root).absoluteString == "https://swapi.dev/api/species/")
        #expect(Dialect.drf.listingURL(root, page: 2).absoluteString == "https://swapi.dev/api/species/?page=2")
        #expect(
            Dialect.drf.listingURL(root, page: 2, search: "an").absoluteString
                == "https://swapi.dev/api/species/?search=an&page=2")
        #expect(URL(string: "https://swapi.dev/api/species/3/")!.absoluteString == "https://swapi.dev/api/species/3/")
    }

    @Test(
        "search text reaches the server intact",
        arguments: ["Yoda's species", "kel dor", "a+b & c=d", "Ça/é?#%", "100%", "  spaced  ", "🐻"])
    func searchTextSurvivesEncoding(text: String) throws {
        let url = Dialect.drf.listingURL(APIRoot.swapi, search: text)
        let query = try #require(url.query)
        #expect(!query.contains(" ") && !query.contains("+") && !query.contains("'"))
        let items = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems)
        #expect(items.map(\.name) == ["search"])
        #expect(items.first?.value == text)
    }
}
