import Foundation

/// Stops the process on a broken property, so libFuzzer saves the input that broke it: a fuzz
/// target's way of reporting, where library code would never trap.
public func violated(_ property: String, _ details: @autoclosure () -> String = "") -> Never {
    let text = details()
    FileHandle.standardError.write(Data("\nproperty broken: \(property)\n\(text)\n".utf8))
    fatalError("property broken: \(property)")
}

/// Checks a property; on failure, reports it with `details` and stops.
public func require(
    _ holds: @autoclosure () -> Bool, _ property: String, _ details: @autoclosure () -> String = ""
) {
    if !holds() { violated(property, details()) }
}
