// swift-tools-version: 6.1
// The toolchain must be Swift 6.2.3 or later, which a tools version cannot say: DefaultsError is
// @nonexhaustive, and the core stops an earlier compiler with an error that names the version.
import CompilerPluginSupport
import PackageDescription

// Every library a user depends on, by this package's URL and version. Each integration and the
// packages it needs are behind a trait of its own, off by default: depending on the core fetches
// nothing, and `traits: ["Postgres"]` fetches postgres-nio and what it needs, no more. Without
// its trait an integration's library is built empty but for names that say which trait they need
// (`#if Postgres`), and the PostgreSQL rows' code, which the fuzz targets read.
let package = Package(
    name: "TypedDefaults",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "TypedDefaults", targets: ["TypedDefaults"]),
        // What tools read and write: a published schema's description, and the text, JSON and
        // property-list forms of stored values. A program publishes its schema with it.
        .library(name: "TypedDefaultsSchema", targets: ["TypedDefaultsSchema"]),
        // Checks a DefaultsBackend of your own: DefaultsBackendConformance.check { … }.
        .library(name: "TypedDefaultsTestSupport", targets: ["TypedDefaultsTestSupport"]),
        .library(name: "TypedDefaultsPostgres", targets: ["TypedDefaultsPostgres"]),
        .library(name: "TypedDefaultsConfiguration", targets: ["TypedDefaultsConfiguration"]),
        .library(name: "TypedDefaultsWeb", targets: ["TypedDefaultsWeb"]),
        // @ObservableSettings, a class of plain properties made settings: `traits: ["Macros"]`.
        .library(name: "TypedDefaultsMacros", targets: ["TypedDefaultsMacros"]),
        // @Secret, a setting kept in the system's keyring; depends on nothing beyond the core.
        .library(name: "TypedDefaultsSecrets", targets: ["TypedDefaultsSecrets"]),
        // The settings page's server, which `typed-defaults serve` runs:
        //     swift build -c release --traits Web --product typed-defaults-serve
        .executable(name: "typed-defaults-serve", targets: ["typed-defaults-serve"]),
        .executable(name: "settings-demo", targets: ["settings-demo"]),
    ],
    traits: [
        .trait(name: "Postgres", description: "TypedDefaultsPostgres, a backend on PostgreSQL: fetches postgres-nio."),
        .trait(
            name: "Configuration",
            description: "TypedDefaultsConfiguration, a swift-configuration provider: fetches swift-configuration."),
        .trait(
            name: "Web",
            description: "TypedDefaultsWeb and typed-defaults-serve, the settings page: fetches Hummingbird."),
        .trait(
            name: "Macros", description: "TypedDefaultsMacros, the @ObservableSettings macro: fetches swift-syntax."),
        .default(enabledTraits: []),
    ],
    dependencies: [
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-configuration", from: "1.4.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        // Hummingbird's own: the server closes a connection whose request body is refused.
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.34.1"),
        // Every major version a current toolchain pairs with, so that an app's other macros
        // need not agree on one.
        .package(url: "https://github.com/swiftlang/swift-syntax", "600.0.0"..<"604.0.0"),
    ],
    targets: [
        // The core: the engine, keys, values and the store's API.
        .target(name: "TypedDefaults", dependencies: ["TypedDefaultsStorage"]),
        // The storage side, below the engine: the suite's plist file, its formats' readers and
        // writer, durable replacement, the file watcher and the lock and clock primitives. It
        // cannot see the engine (no dependency on TypedDefaults), so nothing here calls it; the
        // engine's backends adapt it. Internal to the package: `package` access, no product.
        .target(name: "TypedDefaultsStorage"),
        .target(name: "TypedDefaultsSchema", dependencies: ["TypedDefaults", "TypedDefaultsStorage"]),
        // Speaks the Secret Service's D-Bus protocol itself (Linux) or calls the Keychain (Apple).
        .target(name: "TypedDefaultsSecrets", dependencies: ["TypedDefaults", "TypedDefaultsStorage"]),
        .target(name: "TypedDefaultsTestSupport", dependencies: ["TypedDefaults", "TypedDefaultsSchema"]),
        // Its rows' reading and writing (PostgresRows) is compiled without the trait too, for the
        // fuzz target that reads any rows.
        .target(
            name: "TypedDefaultsPostgres",
            dependencies: [
                "TypedDefaults", "TypedDefaultsSchema", "TypedDefaultsStorage",
                .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["Postgres"])),
            ]
        ),
        // swift-configuration compiles its protocols with NonisolatedNonsendingByDefault; the
        // provider is compiled the same way so that its closures match them.
        .target(
            name: "TypedDefaultsConfiguration",
            dependencies: [
                "TypedDefaults", "TypedDefaultsSchema", "TypedDefaultsSecrets",
                .product(
                    name: "Configuration", package: "swift-configuration", condition: .when(traits: ["Configuration"])),
            ],
            swiftSettings: [.enableUpcomingFeature("NonisolatedNonsendingByDefault")]
        ),
        .target(
            name: "TypedDefaultsWeb",
            dependencies: [
                "TypedDefaults", "TypedDefaultsSchema", "TypedDefaultsSecrets",
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Web"])),
                .product(name: "HummingbirdCore", package: "hummingbird", condition: .when(traits: ["Web"])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["Web"])),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras", condition: .when(traits: ["Web"])),
            ]
        ),
        // The macro's declarations: without the trait, no macro (a macro declared without its
        // plugin is a warning), and `@ObservableSettings` is a name that says the trait is needed.
        // A model's secrets are TypedDefaultsSecrets', which needs no other package.
        .target(
            name: "TypedDefaultsMacros",
            dependencies: [
                "TypedDefaults", "TypedDefaultsSecrets",
                .target(name: "TypedDefaultsMacrosPlugin", condition: .when(traits: ["Macros"])),
            ]
        ),
        // The macro's expansion, run by the compiler. Its files are compiled by the Macros
        // package's tests too (a symbolic link there), which check each expansion.
        .macro(
            name: "TypedDefaultsMacrosPlugin",
            dependencies: [
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax", condition: .when(traits: ["Macros"])),
                .product(name: "SwiftCompilerPlugin", package: "swift-syntax", condition: .when(traits: ["Macros"])),
            ]
        ),
        // Its command line is three options, read by hand: no swift-argument-parser to fetch.
        .executableTarget(name: "typed-defaults-serve", dependencies: ["TypedDefaultsWeb", "TypedDefaults"]),
        .executableTarget(name: "settings-demo", dependencies: ["TypedDefaults", "TypedDefaultsSchema"]),
        // Writes and reads values in a child process, so tests can cross a real restart: a test
        // helper, so it lives with the tests, and no product names it.
        .executableTarget(
            name: "DefaultsProbe", dependencies: ["TypedDefaults", "TypedDefaultsSchema", "TypedDefaultsSecrets"],
            path: "Tests/DefaultsProbe"),
        .testTarget(
            name: "TypedDefaultsTests",
            dependencies: [
                "TypedDefaults", "TypedDefaultsSchema", "TypedDefaultsTestSupport", "TypedDefaultsSecrets",
                "TypedDefaultsStorage", "DefaultsProbe",
            ]),
        // juliand665/UserDefault's own tests, which this API started from, ported with the
        // fewest changes (its Tests.swift lists them), in the Swift 5 mode they were written in.
        // Quiet: they declare `var` the wrappers they assign through, whose setter here is
        // nonmutating, and each is a "never mutated" warning of code kept as it was written.
        .testTarget(
            name: "UserDefaultPortTests",
            dependencies: ["TypedDefaults", "TypedDefaultsSchema"],
            path: "Tests/UserDefaultPortTests",
            exclude: ["LICENSE"],
            swiftSettings: [.swiftLanguageMode(.v5), .unsafeFlags(["-suppress-warnings"])]),
    ],
    swiftLanguageModes: [.v6]
)
