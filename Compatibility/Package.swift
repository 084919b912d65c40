// swift-tools-version: 6.1
import PackageDescription

// Code written against earlier versions of the library, built by the api stage: it must compile
// against the library as it is now, with deprecation warnings only.
let package = Package(
    name: "Compatibility",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    dependencies: [.package(name: "TypedDefaults", path: "..")],
    targets: [
        .target(name: "EarlierCode", dependencies: [.product(name: "TypedDefaults", package: "TypedDefaults")])
    ],
    swiftLanguageModes: [.v6]
)
