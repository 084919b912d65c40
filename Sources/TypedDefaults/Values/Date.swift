import Foundation

/// Dates keep their full precision.
///
/// On Apple platforms a date is stored as a property-list date. On Linux plain `UserDefaults`
/// writes the suite file as XML, whose dates keep whole seconds only (1234567890.125 reads back
/// as 1234567890.0), and any plain writer of the suite rewrites the whole file; so there a date
/// is stored as its `timeIntervalSinceReferenceDate`, a `Double`, which round-trips exactly.
/// Reading accepts either form, so dates written by plain `UserDefaults` read too.
///
/// ```swift
/// @UserDefault("lastSync") var lastSync = Date.distantPast
/// ```
extension Date: DefaultsValue, PropertyListBridged {
    init(bridgedObject object: Any) throws {
        if let date = object as? Date {
            self = date
            return
        }
        switch StoredObject.number(object) {
        case .floating(let interval): self.init(timeIntervalSinceReferenceDate: interval)
        case .signed(let interval): self.init(timeIntervalSinceReferenceDate: Double(interval))
        default: throw DefaultsTypeMismatch(expected: Date.self, found: object)
        }
    }

    public var _propertyListObject: Any {
        storedForm
    }
}
