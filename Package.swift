// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "species",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "species", targets: ["species"]),
        .executable(name: "species-http", targets: ["species-http"]),
        .library(name: "SpeciesKit", targets: ["SpeciesKit"]),
        .library(name: "SpeciesHTTP", targets: ["SpeciesHTTP"]),
    ],
    targets: [
        .target(name: "SpeciesKit"),
        // URLSession, kept out of SpeciesKit so that species starts without
        // loading FoundationNetworking and libcurl (see HelperTransport).
        .target(name: "SpeciesHTTP", dependencies: ["SpeciesKit"]),
        // species.1 is the manual page, made by `make man`.
        .executableTarget(name: "species", dependencies: ["SpeciesKit"], exclude: ["species.1"]),
        .executableTarget(name: "species-http", dependencies: ["SpeciesHTTP"]),
        .target(name: "TestSupport", dependencies: ["SpeciesKit"], path: "Tests/TestSupport"),
        .testTarget(name: "SpeciesKitTests", dependencies: ["SpeciesKit", "TestSupport"]),
        // Depends on the executable so that `swift test` builds the binary the
        // end-to-end tests run, and so the argument parser can be unit-tested.
        .testTarget(name: "SpeciesCLITests", dependencies: ["species", "species-http", "SpeciesKit", "TestSupport"]),
    ]
)
