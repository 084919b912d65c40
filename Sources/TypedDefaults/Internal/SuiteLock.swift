#if canImport(Darwin)
    import os
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The lock that guards a suite's state, taken on every read, so its cost is much of a cached
/// read's: a bare `pthread_mutex_t` (`os_unfair_lock` on Apple platforms), called inline.
///
/// Not `Synchronization.Mutex`: on Linux it hands a contended lock over through a
/// priority-inheriting futex, inside the standard library, where ThreadSanitizer cannot see it,
/// so every access under the lock showed as a race; it saved 2 ns a read.
// @unchecked Sendable is sound: the pointer is allocated once, never reassigned, and only used
// through the lock functions, which are thread-safe by definition.
@usableFromInline final class SuiteLock: @unchecked Sendable {
    #if canImport(Darwin)
        @usableFromInline let mutex: os_unfair_lock_t
    #else
        @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
    #endif

    init() {
        #if canImport(Darwin)
            mutex = .allocate(capacity: 1)
            mutex.initialize(to: os_unfair_lock())
        #else
            mutex = .allocate(capacity: 1)
            pthread_mutex_init(mutex, nil)
        #endif
    }

    deinit {
        #if !canImport(Darwin)
            pthread_mutex_destroy(mutex)
        #endif
        mutex.deallocate()
    }

    @inlinable
    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        #if canImport(Darwin)
            os_unfair_lock_lock(mutex)
            defer { os_unfair_lock_unlock(mutex) }
        #else
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
        #endif
        return try body()
    }
}
