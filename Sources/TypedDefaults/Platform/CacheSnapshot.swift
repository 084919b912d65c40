#if !canImport(Darwin)
    import Synchronization
#endif

/// A copy of a slot's cache that a read takes without the suite's lock, for what fits in two
/// words: "nothing is stored", and a cached value of a trivial type of at most 16 bytes (`Bool`,
/// the integers, `Double`, `Date`, `UUID`, enums without payloads, and their optionals).
///
/// A sequence lock: the lock holder makes the sequence odd while it changes the copy, and even
/// again after; a read that sees it odd, or changed by the end of the read, takes the lock
/// instead. Every field is atomic, so a read that races a change sees a mix it then throws
/// away, never a torn value it returns. On Apple platforms, where `Atomic` needs macOS 15, there
/// is no copy and every read takes the lock (`os_unfair_lock`, cheaper than Linux's).
// Sendable: every stored property is an `Atomic`.
@usableFromInline final class CacheSnapshot: Sendable {
    #if !canImport(Darwin)
        @usableFromInline let sequence = Atomic<UInt64>(0)
        /// `emptyKind`, `nothingStoredKind`, or the `ObjectIdentifier` of the value's type.
        @usableFromInline let kind = Atomic<UInt>(0)
        @usableFromInline let firstWord = Atomic<UInt64>(0)
        @usableFromInline let secondWord = Atomic<UInt64>(0)
    #endif

    @usableFromInline static var emptyKind: UInt { 0 }
    @usableFromInline static var nothingStoredKind: UInt { 1 }

    init() {}

    /// Whether a value of `Value` fits in the copy.
    @inlinable
    static func holds<Value>(_ type: Value.Type) -> Bool {
        #if canImport(Darwin)
            false
        #else
            _isPOD(Value.self) && MemoryLayout<Value>.size <= 16 && MemoryLayout<Value>.alignment <= 8
        #endif
    }

    /// The bytes of `value`, when it fits in the copy.
    @inlinable
    static func words<Value>(of value: Value) -> (UInt64, UInt64)? {
        guard holds(Value.self) else { return nil }
        var words: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &words) { $0.storeBytes(of: value, as: Value.self) }
        return words
    }

    /// The value whose bytes ``words(of:)`` returned.
    @inlinable
    static func value<Value>(of words: (UInt64, UInt64), as type: Value.Type) -> Value {
        var words = words
        return withUnsafeBytes(of: &words) { $0.load(as: Value.self) }
    }

    /// What the copy says of the cache for `Value`, or `nil` when the lock must be taken: the
    /// copy is being changed, holds nothing, or holds a value of another type.
    /// Given `ObjectIdentifier(Value.self)`, as a binding keeps it: for a generic type such as
    /// `Int?` finding it is a call into the runtime, on every read.
    @inlinable @inline(__always)
    func read<Value>(as type: Value.Type, identifiedBy identifier: ObjectIdentifier) -> CachedRead<Value>? {
        #if canImport(Darwin)
            return nil
        #else
            let start = sequence.load(ordering: .acquiring)
            guard start & 1 == 0 else { return nil }
            let kind = kind.load(ordering: .relaxed)
            let words = (firstWord.load(ordering: .relaxed), secondWord.load(ordering: .relaxed))
            atomicMemoryFence(ordering: .acquiring)
            guard sequence.load(ordering: .relaxed) == start else { return nil }
            if kind == Self.nothingStoredKind { return .nothingStored }
            guard Self.holds(Value.self), kind == UInt(bitPattern: identifier) else { return nil }
            return .value(Self.value(of: words, as: Value.self))
        #endif
    }

    /// Makes the copy hold `words`, the bytes of a value of the type `type` names, or nothing.
    /// Called by the suite's lock holder only, so changes never overlap.
    func store(_ words: (UInt64, UInt64)?, of type: ObjectIdentifier) {
        if let words {
            set(kind: UInt(bitPattern: type), words: words)
        } else {
            clear()
        }
    }

    /// Records that nothing is stored. Called by the suite's lock holder only.
    func storeNothingStored() {
        set(kind: Self.nothingStoredKind, words: (0, 0))
    }

    /// Makes the copy hold nothing, so reads take the lock. Called by the suite's lock holder.
    func clear() {
        set(kind: Self.emptyKind, words: (0, 0))
    }

    /// Makes every read take the lock from now on: an odd sequence that no change makes even
    /// again. Called by the suite's lock holder.
    func disable() {
        #if !canImport(Darwin)
            let current = sequence.load(ordering: .relaxed)
            if current & 1 == 0 { sequence.store(current &+ 1, ordering: .releasing) }
        #endif
    }

    private func set(kind: UInt, words: (UInt64, UInt64)) {
        #if !canImport(Darwin)
            let current = sequence.load(ordering: .relaxed)
            guard current & 1 == 0 else { return }  // disabled
            let next = current &+ 1
            sequence.store(next, ordering: .relaxed)
            atomicMemoryFence(ordering: .releasing)
            self.kind.store(kind, ordering: .relaxed)
            firstWord.store(words.0, ordering: .relaxed)
            secondWord.store(words.1, ordering: .relaxed)
            sequence.store(next &+ 1, ordering: .releasing)
        #endif
    }
}

/// What the cache knows of a slot, for the inlined fast path of a read.
@usableFromInline enum CachedRead<Value> {
    case value(Value)
    /// Nothing is stored under the key, and nothing changed since a read found that out.
    case nothingStored
    /// Not decoded since the slot last changed, or decoded as another type, or unreadable.
    case unknown
}
