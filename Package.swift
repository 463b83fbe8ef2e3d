// swift-tools-version: 6.0
import PackageDescription

// The functions of URLSessionFixes that stand in for libcurl's. A dynamic
// build must export them from the executable, so that the dynamic linker
// gives FoundationNetworking these rather than libcurl's own.
let libcurlStandIns = [
    "curl_multi_setopt", "curl_easy_setopt", "curl_easy_cleanup", "curl_multi_add_handle", "curl_multi_info_read",
]

// An async function without an actor runs where its caller does (SE-0461),
// not on the thread pool: an answer from the cache then needs no thread
// beyond the main one.
let callerIsolation: [SwiftSetting] = [.enableUpcomingFeature("NonisolatedNonsendingByDefault")]

let package = Package(
    name: "species",
    // SpeciesKit's floor (docs/guide.md, "SpeciesKit in an app"): `Mutex`
    // needs these; anything newer is used behind `if #available`.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .executable(name: "species", targets: ["species"]), .library(name: "SpeciesKit", targets: ["SpeciesKit"]),
    ],
    targets: [
        // The engine: model, client, cache, renderers and output formats.
        .target(name: "SpeciesKit", swiftSettings: callerIsolation),
        // Workarounds for FoundationNetworking's libcurl glue on Linux; part
        // of the executable only, never of a package that uses SpeciesKit.
        .target(name: "URLSessionFixes"),
        // The commit and date of the build, which `make` passes in.
        .target(name: "BuildInfo"),
        // The command line. species.1 is its manual page, made by `make man`.
        .executableTarget(
            name: "species", dependencies: ["SpeciesKit", "URLSessionFixes", "BuildInfo"], exclude: ["species.1"],
            swiftSettings: callerIsolation,
            linkerSettings: [
                .unsafeFlags(
                    libcurlStandIns.flatMap { ["-Xlinker", "--export-dynamic-symbol=\($0)"] },
                    .when(platforms: [.linux]))
            ]),
        .target(
            name: "TestSupport", dependencies: ["SpeciesKit"], path: "Tests/TestSupport", swiftSettings: callerIsolation
        ),
        .testTarget(
            name: "SpeciesKitTests", dependencies: ["SpeciesKit", "TestSupport"], swiftSettings: callerIsolation),
        // Depends on the executable so that `swift test` builds the binary the
        // end-to-end tests run, and so the command line can be unit-tested.
        .testTarget(
            name: "SpeciesCLITests", dependencies: ["species", "SpeciesKit", "TestSupport"],
            swiftSettings: callerIsolation),
    ])
