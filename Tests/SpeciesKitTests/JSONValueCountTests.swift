import Foundation
import Testing
import TestSupport

@testable import SpeciesKit

/// What a body may hold before it is decoded (JSONValueCount).
@Suite("Bodies within bounds")
struct JSONValueCountTests {
    private func excess(_ json: String, values: Int = 1_000_000, longStrings: Int = 1_000_000) -> Excess? {
        JSONValueCount(maxValues: values, maxLongStrings: longStrings).excess(in: Data(json.utf8))
    }

    @Test(
        "values are counted, keys are not",
        arguments: [
            ("{}", 1), ("[]", 1), ("[1]", 2), ("[1, [2, 3], {\"a\": [], \"b\": null}]", 8), ("\"x\"", 1), ("  42 ", 1),
            (#"{"count":37,"next":"x,y:[z]","results":[{"name":"A\"B"},{}]}"#, 7), (#"[true,false,null,-1.5e3]"#, 5),
        ])
    func counts(json: String, values: Int) {
        #expect(excess(json, values: values) == nil)
        #expect(excess(json, values: values - 1) == .values(values - 1))
    }

    @Test func stringsLongerThan15BytesAreCountedApart() {
        let json = #"{"sixteen-byte-key":["123456789012345","1234567890123456","x"]}"#
        #expect(excess(json, longStrings: 1) == nil)
        #expect(excess(json, longStrings: 0) == .longStrings(0))
    }

    @Test func theLimitsFollowTheSizeLimit() {
        let limits = JSONValueCount(maxSize: 104_857_600)
        #expect(limits.maxValues == 2_184_533 && limits.maxLongStrings == 1_092_266)
        #expect(JSONValueCount(maxSize: 1).maxValues == 10_000)
    }

    @Test func aPageOfThreeMillionEmptyObjectsIsRefusedBeforeItIsDecoded() async throws {
        let body = Data(
            ("{\"count\":3000000,\"next\":null,\"previous\":null,\"results\":["
                + repeatElement("{}", count: 3_000_000).joined(separator: ",") + "]}").utf8)
        let client = SpeciesClient.stubbed(StubTransport { _ in HTTPResponse(status: 200, body: body) })
        let error = await fault { _ = try await client.page() }
        #expect(
            error
                == .tooLarge(url: URL(string: "https://swapi.dev/api/species/")!, .values(2_184_533)))
        #expect(error?.description == "https://swapi.dev/api/species/: it holds more than 2184533 JSON values")
    }
}
