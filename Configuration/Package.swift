// swift-tools-version: 6.2
import PackageDescription

// A swift-configuration provider over any TypedDefaults store, in a package of its own, so
// users of the library fetch nothing: a package fetches every package its dependencies declare.
// swift-configuration compiles its protocols with NonisolatedNonsendingByDefault; a provider
// is compiled the same way so that its closures match them.
let swiftSettings: [SwiftSetting] = [.enableUpcomingFeature("NonisolatedNonsendingByDefault")]

let package = Package(
    name: "TypedDefaultsConfiguration",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "TypedDefaultsConfiguration", targets: ["TypedDefaultsConfiguration"])
    ],
    dependencies: [
        .package(name: "TypedDefaults", path: ".."),
        // With its command-line arguments provider, which the tests layer over a suite.
        .package(
            url: "https://github.com/apple/swift-configuration", from: "1.4.0",
            traits: [.defaults, "CommandLineArguments"]),
    ],
    targets: [
        .target(
            name: "TypedDefaultsConfiguration",
            dependencies: [
                // Named explicitly: a path dependency is otherwise known by its folder's name.
                .product(name: "TypedDefaults", package: "TypedDefaults"),
                .product(name: "TypedDefaultsSchema", package: "TypedDefaults"),
                .product(name: "Configuration", package: "swift-configuration"),
            ],
            swiftSettings: swiftSettings
        ),
        // Times a read through the provider against InMemoryProvider, and another process's
        // write to the watch that sees it.
        .executableTarget(
            name: "configuration-benchmark",
            dependencies: [
                "TypedDefaultsConfiguration",
                .product(name: "TypedDefaults", package: "TypedDefaults"),
                .product(name: "Configuration", package: "swift-configuration"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "TypedDefaultsConfigurationTests",
            dependencies: [
                "TypedDefaultsConfiguration",
                .product(name: "TypedDefaults", package: "TypedDefaults"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "ConfigurationTesting", package: "swift-configuration"),
            ],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
