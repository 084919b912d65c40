/// What one process knows about one key of a suite, shared by every handle on that key.
///
/// Handles (`UserDefault` values and their copies) hold their slot, so a read goes straight to
/// it without looking the key up.
// @unchecked Sendable is sound: every mutable field is read and written only by `SuiteState`
// while it holds its lock; `key` is immutable; `snapshot` is made of atomics. The lock is also
// why the fields skip Swift's dynamic exclusivity checks (`@exclusivity(unchecked)`): two
// accesses cannot overlap, and on a cached read the checks cost more than everything else
// together (on a write, an eighth). The callbacks' functions are not marked @Sendable, but they capture only immutable values (a key, a default,
// rules, a @Sendable body) and exist only for Sendable value types: `didSet` requires
// `Value: Sendable`.
@usableFromInline final class KeySlot: @unchecked Sendable {
    let key: String
    /// Whether `object` reflects the backend yet; a slot is filled on first use.
    @exclusivity(unchecked) var isLoaded = false
    /// The stored object, `nil` when nothing is stored.
    @exclusivity(unchecked) var object: PropertyList?
    /// What the backend held under the key when it was first written here since the last
    /// commit (`.some(nil)`: nothing), so an explicit refresh can tell a later outside write.
    /// `nil` when no write is pending, or the backend was not loaded at the write.
    @exclusivity(unchecked) var pendingBase: PropertyList??
    /// Bumped on every change, so a decode that raced a write is not cached.
    @exclusivity(unchecked) var generation: UInt64 = 0
    /// The last decode of `object`, a `DecodedValue<Value>` for the type last read.
    @exclusivity(unchecked) @usableFromInline private(set) var decoded: AnyObject?
    /// `ObjectIdentifier(Value.self)` for the `DecodedValue<Value>` in `decoded`: comparing it is
    /// much cheaper than a dynamic cast, which matters on every cached read.
    @exclusivity(unchecked) @usableFromInline private(set) var decodedType: ObjectIdentifier?
    /// Whether a read found nothing stored, with no change since: a read of a missing key is
    /// answered from the cache too.
    @exclusivity(unchecked) @usableFromInline private(set) var isKnownEmpty = false
    /// The value types typed keys of this name were used with in this suite, the first first:
    /// a second one is a conflict, reported once.
    @exclusivity(unchecked) var declaredTypes: [(id: ObjectIdentifier, name: String)] = []
    /// The `didSet` callbacks bound to the key, by the identity of their owner.
    @exclusivity(unchecked) var callbacks: [ObjectIdentifier: SlotCallback] = [:]
    /// The cache, for reads that take no lock, where it fits in two words.
    @usableFromInline let snapshot = CacheSnapshot()

    init(key: String) {
        self.key = key
    }

    /// The cached decode as `Value`, if the last one was of that type.
    @inlinable
    func cachedDecode<Value>(as type: Value.Type) -> DecodedValue<Value>? {
        guard decodedType == ObjectIdentifier(Value.self), let decoded else { return nil }
        return unsafeDowncast(decoded, to: DecodedValue<Value>.self)
    }

    func cache<Value>(_ result: Result<Value, DefaultsError>) {
        let words = try? CacheSnapshot.words(of: result.get())
        cache(CachedDecode(DecodedValue(result), as: ObjectIdentifier(Value.self), words: words))
    }

    /// Caches a decode made by the caller.
    func cache(_ decode: CachedDecode) {
        decoded = decode.box
        decodedType = decode.type
        isKnownEmpty = false
        snapshot.store(decode.words, of: decode.type)
    }

    func cacheNothingStored() {
        decoded = nil
        decodedType = nil
        isKnownEmpty = true
        snapshot.storeNothingStored()
    }

    func clearCache() {
        decoded = nil
        decodedType = nil
        isKnownEmpty = false
        snapshot.clear()
    }

    /// The callbacks whose owners are alive; the others are dropped.
    func liveCallbacks() -> [SlotCallback] {
        guard !callbacks.isEmpty else { return [] }
        callbacks = callbacks.filter { $0.value.owner != nil }
        return callbacks.values.sorted { $0.order < $1.order }
    }
}

/// A `didSet` callback bound to a slot. The slot holds its owner weakly: the keys and wrappers
/// that declare the callback keep it alive, and once they are gone it is dropped.
struct SlotCallback {
    weak var owner: AnyObject?
    /// The owner's identity, which names the callback while it runs.
    let id: ObjectIdentifier
    /// When it was bound, so callbacks run in the order they were declared.
    let order: UInt64
    let call: (SlotChange) -> Void
}

/// A decode to cache: a `DecodedValue<Value>`, `ObjectIdentifier(Value.self)`, and the value's
/// bytes where it fits in the slot's ``CacheSnapshot``. Made where `Value` is concrete, so that
/// no runtime type lookup is needed.
@usableFromInline struct CachedDecode {
    let box: AnyObject
    let type: ObjectIdentifier
    let words: (UInt64, UInt64)?

    @usableFromInline init(_ box: AnyObject, as type: ObjectIdentifier, words: (UInt64, UInt64)?) {
        self.box = box
        self.type = type
        self.words = words
    }
}

/// The result of decoding a slot's object as `Value`, cached until the slot changes.
@usableFromInline final class DecodedValue<Value> {
    @usableFromInline let result: Result<Value, DefaultsError>

    @usableFromInline init(_ result: Result<Value, DefaultsError>) {
        self.result = result
    }
}
