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
    let key: DefaultsStoredKey
    /// Whether `object` reflects the backend yet; a slot is filled on first use.
    @exclusivity(unchecked) var isLoaded = false
    /// The stored object, `nil` when nothing is stored.
    @exclusivity(unchecked) var object: StoredObject?
    /// The estimated size of `object`'s value, where a write measured it: what the suite's size
    /// loses when the next write replaces it (see SuiteState+Size.swift). `nil` when not known.
    @exclusivity(unchecked) var objectSize: Int?
    /// What the backend held under the key when it was first written here since the last
    /// commit (`.some(nil)`: nothing), so an explicit refresh can tell a later outside write.
    /// `nil` when no write is pending, or the backend was not loaded at the write.
    @exclusivity(unchecked) var pendingBase: StoredObject??
    /// Whether `object` is a change not yet committed: the state commits the objects of its
    /// pending slots (`nil`: removes the key).
    @exclusivity(unchecked) var isPending = false
    /// Whether the slot is in the state's list of pending slots, where it stays until the next
    /// commit takes the list, even if its change is dropped before.
    @exclusivity(unchecked) var isListedPending = false
    /// Bumped on every change, so a decode that raced a write is not cached.
    @exclusivity(unchecked) var generation: UInt64 = 0
    /// The last decode of `object`, as the type last read: a `DecodedValue<Value>`, or a
    /// `DecodeFailure` when `failedType` is set.
    @exclusivity(unchecked) @usableFromInline private(set) var decoded: AnyObject?
    /// `ObjectIdentifier(Value.self)` for the successful decode in `decoded`, as its bits, or
    /// `0` (the identifier of no type) with none: comparing it is much cheaper than a dynamic
    /// cast, and it is the one comparison a cached read makes, one instruction where an
    /// optional identifier's takes five.
    @exclusivity(unchecked) @usableFromInline private(set) var decodedType: UInt = 0
    /// `ObjectIdentifier(Value.self)` for the decode that failed, whose error is in `decoded`.
    @exclusivity(unchecked) private(set) var failedType: ObjectIdentifier?
    /// Whether `decoded` is the error the last decode met.
    var decodeFailed: Bool { failedType != nil }
    /// Whether an attempt to store the key's initial value stored nothing (the backend refused
    /// it, the commit failed): not tried again until the slot changes.
    @exclusivity(unchecked) var initialValueNotStored = false
    /// Whether that error was only thrown (by `load()`), not yet reported: the next plain read
    /// reports it, so a read that falls back to the default is never silent.
    @exclusivity(unchecked) var failureUnreported = false
    /// The bytes of the last decode in place of a box in `decoded` (which is then `nil`), for a
    /// value that fits in the ``CacheSnapshot``: a write of such a value allocates no box.
    @exclusivity(unchecked) @usableFromInline private(set) var decodedWords: (UInt64, UInt64) = (0, 0)
    /// Whether a read found nothing stored, with no change since: a read of a missing key is
    /// answered from the cache too.
    @exclusivity(unchecked) @usableFromInline private(set) var isKnownEmpty = false
    /// The value types typed keys of this name were used with in this suite, the first first:
    /// a second one is a conflict, reported once.
    @exclusivity(unchecked) var declaredTypes: [(id: ObjectIdentifier, name: String)] = []
    /// The `didSet` callbacks bound to the key, by the identity of their owner.
    @exclusivity(unchecked) var callbacks: [ObjectIdentifier: SlotCallback] = [:]
    /// The administrator's share of the key, `nil` when it has none (the rule): see
    /// SuiteState+Managed.swift.
    @exclusivity(unchecked) var managed: ManagedEntry?
    /// The cache, for reads that take no lock, where it fits in two words.
    @usableFromInline let snapshot = CacheSnapshot()

    init(key: DefaultsStoredKey) {
        self.key = key
    }

    /// The cached value, if the last decode was as `Value` and succeeded.
    @inlinable @inline(__always)
    func cachedValue<Value>(as type: Value.Type) -> Value? {
        cachedValue(as: Value.self, identifiedBy: ObjectIdentifier(Value.self))
    }

    /// ``cachedValue(as:)`` given `ObjectIdentifier(Value.self)`, as a binding keeps it.
    @inlinable @inline(__always)
    func cachedValue<Value>(as type: Value.Type, identifiedBy identifier: ObjectIdentifier) -> Value? {
        guard decodedType == UInt(bitPattern: identifier) else { return nil }
        // In the words exactly when there is no box: the snapshot holds the value (see
        // `CachedDecode`).
        guard let decoded else {
            return CacheSnapshot.holds(Value.self, identifiedBy: identifier)
                ? CacheSnapshot.value(of: decodedWords, as: Value.self) : nil
        }
        // Borrowed, not retained: the caller holds the lock, so nothing can release the box.
        return Unmanaged.passUnretained(unsafeDowncast(decoded, to: DecodedValue<Value>.self))
            ._withUnsafeGuaranteedRef { $0.value }
    }

    /// The cached decode, if the last one was as `Value`.
    func cachedResult<Value>(as type: Value.Type) -> Result<Value, DefaultsError>? {
        if failedType == ObjectIdentifier(Value.self), let decoded {
            return .failure(unsafeDowncast(decoded, to: DecodeFailure.self).error)
        }
        return cachedValue(as: Value.self).map { .success($0) }
    }

    func cache<Value>(_ result: Result<Value, DefaultsError>) {
        switch result {
        case .success(let value):
            cache(CachedDecode(value))
        case .failure(let error):
            decoded = DecodeFailure(error)
            decodedType = 0
            failedType = ObjectIdentifier(Value.self)
            failureUnreported = false
            isKnownEmpty = false
            snapshot.clear()
        }
    }

    /// Caches a successful decode made by the caller.
    func cache(_ decode: CachedDecode) {
        decoded = decode.box
        decodedType = UInt(bitPattern: decode.type)
        decodedWords = decode.bytes
        failedType = nil
        failureUnreported = false
        isKnownEmpty = false
        snapshot.store(decode.words, of: decode.type)
    }

    func cacheNothingStored() {
        decoded = nil
        decodedType = 0
        failedType = nil
        failureUnreported = false
        isKnownEmpty = true
        snapshot.storeNothingStored()
    }

    func clearCache() {
        decoded = nil
        decodedType = 0
        failedType = nil
        failureUnreported = false
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
    /// An `@Observable` model's or view's tracking of the key, which hears of every change, even
    /// one made without propagation (``DefaultsStore/withoutPropagation(_:)``): what a view
    /// shows stays what is stored.
    var tracksObservation = false
    let call: (SlotChange) -> Void
}

