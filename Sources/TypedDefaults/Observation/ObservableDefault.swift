import Observation

/// One stored value as an `Observable` object: what `UserDefaultState` keeps for a SwiftUI view
/// (Apple platforms), tested on Linux.
///
/// ```swift
/// let volume = ObservableDefault(UserDefault(wrappedValue: 0.5, "volume"))
/// withObservationTracking { _ = volume.value } onChange: { print("volume changed") }
/// volume.value = 0.8
/// ```
///
/// Reads of ``value`` are tracked, and every change of the key is reported: through this object,
/// any other handle, a reset, a migration, or another process.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
final class ObservableDefault<Value: DefaultsValueConvertible & Sendable>: Observable, Sendable {
    /// The property behind the value.
    let property: UserDefault<Value>

    /// Follows the value of `property`.
    init(_ property: UserDefault<Value>) {
        self.property = property
    }

    /// Follows the value of a typed key, in `store` (or the key's store, or the standard one).
    ///
    /// - Parameters:
    ///   - key: the typed key, with its default, rules and callbacks.
    ///   - store: the store the value lives in; if `nil` (the default), the key's store, else `.standard`.
    convenience init(_ key: DefaultsKey<Value>, store: DefaultsStore? = nil) {
        self.init(UserDefault(key, store: store))
    }

    /// The stored value, or the default; setting it stores it.
    var value: Value {
        get {
            let handle = property.handle
            if !handle.isOutsideObservable { handle.noteObservedRead(of: self) }
            return property.wrappedValue
        }
        set { property.wrappedValue = newValue }
    }
}
