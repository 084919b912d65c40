#if canImport(Darwin)
    import os
#else
    import Synchronization
#endif

/// The lock that guards a suite's state, taken on every read, so its cost is most of a cached
/// read's: `os_unfair_lock` on Apple platforms, `Synchronization.Mutex` elsewhere (a futex,
/// about half the cost of `pthread_mutex_t`, and available on Linux without the OS versions
/// it needs on Apple platforms).
// @unchecked Sendable is sound: the lock is created once, never reassigned, and only used
// through its locking functions, which are thread-safe by definition.
@usableFromInline final class SuiteLock: @unchecked Sendable {
    #if canImport(Darwin)
        @usableFromInline let mutex: os_unfair_lock_t

        init() {
            mutex = .allocate(capacity: 1)
            mutex.initialize(to: os_unfair_lock())
        }

        deinit {
            mutex.deallocate()
        }

        @inlinable
        func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
            os_unfair_lock_lock(mutex)
            defer { os_unfair_lock_unlock(mutex) }
            return try body()
        }
    #else
        @usableFromInline let mutex = Mutex(())

        init() {}

        @inlinable
        func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
            try mutex.withLock { _ in try body() }
        }
    #endif
}
