/// What one process knows about one key of a suite, shared by every handle on that key.
///
/// Handles (`UserDefault` values and their copies) hold their slot, so a read goes straight to
/// it without looking the key up.
// @unchecked Sendable is sound: every mutable field is read and written only by `SuiteState`
// while it holds its lock; `key` is immutable.
@usableFromInline final class KeySlot: @unchecked Sendable {
    let key: String
    /// Whether `object` reflects the backend yet; a slot is filled on first use.
    var isLoaded = false
    /// The stored object, `nil` when nothing is stored.
    var object: PropertyList?
    /// Bumped on every change, so a decode that raced a write is not cached.
    var generation: UInt64 = 0
    /// The last decode of `object`, a `DecodedValue<Value>` for the type last read.
    @usableFromInline var decoded: AnyObject?

    init(key: String) {
        self.key = key
    }
}

/// The result of decoding a slot's object as `Value`, cached until the slot changes.
@usableFromInline final class DecodedValue<Value> {
    @usableFromInline let result: Result<Value, DefaultsError>

    init(_ result: Result<Value, DefaultsError>) {
        self.result = result
    }
}
