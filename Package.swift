// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "TypedDefaults",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "TypedDefaults", targets: ["TypedDefaults"]),
        // What tools read and write: a published schema's description, and the text, JSON and
        // property-list forms of stored values. A program publishes its schema with it.
        .library(name: "TypedDefaultsSchema", targets: ["TypedDefaultsSchema"]),
        // Checks a DefaultsBackend of your own: DefaultsBackendConformance.check { … }.
        .library(name: "TypedDefaultsTestSupport", targets: ["TypedDefaultsTestSupport"]),
        .executable(name: "settings-demo", targets: ["settings-demo"]),
    ],
    targets: [
        .target(name: "TypedDefaults"),
        .target(name: "TypedDefaultsSchema", dependencies: ["TypedDefaults"]),
        .target(name: "TypedDefaultsTestSupport", dependencies: ["TypedDefaults", "TypedDefaultsSchema"]),
        .executableTarget(name: "settings-demo", dependencies: ["TypedDefaults", "TypedDefaultsSchema"]),
        // Writes and reads values in a child process, so tests can cross a real restart.
        .executableTarget(name: "DefaultsProbe", dependencies: ["TypedDefaults", "TypedDefaultsSchema"]),
        .testTarget(
            name: "TypedDefaultsTests",
            dependencies: [
                "TypedDefaults", "TypedDefaultsSchema", "TypedDefaultsTestSupport", "DefaultsProbe",
            ]),
    ],
    swiftLanguageModes: [.v6]
)
