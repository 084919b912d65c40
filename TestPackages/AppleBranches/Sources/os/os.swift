// Stands in for Apple's `os` module: the unfair lock of os/lock.h, as Swift imports it. The
// functions have no body, as this module is compiled, never linked.
@_exported import Darwin

/// os/lock.h: `struct os_unfair_lock_s { uint32_t _os_unfair_lock_opaque; }`. A C struct whose
/// fields are all `Sendable` is imported as `Sendable`.
public struct os_unfair_lock_s: Sendable {
    public var _os_unfair_lock_opaque: UInt32

    public init() { _os_unfair_lock_opaque = 0 }

    public init(_os_unfair_lock_opaque: UInt32) {
        self._os_unfair_lock_opaque = _os_unfair_lock_opaque
    }
}

/// os/lock.h: `typedef struct os_unfair_lock_s os_unfair_lock`.
public typealias os_unfair_lock = os_unfair_lock_s

/// os/lock.h: `typedef struct os_unfair_lock_s *os_unfair_lock_t`.
public typealias os_unfair_lock_t = UnsafeMutablePointer<os_unfair_lock_s>

/// os/lock.h: `void os_unfair_lock_lock(os_unfair_lock_t lock)`, marked
/// `OS_SWIFT_UNAVAILABLE_FROM_ASYNC`: no async function may call it.
@available(macOS 10.12, iOS 10.0, tvOS 10.0, watchOS 3.0, *)
@available(*, noasync, message: "Use OSAllocatedUnfairLock.performWhileLocked() for async-safe scoped locking")
@_silgen_name("os_unfair_lock_lock")
public func os_unfair_lock_lock(_ lock: os_unfair_lock_t)

/// os/lock.h: `void os_unfair_lock_unlock(os_unfair_lock_t lock)`, marked
/// `OS_SWIFT_UNAVAILABLE_FROM_ASYNC`.
@available(macOS 10.12, iOS 10.0, tvOS 10.0, watchOS 3.0, *)
@available(*, noasync, message: "Use OSAllocatedUnfairLock.performWhileLocked() for async-safe scoped locking")
@_silgen_name("os_unfair_lock_unlock")
public func os_unfair_lock_unlock(_ lock: os_unfair_lock_t)
