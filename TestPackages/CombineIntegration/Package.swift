// swift-tools-version: 6.1
import PackageDescription

// The Combine integration (Sources/TypedDefaults/Integrations/Combine.swift) compiled and tested
// on Linux, where Combine does not exist. The library's own sources (Sources/TypedDefaults and
// Sources/TypedDefaultsStorage here are links to them) are built with a module named Combine that re-exports OpenCombine, so the
// integration's `#if canImport(Combine)` holds and its code is what Apple platforms compile. CI's
// combine stage builds and tests it; the library itself declares no dependency.
let package = Package(
    name: "CombineIntegration",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    dependencies: [.package(url: "https://github.com/OpenCombine/OpenCombine", exact: "0.14.0")],
    targets: [
        .target(name: "Combine", dependencies: [.product(name: "OpenCombine", package: "OpenCombine")]),
        .target(name: "TypedDefaultsStorage"),
        .target(name: "TypedDefaults", dependencies: ["TypedDefaultsStorage", "Combine"]),
        .testTarget(
            name: "CombineIntegrationTests", dependencies: ["TypedDefaults", "TypedDefaultsStorage", "Combine"]),
    ],
    swiftLanguageModes: [.v6]
)
