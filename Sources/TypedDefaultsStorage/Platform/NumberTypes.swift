import Foundation

extension NSNumber {
    /// Whether the number is a boolean, not a 0 or 1: `as? Bool` is no test, as it also accepts
    /// a parsed integer 0 or 1. Darwin bridges any `NSNumber` to `Bool`, and only `CFBoolean`
    /// is a real boolean; corelibs gives booleans (Swift's, `NSNumber`'s and a parsed `<true/>`)
    /// the type `c`.
    package var isBoolean: Bool {
        #if canImport(Darwin)
            CFGetTypeID(self) == CFBooleanGetTypeID()
        #else
            UInt8(bitPattern: objCType.pointee) == UInt8(ascii: "c")
        #endif
    }
}
