// swift-tools-version: 6.2
import PackageDescription

// The settings page, on Hummingbird 2, in a package of its own, so users of the library fetch
// nothing: a program can mount it in its own server. `typed-defaults serve` runs the page server
// `typed-defaults-serve`, built here apart from the tool, so that the tool needs only
// swift-argument-parser and only those who serve pages fetch and build the server's packages:
//     bash Tools/install.sh --serve
let package = Package(
    name: "TypedDefaultsWeb",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "TypedDefaultsWeb", targets: ["TypedDefaultsWeb"]),
        .executable(name: "typed-defaults-serve", targets: ["typed-defaults-serve"]),
    ],
    dependencies: [
        .package(name: "TypedDefaults", path: ".."),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        // Hummingbird's own: the server closes a connection whose request body is refused.
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.34.1"),
    ],
    targets: [
        .target(
            name: "TypedDefaultsWeb",
            dependencies: [
                // Named explicitly: a path dependency is otherwise known by its folder's name.
                .product(name: "TypedDefaults", package: "TypedDefaults"),
                .product(name: "TypedDefaultsSchema", package: "TypedDefaults"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
            ]
        ),
        // Its command line is three options, read by hand: no swift-argument-parser to fetch.
        .executableTarget(
            name: "typed-defaults-serve",
            dependencies: ["TypedDefaultsWeb", .product(name: "TypedDefaults", package: "TypedDefaults")]
        ),
        // Runs the built server as a real process on loopback, against real suites.
        .testTarget(
            name: "TypedDefaultsWebTests",
            dependencies: [
                "typed-defaults-serve", .product(name: "TypedDefaults", package: "TypedDefaults"),
                .product(name: "TypedDefaultsSchema", package: "TypedDefaults"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
