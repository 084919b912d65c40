// swift-tools-version: 6.1
import PackageDescription

// libFuzzer targets, one for each reader of bytes from outside the process, in a package of
// their own so the library keeps no dependencies. Build and run them from the repository root:
//     bash Fuzz/run.sh 60
// Targets reach the library's internals with @testable import: run.sh builds with
// -enable-testing (and -sanitize=fuzzer,address, -parse-as-library).
/// What every target links.
let fuzz: [Target.Dependency] = [
    "FuzzSupport", .product(name: "TypedDefaults", package: "TypedDefaults"),
    .product(name: "TypedDefaultsSchema", package: "TypedDefaults"),
]

let package = Package(
    name: "TypedDefaultsFuzz",
    platforms: [.macOS(.v13)],
    dependencies: [
        // No trait: TypedDefaultsPostgres is then its rows' reading and writing, without a server
        // client.
        .package(name: "TypedDefaults", path: ".."),
        // Only its library without a command line is linked.
        .package(name: "Tools", path: "../Tools"),
    ],
    targets: [
        // Exact comparison of values, the property-list round trip, a scratch preferences folder.
        .target(
            name: "FuzzSupport",
            dependencies: [
                "CFuzzDriver", .product(name: "TypedDefaults", package: "TypedDefaults"),
                .product(name: "TypedDefaultsSchema", package: "TypedDefaults"),
            ]),
        // Declares libFuzzer's driver, which each target's main calls.
        .target(name: "CFuzzDriver"),
        .executableTarget(name: "fuzz-binary-plist", dependencies: fuzz),
        .executableTarget(name: "fuzz-xml-plist", dependencies: fuzz),
        .executableTarget(name: "fuzz-openstep-plist", dependencies: fuzz),
        .executableTarget(name: "fuzz-json", dependencies: fuzz),
        .executableTarget(name: "fuzz-date", dependencies: fuzz),
        .executableTarget(name: "fuzz-keyed-archive", dependencies: fuzz),
        .executableTarget(name: "fuzz-schema", dependencies: fuzz),
        .executableTarget(name: "fuzz-suite-file", dependencies: fuzz),
        .executableTarget(
            name: "fuzz-import",
            dependencies: fuzz + [.product(name: "TypedDefaultsToolSupport", package: "Tools")]),
        .executableTarget(
            name: "fuzz-postgres-rows",
            dependencies: fuzz + [.product(name: "TypedDefaultsPostgres", package: "TypedDefaults")]),
        // Writes the seeds this library, corelibs and the tool make (make-corpus.py runs it).
        .executableTarget(
            name: "fuzz-seeds",
            dependencies: fuzz + [
                .product(name: "TypedDefaultsToolSupport", package: "Tools"),
                .product(name: "TypedDefaultsPostgres", package: "TypedDefaults"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
