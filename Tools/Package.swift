// swift-tools-version: 6.1
import PackageDescription

// The command-line tool lives in a package of its own, so users of the library fetch nothing:
// a package fetches every package its dependencies declare outside a trait, even those only an
// executable uses.
// For the same reason it needs swift-argument-parser alone: `typed-defaults serve` runs the page
// server `typed-defaults-serve`, a program of the root package's Web trait, which alone fetches
// the server's packages. Build and install it (release, into ~/.local/bin) from the repository
// root:
//     bash Tools/install.sh
let package = Package(
    name: "TypedDefaultsTools",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "typed-defaults", targets: ["typed-defaults"]),
        // What the tool reads and writes as files, without the command line: for fuzz targets.
        .library(name: "TypedDefaultsToolSupport", targets: ["TypedDefaultsToolSupport"]),
    ],
    dependencies: [
        .package(name: "TypedDefaults", path: ".."),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        .executableTarget(
            name: "typed-defaults",
            dependencies: [
                "TypedDefaultsToolSupport",
                // Named explicitly: a path dependency is otherwise known by its folder's name.
                .product(name: "TypedDefaults", package: "TypedDefaults"),
                .product(name: "TypedDefaultsSchema", package: "TypedDefaults"),
                // Secrets a schema declares: whether the keyring holds one, a new one, none.
                .product(name: "TypedDefaultsSecrets", package: "TypedDefaults"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // No ArgumentParser here: a fuzz target links it alone.
        .target(
            name: "TypedDefaultsToolSupport",
            dependencies: [
                .product(name: "TypedDefaults", package: "TypedDefaults"),
                .product(name: "TypedDefaultsSchema", package: "TypedDefaults"),
            ]
        ),
        // Runs the built tool as a real process against real suites.
        .testTarget(
            name: "TypedDefaultsToolTests",
            dependencies: [
                "typed-defaults", "TypedDefaultsToolSupport", .product(name: "TypedDefaults", package: "TypedDefaults"),
                .product(name: "TypedDefaultsSchema", package: "TypedDefaults"),
                .product(name: "TypedDefaultsSecrets", package: "TypedDefaults"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
