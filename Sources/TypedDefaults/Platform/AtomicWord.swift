#if !canImport(Darwin)
    import Synchronization
#endif

/// A word that readers load without the suite's lock: a binding's place in a key's cache, a
/// suite's observer count, the kind of object a property is declared in. Loads are on the read
/// path of every `@UserDefault` property and `store[.key]`.
///
/// On Linux it is an `Atomic`, so a load is one plain load. On Apple platforms, where `Atomic`
/// needs macOS 15 and iOS 18 and the library supports older systems, the word is kept under a
/// lock of its own (`os_unfair_lock`, through ``SuiteLock``).
@usableFromInline struct AtomicWord: ~Copyable, Sendable {
    #if canImport(Darwin)
        @usableFromInline let locked: LockedWord
    #else
        @usableFromInline let word: Atomic<UInt>
    #endif

    init(_ value: UInt) {
        #if canImport(Darwin)
            locked = LockedWord(value)
        #else
            word = Atomic(value)
        #endif
    }

    /// The word, with everything written before the store that put it there.
    @inlinable
    func load() -> UInt {
        #if canImport(Darwin)
            locked.lock.withLock { locked.value }
        #else
            word.load(ordering: .acquiring)
        #endif
    }

    /// Stores `value`: a thread that loads it also sees everything written before.
    @inlinable
    func store(_ value: UInt) {
        #if canImport(Darwin)
            locked.lock.withLock { locked.value = value }
        #else
            word.store(value, ordering: .releasing)
        #endif
    }
}

#if canImport(Darwin)
    /// The word of an ``AtomicWord`` on Apple platforms.
    // @unchecked Sendable is sound: `value` is only touched while holding `lock` (which is also
    // why it skips the dynamic exclusivity checks).
    @usableFromInline final class LockedWord: @unchecked Sendable {
        @usableFromInline let lock = SuiteLock()
        @exclusivity(unchecked) @usableFromInline var value: UInt

        init(_ value: UInt) { self.value = value }
    }
#endif
