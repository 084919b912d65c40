#if canImport(Darwin)
    import os
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A plain mutual-exclusion lock, for what ``Locked`` and ``TimedLock`` guard: `os_unfair_lock`
/// on Apple platforms, a `pthread_mutex_t` elsewhere, which ThreadSanitizer sees. Not the
/// suite's own lock (the engine's `SuiteLock`), whose inlined fast path every read takes; none
/// of what this lock guards is on a read's or a write's path.
// @unchecked Sendable is sound: the lock is allocated once, never reassigned, and used only
// through the system's thread-safe functions.
package final class PlainLock: @unchecked Sendable {
    #if canImport(Darwin)
        private let mutex: os_unfair_lock_t
    #else
        private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    #endif

    package init() {
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

    package func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
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
