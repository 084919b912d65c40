// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "TypedDefaults",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "TypedDefaults", targets: ["TypedDefaults"]),
        // Checks a DefaultsBackend of your own: DefaultsBackendConformance.check { … }.
        .library(name: "TypedDefaultsTestSupport", targets: ["TypedDefaultsTestSupport"]),
        .executable(name: "settings-demo", targets: ["settings-demo"]),
    ],
    targets: [
        .target(name: "TypedDefaults"),
        .target(name: "TypedDefaultsTestSupport", dependencies: ["TypedDefaults"]),
        .executableTarget(name: "settings-demo", dependencies: ["TypedDefaults"]),
        // Writes and reads values in a child process, so tests can cross a real restart.
        .executableTarget(name: "DefaultsProbe", dependencies: ["TypedDefaults"]),
        .testTarget(
            name: "TypedDefaultsTests", dependencies: ["TypedDefaults", "TypedDefaultsTestSupport", "DefaultsProbe"]),
    ],
    swiftLanguageModes: [.v6]
)
