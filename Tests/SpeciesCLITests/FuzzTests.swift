import Foundation
import SpeciesKit
import Testing
import TestSupport

@testable import species

/// Mutates recorded pages and species (their bytes, or values anywhere in
/// their JSON) and runs `list --all-pages` and `show` over them as the tool
/// does: never a crash, and exit status 0 or 65 only. `make test` runs a few
/// hundred cases; `make fuzz` runs FUZZ_CASES (10,000) of them. FUZZ_SEED
/// repeats a run.
@Suite("Fuzzing recorded responses")
struct FuzzTests {
    static let environment = ProcessInfo.processInfo.environment
    static let cases = environment["FUZZ_CASES"].flatMap { Int($0) } ?? 300
    static let seed = environment["FUZZ_SEED"].flatMap { UInt64($0) } ?? 20_141_210

    static let pages = (1...4).map { "https://swapi.dev/api/species/?page=\($0)" }
    static let formats: [OutputFormat] = [.table, .json, .jsonl]

    @Test func mutatedResponsesNeverCrashAndExitOnly0Or65() async throws {
        let recorded = try Fixtures.recordedResponses()
        var random = SplitMix64(seed: Self.seed)
        var statuses: [Int32: Int] = [:]
        for number in 0..<Self.cases {
            let showing = number % 5 == 4
            let target = showing ? "https://swapi.dev/api/species/3/" : Self.pages[random.below(4)]
            let original = try #require(recorded[target]?.body)
            let mutated = Mutation.apply(to: original, using: &random)
            var overrides = [target: StubTransport.Reply.json(mutated)]
            if target == Self.pages[0] {
                overrides["https://swapi.dev/api/species/"] = .json(mutated)
            }
            let output = CapturedOutput()
            let diagnostics = CommandRecorder()
            let context = CommandContext.stubbed(
                try StubTransport.recordedSWAPI(overrides: overrides), output: output, diagnostics: diagnostics)
            let command = showing
                ? ShowCommand(query: .id(3), json: number % 2 == 0).run
                : ListCommand(allPages: true, format: Self.formats[number % 3]).run
            let status = await ExitStatus.run({ try await command(context) }, output: output, diagnostics: diagnostics)
            statuses[status, default: 0] += 1
            #expect(
                status == 0 || status == 65,
                "case \(number) of seed \(Self.seed): exit \(status) for \(String(decoding: mutated.prefix(300), as: UTF8.self))")
        }
        print("fuzzed \(Self.cases) mutated responses (seed \(Self.seed)): \(statuses[0] ?? 0) exit 0, \(statuses[65] ?? 0) exit 65")
        #expect(statuses.values.reduce(0, +) == Self.cases)
    }
}

/// One random change to a JSON document: to its bytes, or to one value of it.
enum Mutation {
    static let bytes: [UInt8] = Array(#"{}[],:"\0-e.9 "#.utf8) + [0x00, 0x07, 0x1B, 0x7F, 0xC3, 0xFF]

    /// JSON values that SWAPI does not send where they land.
    static var values: [Any] {
        [
            NSNull(), true, false, 0, -1, 1e308, 3.5, Double.leastNonzeroMagnitude, Int.max, "", "n/a", "unknown",
            "\u{1B}[31mred\u{07}", String(repeating: "x", count: 10_000), [Any](), [String: Any](), [1, 2], ["a": 1],
            ["b", NSNull()], "https://evil.example/api/species/?page=2", "file:///etc/passwd",
            "http://swapi.dev/api/species/?page=2", "?page=3", "https://swapi.dev/api/species/?page=1",
            "https://swapi.dev/api/species/?page=9", "2014-13-45T99:99:99Z", "2014-12-10T16:44:31Z", "-5", "+5",
            "9999999999999999999999", "a, b,, c",
        ]
    }

    static func apply(to document: Data, using random: inout SplitMix64) -> Data {
        if random.below(2) == 0, let json = try? JSONSerialization.jsonObject(with: document, options: [.fragmentsAllowed]),
            let changed = try? JSONSerialization.data(withJSONObject: change(json, using: &random), options: [.fragmentsAllowed])
        {
            return changed
        }
        return changeBytes(of: document, using: &random)
    }

    private static func changeBytes(of document: Data, using random: inout SplitMix64) -> Data {
        var bytes = [UInt8](document)
        guard !bytes.isEmpty else { return Data(self.bytes) }
        let at = random.below(bytes.count)
        switch random.below(6) {
        case 0: bytes[at] ^= UInt8(1 << random.below(8))
        case 1: bytes[at] = self.bytes[random.below(self.bytes.count)]
        case 2: bytes.insert(self.bytes[random.below(self.bytes.count)], at: at)
        case 3: bytes.removeSubrange(at..<min(bytes.count, at + 1 + random.below(16)))
        case 4: bytes.insert(contentsOf: bytes[at..<min(bytes.count, at + 1 + random.below(64))], at: at)
        default: bytes.removeSubrange(at...)
        }
        return Data(bytes)
    }

    /// Replaces one value somewhere in the tree, or drops or adds a key.
    private static func change(_ value: Any, using random: inout SplitMix64) -> Any {
        if var object = value as? [String: Any], !object.isEmpty {
            let key = object.keys.sorted()[random.below(object.count)]
            switch random.below(4) {
            case 0: object[key] = nil
            case 1: object["extra\(random.below(10))"] = values[random.below(values.count)]
            case 2: object[key] = values[random.below(values.count)]
            default: object[key] = change(object[key] as Any, using: &random)
            }
            return object
        }
        if var array = value as? [Any], !array.isEmpty {
            let index = random.below(array.count)
            array[index] = random.below(3) == 0 ? values[random.below(values.count)] : change(array[index], using: &random)
            return array
        }
        return values[random.below(values.count)]
    }
}

/// A small, seeded pseudo-random generator, so that a run can be repeated.
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number from 0 up to, not including, `bound`.
    mutating func below(_ bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }
}
