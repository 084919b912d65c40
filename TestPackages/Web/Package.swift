// swift-tools-version: 6.2
import PackageDescription

// The settings page's tests: they run the built page server, typed-defaults-serve, as a real
// process on loopback, against real suites. The page (TypedDefaultsWeb) and its server are in
// the package at the repository's root, behind its Web trait. Every trait is enabled here, as in
// the other packages CI builds into one folder, so that the library is compiled once for all of
// them; build the server into the same folder before the tests:
//     swift build --package-path TestPackages/Web --product typed-defaults-serve
let package = Package(
    name: "TypedDefaultsWebTests",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "TypedDefaults", path: "../..", traits: ["Postgres", "Configuration", "Web", "Macros"])
    ],
    targets: [
        .testTarget(
            name: "TypedDefaultsWebTests",
            dependencies: [
                // Named explicitly: a path dependency is otherwise known by its folder's name.
                .product(name: "TypedDefaults", package: "TypedDefaults"),
                .product(name: "TypedDefaultsSchema", package: "TypedDefaults"),
                .product(name: "TypedDefaultsSecrets", package: "TypedDefaults"),
                // The page in this process, over a store in memory with an administration of its own.
                .product(name: "TypedDefaultsWeb", package: "TypedDefaults"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
