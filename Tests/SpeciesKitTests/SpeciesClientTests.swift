import Foundation
import Testing
import TestSupport

@testable import SpeciesKit

@Suite("Client and pagination")
struct SpeciesClientTests {
    let root = APIRoot.swapi
    let diagnostics = RecordingDiagnostics()

    private func client(_ transport: StubTransport) -> SpeciesClient {
        SpeciesClient(root: root, transport: transport, diagnostics: diagnostics)
    }

    @Test func followsNextLinksToTheLastPage() async throws {
        let transport = try StubTransport.recordedSWAPI()
        let species = try await client(transport).allSpecies(from: root.speciesURL())
        #expect(species.count == 37)
        #expect(species.map(\.id) == Array(1...37))
        #expect(
            transport.requests.map(\.absoluteString) == [
                "https://swapi.dev/api/species/", "https://swapi.dev/api/species/?page=2",
                "https://swapi.dev/api/species/?page=3", "https://swapi.dev/api/species/?page=4",
            ])
    }

    @Test func followsASearchAcrossItsPages() async throws {
        let transport = try StubTransport.recordedSWAPI()
        let species = try await client(transport).allSpecies(from: root.speciesURL(search: "an"))
        #expect(species.count == 17)
        #expect(species.first?.name == "Human" && species.last?.name == "Pau'an")
        #expect(transport.requests.last?.absoluteString == "https://swapi.dev/api/species/?search=an&page=2")
    }

    @Test func resolvesARelativeNextLink() async throws {
        let first = #"{"count":2,"next":"?page=2","previous":null,"results":[{"name":"A","url":"https://swapi.dev/api/species/1/"}]}"#
        let second = #"{"count":2,"next":null,"previous":null,"results":[{"name":"B","url":"https://swapi.dev/api/species/2/"}]}"#
        let transport = StubTransport([
            "https://swapi.dev/api/species/": .json(Data(first.utf8)),
            "https://swapi.dev/api/species/?page=2": .json(Data(second.utf8)),
        ])
        let species = try await client(transport).allSpecies(from: root.speciesURL())
        #expect(species.compactMap(\.name) == ["A", "B"])
    }

    @Test func aStatusOtherThan2xxIsAnError() async throws {
        let url = root.speciesURL(id: 99)
        let notFound = await speciesError { _ = try await client(try StubTransport.recordedSWAPI()).species(at: url) }
        #expect(notFound == .httpStatus(404, url: url))
        let transport = StubTransport([url.absoluteString: .json(Data("{}".utf8), status: 500)])
        let serverError = await speciesError { _ = try await client(transport).species(at: url) }
        #expect(serverError == .httpStatus(500, url: url))
        #expect(serverError?.exitCode == 69)
        #expect(serverError?.message == "https://swapi.dev/api/species/99/ answered HTTP 500 Internal Server Error")
    }

    @Test(
        "a body that is not SWAPI JSON is exit 65, naming the URL and the problem",
        arguments: [
            ("bad/html-error.html", "the body is not a JSON object (it begins '<!DOCTYPE html> <html lang=\"en\"> <head><title>502 Bad Gatewa…')"),
            ("bad/truncated-page.json", "the body is not valid JSON (it may be cut short)"),
            ("bad/results-not-array.json", "'results' is not an array"),
            ("bad/results-with-a-number.json", "'results[1]' is not an object"),
        ])
    func invalidBodies(fixture: String, problem: String) async throws {
        let url = root.speciesURL()
        let transport = StubTransport([url.absoluteString: .json(try Fixtures.data(fixture))])
        let error = await speciesError { _ = try await client(transport).page(at: url) }
        #expect(error == .invalidResponse(url: url, problem: problem))
        #expect(error?.exitCode == 65)
    }

    @Test func anEmptyBodyIsInvalid() async {
        let url = root.speciesURL()
        let error = await speciesError { _ = try await client(StubTransport([url.absoluteString: .json(Data())])).page(at: url) }
        #expect(error == .invalidResponse(url: url, problem: "the body is empty"))
    }

    @Test func anObjectThatIsNotASpeciesIsInvalid() async throws {
        let url = root.speciesURL(id: 3)
        let transport = StubTransport([url.absoluteString: .json(Data(#"{"detail":"Not found"}"#.utf8))])
        let error = await speciesError { _ = try await client(transport).species(at: url) }
        #expect(error?.exitCode == 65)
    }

    @Test func aTransportFailureIsUnreachable() async {
        let url = root.speciesURL()
        let error = await speciesError {
            _ = try await client(StubTransport([url.absoluteString: .failure(.connectionRefused)])).page(at: url)
        }
        #expect(error == .unreachable(TransportError(.connectionRefused, url: url, detail: "stubbed connectionRefused")))
        #expect(error?.exitCode == 69)
    }

    @Test func wrongTypedFieldsAreWarnedAboutByNameAndField() async throws {
        let url = root.speciesURL()
        let transport = StubTransport([url.absoluteString: .json(try Fixtures.data("bad/wrong-types.json"))])
        let page = try await client(transport).page(at: url)
        #expect(page.results.count == 2)
        #expect(diagnostics.warnings.count == 11)
        #expect(diagnostics.warnings.first == "species 'Wookie': field 'classification' has the wrong JSON type; treated as absent")
        #expect(diagnostics.warnings.contains("species 'Wookie': field 'created' is not a UTC timestamp; treated as absent"))
        #expect(
            diagnostics.warnings.last
                == "species at https://swapi.dev/api/species/1/: field 'name' has the wrong JSON type; treated as absent")
    }
}
