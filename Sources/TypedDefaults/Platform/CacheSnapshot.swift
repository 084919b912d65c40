#if !canImport(Darwin)
    import Synchronization
#endif

/// A copy of a slot's cache that a read takes without the suite's lock, for what fits in two
/// words: "nothing is stored", a cached value of a trivial type of at most 16 bytes (`Bool`,
/// the integers, `Double`, `Date`, `UUID`, enums without payloads, and their optionals), and a
/// `String` short enough to be stored in its own two words, which no reference count covers.
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

    /// Whether every value of `Value` fits in the copy: a trivial type of at most two words.
    @inlinable
    static func holdsEveryValue<Value>(of type: Value.Type) -> Bool {
        #if canImport(Darwin)
            false
        #else
            _isPOD(Value.self) && MemoryLayout<Value>.size <= 16 && MemoryLayout<Value>.alignment <= 8
        #endif
    }

    /// Whether some values of `Value`, which `identifier` names, fit in the copy: every one, or
    /// the short `String`s.
    @inlinable
    static func holds<Value>(_ type: Value.Type, identifiedBy identifier: ObjectIdentifier) -> Bool {
        holdsEveryValue(of: Value.self) || holdsShortStrings(as: Value.self, identifiedBy: identifier)
    }

    /// Whether `Value` is `String`, on a platform where a short one is its two words alone.
    /// Told by `identifier`, the binding's `ObjectIdentifier(Value.self)`, for the two-word types
    /// that are not trivial: comparing `Value.self` itself would, for a generic type such as
    /// `String?`, call into the runtime on every read. Every other type is ruled out where the
    /// call is inlined.
    @inlinable
    static func holdsShortStrings<Value>(as type: Value.Type, identifiedBy identifier: ObjectIdentifier) -> Bool {
        #if canImport(Darwin) || !_pointerBitWidth(_64)
            false
        #else
            MemoryLayout<Value>.size == 16 && !_isPOD(Value.self) && identifier == ObjectIdentifier(String.self)
        #endif
    }

    /// The bytes of `value`, when it fits in the copy.
    @inlinable
    static func words<Value>(of value: Value) -> (UInt64, UInt64)? {
        if holdsEveryValue(of: Value.self) { return bytes(of: value) }
        guard holdsShortStrings(as: Value.self, identifiedBy: ObjectIdentifier(Value.self)) else { return nil }
        let words = bytes(of: value)
        return isShortString(words) ? words : nil
    }

    /// The bytes of a value of at most two words, zeros after them. Copied, not loaded: a
    /// string's bytes are only its words, no copy of the string, which would count a retain.
    @inlinable
    static func bytes<Value>(of value: Value) -> (UInt64, UInt64) {
        var words: (UInt64, UInt64) = (0, 0)
        _withUnprotectedUnsafeMutablePointer(to: &words) { words in
            _withUnprotectedUnsafeBytes(of: value) {
                UnsafeMutableRawPointer(words).copyMemory(from: $0.baseAddress.unsafelyUnwrapped, byteCount: $0.count)
            }
        }
        return words
    }

    /// Whether the two words of a `String` are the whole string: a string of at most 15 UTF-8
    /// bytes is stored in them, flagged in the top bits of the second (immortal, `0x8`, and
    /// small, `0x2`), and points to no storage, so its bytes are copied without a retain and
    /// dropped without a release. Only when this process's standard library lays strings out so
    /// (``stringLayoutIsKnown``); otherwise no string is copied.
    @usableFromInline
    static func isShortString(_ words: (UInt64, UInt64)) -> Bool {
        words.1 & shortStringFlags == shortStringFlags && stringLayoutIsKnown
    }

    /// The flags of a short string's second word: immortal and small.
    private static var shortStringFlags: UInt64 { 0xA000_0000_0000_0000 }

    /// Whether a short string has the flags ``isShortString(_:)`` looks for, and a long one,
    /// whose storage is counted, has neither: checked once, on this process's standard library.
    static let stringLayoutIsKnown: Bool = {
        let short = String(decoding: [UInt8(ascii: "a")], as: UTF8.self)
        let long = String(repeating: short, count: 64)
        return MemoryLayout<String>.size == 16 && bytes(of: short).1 & shortStringFlags == shortStringFlags
            && bytes(of: long).1 & shortStringFlags == 0
    }()

    /// The value whose bytes ``words(of:)`` returned. Moved out of the words, not copied: a
    /// short string's copy would call the runtime to retain nothing. Through the unprotected
    /// pointer, as the words never leave the call: the stack protector's check would cost more
    /// than the read.
    @inlinable
    static func value<Value>(of words: (UInt64, UInt64), as type: Value.Type) -> Value {
        var words = words
        return _withUnprotectedUnsafeMutablePointer(to: &words) {
            UnsafeMutableRawPointer($0).bindMemory(to: Value.self, capacity: 1).move()
        }
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
            // The kind first: a copy that holds neither this value nor "nothing stored" (a
            // longer string, another type) sends the read to the lock without the rest. Each
            // answer is given only once the sequence says the copy was not changing.
            let kind = kind.load(ordering: .relaxed)
            if Self.holds(Value.self, identifiedBy: identifier), kind == UInt(bitPattern: identifier) {
                guard start & 1 == 0 else { return nil }
                let words = (firstWord.load(ordering: .relaxed), secondWord.load(ordering: .relaxed))
                guard isUnchanged(since: start) else { return nil }
                return .value(Self.value(of: words, as: Value.self))
            }
            guard kind == Self.nothingStoredKind, start & 1 == 0, isUnchanged(since: start) else { return nil }
            return .nothingStored
        #endif
    }

    #if !canImport(Darwin)
        /// Whether the copy is as it was when the sequence read `start`: what was loaded since
        /// is then whole.
        @inlinable @inline(__always)
        func isUnchanged(since start: UInt64) -> Bool {
            atomicMemoryFence(ordering: .acquiring)
            return sequence.load(ordering: .relaxed) == start
        }
    #endif

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
