// swift-tools-version: 6.1
import PackageDescription

// The PostgreSQL backend lives in a package of its own, so users of the library fetch nothing:
// a package fetches every package its dependencies declare.
let package = Package(
    name: "TypedDefaultsPostgres",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "TypedDefaultsPostgres", targets: ["TypedDefaultsPostgres"]),
        // How rows are read and written, without PostgresNIO: for fuzz targets.
        .library(name: "TypedDefaultsPostgresRows", targets: ["TypedDefaultsPostgresRows"]),
    ],
    dependencies: [
        .package(name: "TypedDefaults", path: ".."),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        // postgres-nio's own TLS; named for the tests, which connect with it.
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        // The swift-configuration provider, measured and tested over a PostgreSQL suite here,
        // where the server and postgres-nio are at hand.
        .package(name: "TypedDefaultsConfiguration", path: "../Configuration"),
        .package(url: "https://github.com/apple/swift-configuration", from: "1.4.0"),
    ],
    targets: [
        .target(
            name: "TypedDefaultsPostgres",
            dependencies: [
                // Named explicitly: a path dependency is otherwise known by its folder's name.
                "TypedDefaultsPostgresRows",
                .product(name: "TypedDefaults", package: "TypedDefaults"),
                .product(name: "TypedDefaultsSchema", package: "TypedDefaults"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ]
        ),
        // No PostgresNIO here: a fuzz target links it alone.
        .target(
            name: "TypedDefaultsPostgresRows",
            dependencies: [
                .product(name: "TypedDefaults", package: "TypedDefaults"),
                .product(name: "TypedDefaultsSchema", package: "TypedDefaults"),
            ]
        ),
        // Stands for one machine of a fleet, in the tests' child processes.
        .executableTarget(
            name: "postgres-probe",
            dependencies: ["TypedDefaultsPostgres", .product(name: "TypedDefaults", package: "TypedDefaults")]
        ),
        // Times reads, writes, commits and change propagation against a plist file store.
        .executableTarget(
            name: "postgres-benchmark",
            dependencies: [
                "TypedDefaultsPostgres", .product(name: "TypedDefaults", package: "TypedDefaults"),
                .product(name: "TypedDefaultsConfiguration", package: "TypedDefaultsConfiguration"),
                .product(name: "Configuration", package: "swift-configuration"),
            ]
        ),
        .testTarget(
            name: "TypedDefaultsPostgresTests",
            dependencies: [
                "TypedDefaultsPostgres", "postgres-probe",
                .product(name: "TypedDefaultsTestSupport", package: "TypedDefaults"),
                .product(name: "TypedDefaultsSchema", package: "TypedDefaults"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "TypedDefaultsConfiguration", package: "TypedDefaultsConfiguration"),
                .product(name: "Configuration", package: "swift-configuration"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
