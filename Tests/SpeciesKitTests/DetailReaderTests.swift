import Foundation
import Testing

@testable import SpeciesKit

/// The reader of one species, planet, person or film, as a table: what is
/// asked, what its answer must be, what a 404 means. No transport.
@Suite("What one species or resource is")
struct DetailReaderTests {
    static let dev = APIRoot("https://swapi.dev/api/")!
    static let copy = APIRoot("http://127.0.0.1:9/t1/api/")!
    static let wookie = ResourceReference(.species, 3)

    /// A pasted URL that the service writes is sent as checked; any other
    /// is the reference's, in the service's dialect.
    @Test(
        arguments: [
            (dev, Dialect.drf, nil, "https://swapi.dev/api/species/3/"),
            (dev, .drf, "http://SWAPI.dev/api/species/3", "http://SWAPI.dev/api/species/3"),
            (dev, .drf, "https://swapi.info/api/species/3", "https://swapi.dev/api/species/3/"),
            (copy, .info, nil, "http://127.0.0.1:9/t1/api/species/3"),
            (copy, .tech, "http://127.0.0.1:9/t1/api/species/3.json", "http://127.0.0.1:9/t1/api/species/3.json"),
            (copy, .drf, "http://127.0.0.1:9/t1/api/species/4/", "http://127.0.0.1:9/t1/api/species/3/"),
        ] as [(APIRoot, Dialect, String?, String)])
    func theURLAsked(root: APIRoot, dialect: Dialect, pasted: String?, asked: String) {
        let reader = DetailReader(Self.wookie, of: root, in: dialect, pasted: pasted.flatMap(URL.init(string:)))
        #expect(reader.url.absoluteString == asked)
    }

    /// The species asked, of the species' kind, under a species URL of the
    /// service (its own root, or the public one it copies), in any form.
    @Test(
        arguments: [
            (#"{"name":"Wookie","classification":"mammal","url":"https://swapi.dev/api/species/3/"}"#, nil),
            (#"{"name":"Wookie","url":"http://127.0.0.1:9/t1/api/species/3"}"#, nil),
            (
                #"{"result":{"properties":{"name":"Wookie","url":"https://www.swapi.tech/api/species/3"},"uid":"3"}}"#,
                nil
            ),
            (#"{"name":"Wookie","url":"https://swapi.dev/api/species/4/"}"#, ResponseProblem.notASpecies),
            (#"{"name":"Wookie","url":"https://elsewhere.example/api/species/3/"}"#, .notASpecies),
            (#"{"url":"https://swapi.dev/api/species/3/"}"#, .notASpecies),
            (
                #"{"name":"Wookie","url":"https://swapi.dev/api/planets/3/"}"#,
                .wrongType(path: "url", expected: "a species URL")
            ),
            (
                #"{"name":"Luke Skywalker","height":"172","mass":"77","url":"https://swapi.dev/api/species/3/"}"#,
                .wrongType(path: "height", expected: "a species' field (it is a person's)")
            ),
        ] as [(String, ResponseProblem?)])
    func theSpeciesAnswered(body: String, problem: ResponseProblem?) throws {
        let reader = DetailReader(Self.wookie, of: Self.copy, in: .drf)
        let result = Result { () throws(Fault) in try reader.species(in: Data(body.utf8)) }
        switch (result, problem) {
        case (.success(let decoded), nil): #expect(decoded.species.name == "Wookie")
        case (.failure(let error), let problem?): #expect(error == .invalidResponse(url: reader.url, problem))
        default: Issue.record("\(body): \(result)")
        }
    }

    /// A public service's species URL pasted for a copy is asked as the
    /// copy's own, and taken only when the copy prints that URL: the same
    /// root in any of its spellings. A public service asked in place of
    /// another takes the same id, whatever it prints.
    @Test(
        arguments: [
            (copy, "https://swapi.dev/api/species/3/", "https://swapi.dev/api/species/3/", true),
            (copy, "http://SWAPI.dev/api/species/3", "https://swapi.dev/api/species/3/", true),
            (copy, "https://swapi.dev/api/species/3/", "http://127.0.0.1:9/t1/api/species/3/", false),
            (copy, "https://swapi.dev/api/species/3/", "https://swapi.py4e.com/api/species/3/", false),
            (copy, "http://127.0.0.1:9/t1/api/species/3/", "https://swapi.dev/api/species/3/", true),
            (
                APIRoot.publicServices[1], "https://swapi.dev/api/species/3/", "https://swapi.py4e.com/api/species/3/",
                true
            ),
        ] as [(APIRoot, String, String, Bool)])
    func aPastedURLIsTakenWherePrinted(root: APIRoot, pasted: String, printed: String, taken: Bool) throws {
        let reader = DetailReader(Self.wookie, of: root, in: .drf, pasted: URL(string: pasted))
        #expect(reader.url == Dialect.drf.url(of: Self.wookie, under: root) || reader.url.absoluteString == pasted)
        let body = Data(#"{"name":"Wookie","url":"\#(printed)"}"#.utf8)
        let result = Result { () throws(Fault) in try reader.species(in: body) }
        switch result {
        case .success: #expect(taken, "\(pasted) at \(printed)")
        case .failure(let error):
            #expect(!taken && error == .notASpeciesURL(pasted, of: root))
        }
    }

    /// A planet, person or film is an object of its kind.
    @Test(
        arguments: [
            (ResourceReference.Kind.people, #"{"name":"Chewbacca","height":"228","mass":"112"}"#, "Chewbacca"),
            (.planets, #"{"name":"Kashyyyk","climate":"tropical"}"#, "Kashyyyk"),
            (.films, #"{"title":"A New Hope","episode_id":4}"#, "A New Hope"),
            (.people, #"{"name":"Wookie","classification":"mammal"}"#, nil),
            (.planets, #"{"name":"Chewbacca","mass":"112"}"#, nil),
            (.people, #"{"result":{"properties":{"name":"Chewbacca","gender":"male"}}}"#, "Chewbacca"),
        ] as [(ResourceReference.Kind, String, String?)])
    func theResourceAnswered(kind: ResourceReference.Kind, body: String, name: String?) {
        let reader = DetailReader(ResourceReference(kind, 13), of: Self.dev, in: .drf)
        let result = Result { () throws(Fault) in try reader.resource(in: Data(body.utf8)) }
        switch (result, name) {
        case (.success(let resource), let name?): #expect((resource.name ?? resource.title) == name)
        case (.failure(let error), nil): #expect(error == .invalidResponse(url: reader.url, .notOfKind(kind.noun)))
        default: Issue.record("\(kind) \(body): \(result)")
        }
    }

    /// A 404 is SWAPI's answer once the species list answered whole in the
    /// dialect asked in; in another, the thing is asked again in it.
    @Test(
        arguments: [
            (Dialect.drf, Dialect.drf, nil), (.drf, .info, "http://127.0.0.1:9/t1/api/species/3"),
            (.tech, .drf, "http://127.0.0.1:9/t1/api/species/3/"), (.info, .info, nil),
        ] as [(Dialect, Dialect, String?)])
    func aNotFound(asked: Dialect, listed: Dialect, again: String?) {
        let reader = DetailReader(Self.wookie, of: Self.copy, in: asked)
        #expect(reader.afterNotFound(listed: listed)?.url.absoluteString == again)
    }
}
