// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "species",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "species", targets: ["species"]),
        .library(name: "SpeciesKit", targets: ["SpeciesKit"]),
    ],
    targets: [
        .target(name: "SpeciesKit"),
        .executableTarget(name: "species", dependencies: ["SpeciesKit"]),
        .target(name: "TestSupport", dependencies: ["SpeciesKit"], path: "Tests/TestSupport"),
        .testTarget(name: "SpeciesKitTests", dependencies: ["SpeciesKit", "TestSupport"]),
        // Depends on the executable so that `swift test` builds the binary the
        // end-to-end tests run, and so the argument parser can be unit-tested.
        .testTarget(name: "SpeciesCLITests", dependencies: ["species", "SpeciesKit", "TestSupport"]),
    ]
)
