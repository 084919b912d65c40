#if canImport(Darwin)
    import os
#elseif canImport(Glibc)
    import Glibc
    import Synchronization
#elseif canImport(Musl)
    import Musl
    import Synchronization
#endif

/// The lock that guards a suite's state. Every read of a value that holds references takes it,
/// so its cost is much of such a read's. On Apple platforms it is `os_unfair_lock`. On Linux,
/// taking it is one atomic compare-and-exchange and giving it back a plain store, both inlined
/// into the read: the atomic instruction is most of the time of a cached `String` read, and a
/// `pthread_mutex_t` pays two (about 85 instructions of the call pair of the 216 of a read).
///
/// A thread that finds the lock taken tries again a few times, then counts itself a sleeper and
/// sleeps on a condition variable; a holder that sees sleepers as it gives the lock back wakes
/// one. A holder can miss a sleeper that is just counting itself (the store and the count's
/// load are not ordered; ordering them costs the atomic instruction saved), so a sleeper also
/// wakes by itself after a millisecond and tries again: that is the longest a missed wake-up
/// delays anyone, and no wait here outlives the section it waits for by more.
///
/// Not `Synchronization.Mutex`: on Linux it hands a contended lock over through a
/// priority-inheriting futex, inside the standard library, where ThreadSanitizer cannot see it,
/// so every access under the lock showed as a race. The atomics here are compiled into this
/// module, where ThreadSanitizer sees them.
// @unchecked Sendable is sound: `state` and `sleeperCount` are atomics; the pthread mutex and
// condition variable are allocated once, never reassigned, and used only through their
// thread-safe functions.
@usableFromInline final class SuiteLock: @unchecked Sendable {
    #if canImport(Darwin)
        @usableFromInline let mutex: os_unfair_lock_t
    #else
        /// `unlocked` or `locked`.
        @usableFromInline let state = Atomic<UInt32>(0)
        /// The threads asleep, or about to sleep, waiting for the lock.
        @usableFromInline let sleeperCount = Atomic<UInt32>(0)
        private let sleepers: UnsafeMutablePointer<pthread_mutex_t>
        private let wakeUp: UnsafeMutablePointer<pthread_cond_t>
    #endif

    @usableFromInline static var unlocked: UInt32 { 0 }
    @usableFromInline static var locked: UInt32 { 1 }

    init() {
        #if canImport(Darwin)
            mutex = .allocate(capacity: 1)
            mutex.initialize(to: os_unfair_lock())
        #else
            sleepers = .allocate(capacity: 1)
            pthread_mutex_init(sleepers, nil)
            wakeUp = .allocate(capacity: 1)
            var attributes = pthread_condattr_t()
            pthread_condattr_init(&attributes)
            pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
            pthread_cond_init(wakeUp, &attributes)
            pthread_condattr_destroy(&attributes)
        #endif
    }

    deinit {
        #if canImport(Darwin)
            mutex.deallocate()
        #else
            pthread_cond_destroy(wakeUp)
            wakeUp.deallocate()
            pthread_mutex_destroy(sleepers)
            sleepers.deallocate()
        #endif
    }

    @inlinable
    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        return try body()
    }

    /// Takes the lock; for the few callers that cannot give ``withLock(_:)`` a closure without
    /// it being compiled apart from them (a cached read), always paired with ``unlock()``.
    @inlinable @inline(__always)
    func lock() {
        #if canImport(Darwin)
            os_unfair_lock_lock(mutex)
        #else
            if !state.compareExchange(expected: Self.unlocked, desired: Self.locked, ordering: .acquiring).exchanged {
                waitForLock()
            }
        #endif
    }

    /// Gives the lock back, taken by ``lock()``.
    @inlinable @inline(__always)
    func unlock() {
        #if canImport(Darwin)
            os_unfair_lock_unlock(mutex)
        #else
            // A fence first, which on x86 costs no instruction: the compiler moves a retain
            // down past any store, even this one, and a value copied under the lock would be
            // retained after it is given back, when a writer may have freed what it holds.
            // It moves none past a fence.
            atomicMemoryFence(ordering: .releasing)
            state.store(Self.unlocked, ordering: .releasing)
            if sleeperCount.load(ordering: .relaxed) != 0 { wakeOneSleeper() }
        #endif
    }

    #if !canImport(Darwin)
        /// Takes the lock once its holder gives it back: a few tries first, as most sections
        /// last less than a sleep takes to begin, then sleeps that end at a wake-up or after a
        /// millisecond, whichever comes first.
        @usableFromInline func waitForLock() {
            for _ in 0..<64 {
                if state.load(ordering: .relaxed) == Self.unlocked,
                    state.compareExchange(expected: Self.unlocked, desired: Self.locked, ordering: .acquiring).exchanged
                {
                    return
                }
            }
            sleeperCount.add(1, ordering: .sequentiallyConsistent)
            pthread_mutex_lock(sleepers)
            while !state.compareExchange(expected: Self.unlocked, desired: Self.locked, ordering: .acquiring).exchanged
            {
                var deadline = timespec()
                clock_gettime(CLOCK_MONOTONIC, &deadline)
                deadline.tv_nsec += 1_000_000
                if deadline.tv_nsec >= 1_000_000_000 {
                    deadline.tv_sec += 1
                    deadline.tv_nsec -= 1_000_000_000
                }
                pthread_cond_timedwait(wakeUp, sleepers, &deadline)
            }
            pthread_mutex_unlock(sleepers)
            sleeperCount.subtract(1, ordering: .relaxed)
        }

        /// Wakes a sleeper; taking `sleepers` first means a thread between its last try and its
        /// sleep is either not yet past the try, which then succeeds, or already asleep.
        @usableFromInline func wakeOneSleeper() {
            pthread_mutex_lock(sleepers)
            pthread_cond_signal(wakeUp)
            pthread_mutex_unlock(sleepers)
        }
    #endif
}
