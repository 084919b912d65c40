// swift-tools-version: 6.1
import PackageDescription

// The benchmarks live in a package of their own, so the library keeps no dependencies.
// Run them from the repository root:
//     swift package --package-path Benchmarks benchmark
let package = Package(
    name: "TypedDefaultsBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "TypedDefaults", path: ".."),
        .package(url: "https://github.com/ordo-one/package-benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "TypedDefaultsBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "package-benchmark"),
                // Named explicitly: a path dependency is otherwise known by its folder's name.
                .product(name: "TypedDefaults", package: "TypedDefaults"),
            ],
            path: "Benchmarks/TypedDefaultsBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        ),
        // Prints the ratio tables of RESULTS.md from an exported benchmark run.
        .executableTarget(name: "benchmark-ratios"),
        // Reads one key with plain UserDefaults: what startup.sh measures typed-defaults against.
        .executableTarget(name: "startup-baseline"),
        // Repeats one read or write, for counting instructions under callgrind.
        .executableTarget(
            name: "instruction-counts", dependencies: [.product(name: "TypedDefaults", package: "TypedDefaults")]),
        // Reads values that hold references while other threads replace them: CI's check that
        // a release build retains a value before the suite's lock is given back.
        .executableTarget(
            name: "reads-under-writes", dependencies: [.product(name: "TypedDefaults", package: "TypedDefaults")]),
        // Opens a large suite in a fresh process, for the resident set beside plain UserDefaults.
        .executableTarget(
            name: "memory-footprint", dependencies: [.product(name: "TypedDefaults", package: "TypedDefaults")]),
    ],
    swiftLanguageModes: [.v6]
)
