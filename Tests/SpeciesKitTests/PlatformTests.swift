import Foundation
import Testing

/// Issue 50: SpeciesKit runs on the platforms Package.swift declares (iOS
/// 18, macOS 15 and their peers). Linux's compiler does not check
/// availability, so this lists the API of Swift 6.2's newer platforms that
/// Sources may use only behind `if #available`.
@Suite("Platforms")
struct PlatformTests {
    /// API that needs iOS 26, macOS 26 or their peers.
    static let newer = [
        "Task.immediate", "addImmediateTask", "InlineArray", "MutableSpan", "RawSpan", "UTF8Span", "Observations(",
    ]
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test func packageDeclaresItsPlatforms() throws {
        let manifest = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        #expect(manifest.contains("platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)]"))
    }

    @Test func newerAPIIsUsedOnlyBehindAvailability() throws {
        let sources = Self.root.appendingPathComponent("Sources/SpeciesKit")
        let files = try #require(FileManager.default.enumerator(atPath: sources.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }
        #expect(files.count > 30)
        var unguarded: [String] = []
        for file in files {
            let lines = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
                .split(separator: "\n", omittingEmptySubsequences: false)
            for (number, line) in lines.enumerated()
            where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//")
                && Self.newer.contains(where: { line.contains($0) })
            {
                let guarded = lines[max(0, number - 3)..<number].contains { $0.contains("#available(") }
                if !guarded { unguarded.append("\(file):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))") }
            }
        }
        #expect(unguarded.isEmpty, "API newer than iOS 18 / macOS 15 outside `if #available`: \(unguarded)")
    }
}
