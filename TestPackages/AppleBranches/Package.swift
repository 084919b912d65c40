// swift-tools-version: 6.1
import PackageDescription

// The library's Apple-only branches (`#if canImport(Darwin)`, `canImport(Security)`,
// `canImport(SwiftUI)`, `canImport(CoreGraphics)`) compiled on Linux, where those modules do not
// exist. The library's sources (Sources/TypedDefaults/Library,
// Sources/TypedDefaultsStorage/Library and Sources/TypedDefaultsSecrets/Library here are links to
// them) are built beside stand-in modules of the Apple names, so each `canImport` holds and the
// code compiled is the code Apple platforms compile. The stand-ins declare only the Apple API that code uses, each as Apple documents it;
// they are never linked or run, so CI's apple stage builds this package and runs nothing.
let package = Package(
    name: "AppleBranches",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    targets: [
        .target(name: "Darwin"),
        .target(name: "os", dependencies: ["Darwin"]),
        .target(name: "AppleFoundation", dependencies: ["Darwin"]),
        .target(name: "Security", dependencies: ["AppleFoundation"]),
        .target(name: "CoreGraphics"),
        .target(name: "SwiftUI"),
        .target(name: "TypedDefaultsStorage", dependencies: ["AppleFoundation", "os"]),
        .target(
            name: "TypedDefaults",
            dependencies: ["TypedDefaultsStorage", "AppleFoundation", "os", "CoreGraphics", "SwiftUI"]),
        .target(
            name: "TypedDefaultsSecrets",
            dependencies: ["TypedDefaults", "TypedDefaultsStorage", "AppleFoundation", "Security"]),
    ],
    swiftLanguageModes: [.v6]
)
