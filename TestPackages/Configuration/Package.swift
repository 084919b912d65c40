// swift-tools-version: 6.2
import PackageDescription

// The swift-configuration provider's tests and its benchmark. The provider itself is the
// TypedDefaultsConfiguration library of the package at the repository's root, behind its
// Configuration trait. Every trait is enabled here, as in the other packages CI builds into one
// folder, so that the library is compiled once for all of them. swift-configuration compiles its
// protocols with NonisolatedNonsendingByDefault; the code here is compiled the same way so that
// its closures match them.
let swiftSettings: [SwiftSetting] = [.enableUpcomingFeature("NonisolatedNonsendingByDefault")]

let package = Package(
    name: "TypedDefaultsConfigurationTests",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    dependencies: [
        .package(name: "TypedDefaults", path: "../..", traits: ["Postgres", "Configuration", "Web", "Macros"]),
        // With its command-line arguments provider, which the tests layer over a suite.
        .package(
            url: "https://github.com/apple/swift-configuration", from: "1.4.0",
            traits: [.defaults, "CommandLineArguments"]),
    ],
    targets: [
        // Times a read through the provider against InMemoryProvider, and another process's
        // write to the watch that sees it.
        .executableTarget(
            name: "configuration-benchmark",
            dependencies: [
                // Named explicitly: a path dependency is otherwise known by its folder's name.
                .product(name: "TypedDefaults", package: "TypedDefaults"),
                .product(name: "TypedDefaultsConfiguration", package: "TypedDefaults"),
                .product(name: "Configuration", package: "swift-configuration"),
            ],
            swiftSettings: swiftSettings
        ),
        // The writer and observers that Benchmarks/change-latency.py times, from a commit to
        // another process hearing of it.
        .executableTarget(
            name: "change-latency-probe",
            dependencies: [
                .product(name: "TypedDefaults", package: "TypedDefaults"),
                .product(name: "TypedDefaultsConfiguration", package: "TypedDefaults"),
                .product(name: "Configuration", package: "swift-configuration"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "TypedDefaultsConfigurationTests",
            dependencies: [
                .product(name: "TypedDefaults", package: "TypedDefaults"),
                .product(name: "TypedDefaultsConfiguration", package: "TypedDefaults"),
                .product(name: "TypedDefaultsSchema", package: "TypedDefaults"),
                .product(name: "TypedDefaultsSecrets", package: "TypedDefaults"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "ConfigurationTesting", package: "swift-configuration"),
            ],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
