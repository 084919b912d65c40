// swift-tools-version: 6.2
import PackageDescription

// The settings page, on Hummingbird 2, in a package of its own, so users of the library fetch
// nothing. `typed-defaults serve` runs it; a program can mount it in its own server.
let package = Package(
    name: "TypedDefaultsWeb",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "TypedDefaultsWeb", targets: ["TypedDefaultsWeb"])
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
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
