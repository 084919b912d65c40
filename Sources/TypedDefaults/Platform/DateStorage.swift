import Foundation

extension Date {
    /// What a date is stored as: a property-list date on Apple platforms; on Linux its seconds
    /// since 2001, since the XML file corelibs writes keeps a date's whole seconds only.
    var storedForm: Any {
        #if canImport(Darwin)
            self
        #else
            timeIntervalSinceReferenceDate
        #endif
    }
}
