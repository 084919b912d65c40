// swift-tools-version: 6.2
import PackageDescription

// @ObservableSettings' tests: its expansions (swift-macro-testing), and the expanded code's
// behaviour in each isolation configuration an app may build with, one test target each, all
// compiled from the same declarations; juliand665/UserDefault's spellings are compiled the same
// way, as its users write them. The macro is the TypedDefaultsMacros library of the
// package at the repository's root, behind its Macros trait. Every trait is enabled here, as in
// the other packages CI builds into one folder, so that the library is compiled once for all.
let testDependencies: [Target.Dependency] = [
    .product(name: "TypedDefaults", package: "TypedDefaults"),
    .product(name: "TypedDefaultsMacros", package: "TypedDefaults"),
    .product(name: "TypedDefaultsTestSupport", package: "TypedDefaults"),
]

let package = Package(
    name: "TypedDefaultsMacrosTests",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10)],
    dependencies: [
        .package(name: "TypedDefaults", path: "../..", traits: ["Postgres", "Configuration", "Web", "Macros"]),
        .package(url: "https://github.com/pointfreeco/swift-macro-testing", from: "0.7.0"),
        .package(url: "https://github.com/swiftlang/swift-syntax", "600.0.0"..<"604.0.0"),
    ],
    targets: [
        // The macro plugin's own files (a symbolic link to them), compiled as a library so that
        // the expansion tests can name its macros.
        .target(
            name: "MacrosUnderTest",
            dependencies: [
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftDiagnostics", package: "swift-syntax"),
            ],
            exclude: ["Plugin.swift"],
            swiftSettings: [.define("Macros")]
        ),
        .testTarget(
            name: "ExpansionTests",
            dependencies: ["MacrosUnderTest", .product(name: "MacroTesting", package: "swift-macro-testing")]
        ),
        // Writes and reads a model's settings in another process, for the tests that cross one.
        .executableTarget(name: "macro-probe", dependencies: testDependencies.dropLast()),
        // Swift 6, strict concurrency.
        .testTarget(
            name: "Swift6Tests",
            dependencies: testDependencies + [
                "macro-probe", .product(name: "TypedDefaultsSchema", package: "TypedDefaults"),
            ]),
        // What Xcode 26's new app templates build with: main-actor isolation by default, and the
        // approachable-concurrency features.
        .testTarget(
            name: "MainActorTests", dependencies: testDependencies,
            swiftSettings: [
                .defaultIsolation(MainActor.self), .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
                .enableUpcomingFeature("InferIsolatedConformances"),
            ]
        ),
        .testTarget(name: "Swift5Tests", dependencies: testDependencies, swiftSettings: [.swiftLanguageMode(.v5)]),
    ],
    swiftLanguageModes: [.v6]
)
