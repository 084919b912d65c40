// swift-tools-version: 6.1
import PackageDescription

// The PostgreSQL backend's tests, its probe and its benchmark: what CI runs against a real
// server. The backend itself is the TypedDefaultsPostgres library of the package at the
// repository's root, behind its Postgres trait. Every trait is enabled here, as in the other
// packages CI builds into one folder, so that the library is compiled once for all of them.
let package = Package(
    name: "TypedDefaultsPostgresTests",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "TypedDefaults", path: "../..", traits: ["Postgres", "Configuration", "Web", "Macros"]),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        // postgres-nio's own TLS; named for the tests, which connect with it.
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        // The swift-configuration provider, measured and tested over a PostgreSQL suite here,
        // where the server and postgres-nio are at hand.
        .package(url: "https://github.com/apple/swift-configuration", from: "1.4.0"),
    ],
    targets: [
        // Stands for one machine of a fleet, in the tests' child processes.
        .executableTarget(
            name: "postgres-probe",
            dependencies: [
                // Named explicitly: a path dependency is otherwise known by its folder's name.
                .product(name: "TypedDefaults", package: "TypedDefaults"),
                .product(name: "TypedDefaultsPostgres", package: "TypedDefaults"),
            ]
        ),
        // Times reads, writes, commits and change propagation against a plist file store.
        .executableTarget(
            name: "postgres-benchmark",
            dependencies: [
                .product(name: "TypedDefaults", package: "TypedDefaults"),
                .product(name: "TypedDefaultsPostgres", package: "TypedDefaults"),
                .product(name: "TypedDefaultsConfiguration", package: "TypedDefaults"),
                .product(name: "Configuration", package: "swift-configuration"),
            ]
        ),
        .testTarget(
            name: "TypedDefaultsPostgresTests",
            dependencies: [
                "postgres-probe",
                .product(name: "TypedDefaults", package: "TypedDefaults"),
                .product(name: "TypedDefaultsPostgres", package: "TypedDefaults"),
                .product(name: "TypedDefaultsTestSupport", package: "TypedDefaults"),
                .product(name: "TypedDefaultsSchema", package: "TypedDefaults"),
                .product(name: "TypedDefaultsConfiguration", package: "TypedDefaults"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Configuration", package: "swift-configuration"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