/// A successful decode to cache: `ObjectIdentifier(Value.self)`, and the value's bytes where
/// they fit in the slot's ``CacheSnapshot``, else a `DecodedValue<Value>`. Made where `Value` is
/// concrete, so that no runtime type lookup is needed.
///
/// Four words, the bytes a plain pair told apart by `box` being `nil`: passed in registers, and
/// copied and released by a retain and a release of `box`. An optional pair would make it five
/// words (the optional's tag a byte of its own), passed by address, and every write would copy
/// its box, and destroy an optional of it, through runtime metadata and value witnesses.
@usableFromInline struct CachedDecode {
    /// The `DecodedValue<Value>`, or `nil` when the value is in `bytes`.
    let box: AnyObject?
    let type: ObjectIdentifier
    /// The value's bytes when `box` is `nil`; zeros otherwise.
    let bytes: (UInt64, UInt64)

    /// The value's bytes, where they fit in the slot's ``CacheSnapshot``.
    var words: (UInt64, UInt64)? { box == nil ? bytes : nil }

    @inlinable init<Value>(_ value: Value) {
        if let words = CacheSnapshot.words(of: value) {
            self.init(box: nil, type: ObjectIdentifier(Value.self), bytes: words)
        } else {
            self.init(box: DecodedValue(value), type: ObjectIdentifier(Value.self), bytes: (0, 0))
        }
    }

    /// `box` is `nil` only for a value whose bytes are `bytes`, as ``init(_:)`` makes it.
    @usableFromInline init(box: AnyObject?, type: ObjectIdentifier, bytes: (UInt64, UInt64)) {
        self.box = box
        self.type = type
        self.bytes = bytes
    }
}

/// A slot's object decoded as `Value`, cached until the slot changes.
///
/// It holds the value itself, not a `Result`: a generic class's deinit finds its fields' types
/// at run time, and `Result<Value, DefaultsError>` is a metadata lookup of some 330
/// instructions, on every write, for the decode the write replaces. `Value` comes with the
/// class's own metadata.
@usableFromInline final class DecodedValue<Value> {
    @usableFromInline let value: Value

    @usableFromInline init(_ value: Value) {
        self.value = value
    }
}

/// Why a slot's object could not be decoded as the type last read, cached so that the error
/// is reported once, not on every read.
final class DecodeFailure {
    let error: DefaultsError

    init(_ error: DefaultsError) {
        self.error = error
    }
}
