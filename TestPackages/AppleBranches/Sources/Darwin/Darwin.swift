// Stands in for Apple's Darwin module (its C library): Linux's C library, plus the declarations
// of Darwin's that the library's Darwin branches use and Glibc lacks or declares otherwise. A
// declaration here of a name Glibc also declares, with the same type, hides Glibc's in a file
// that does not import Glibc itself; with another type (`SOCK_STREAM`), both are seen and the
// use's type picks one. Each follows the header it names as Swift imports it; the functions
// have no body, as this module is compiled, never linked.
@_exported import Glibc

/// MacTypes.h: `typedef SInt32 OSStatus`, the result code of the Security framework's calls.
public typealias OSStatus = Int32

/// sys/fcntl.h: `#define F_FULLFSYNC 51`, the `fcntl` command that flushes the drive's cache.
public var F_FULLFSYNC: Int32 { 51 }

/// sys/socket.h: `#define SOCK_STREAM 1`, an `Int32` where Glibc's is an enum's case.
public var SOCK_STREAM: Int32 { 1 }

/// pthread.h: `int pthread_setname_np(const char *)`, which names the calling thread (Glibc's
/// takes the thread too). An imported C function's result may be discarded.
@available(macOS 10.6, iOS 3.2, tvOS 9.0, watchOS 2.0, *)
@discardableResult
@_silgen_name("pthread_setname_np")
public func pthread_setname_np(_ name: UnsafePointer<CChar>) -> Int32

extension stat {
    /// sys/stat.h: `struct timespec st_mtimespec`, the time of the last change to the contents.
    public var st_mtimespec: timespec {
        get { st_mtim }
        set { st_mtim = newValue }
    }

    /// sys/stat.h: `struct timespec st_ctimespec`, the time of the last change to the inode.
    public var st_ctimespec: timespec {
        get { st_ctim }
        set { st_ctim = newValue }
    }
}

/// sys/signal.h: `union __sigaction_u`, a handler's two forms; only the plain one is declared.
/// A C union whose members are all `Sendable` is imported as `Sendable`, as Glibc's are here.
public struct __sigaction_u: Sendable {
    /// `void (*__sa_handler)(int)`, imported as an implicitly unwrapped optional.
    public var __sa_handler: (@convention(c) (Int32) -> Void)!

    public init(__sa_handler: (@convention(c) (Int32) -> Void)!) {
        self.__sa_handler = __sa_handler
    }
}

extension sigaction {
    /// sys/signal.h: `union __sigaction_u __sigaction_u`, the handler of a `struct sigaction`.
    public var __sigaction_u: Darwin.__sigaction_u {
        get { Darwin.__sigaction_u(__sa_handler: __sigaction_handler.sa_handler) }
        set { __sigaction_handler.sa_handler = newValue.__sa_handler }
    }
}

// Names Glibc has and Darwin lacks, which the library's Linux branches use: declared here with
// Glibc's types, so that they hide Glibc's, and unavailable, so that a use outside those
// branches fails to compile here as it does on Apple platforms.

/// Darwin's sys/socket.h has no `MSG_NOSIGNAL` (its socket option `SO_NOSIGPIPE` does that).
@available(*, unavailable, message: "Darwin's sys/socket.h has no MSG_NOSIGNAL")
public var MSG_NOSIGNAL: Int { 0 }

/// Darwin's sys/socket.h has no `SOCK_CLOEXEC`.
@available(*, unavailable, message: "Darwin's sys/socket.h has no SOCK_CLOEXEC")
public var SOCK_CLOEXEC: __socket_type { Glibc.SOCK_CLOEXEC }

/// Darwin's pthread.h has no `pthread_condattr_setclock`: its condition variables wait by the
/// wall clock.
@available(*, unavailable, message: "Darwin's pthread.h has no pthread_condattr_setclock")
@_silgen_name("pthread_condattr_setclock")
public func pthread_condattr_setclock(_ attributes: UnsafeMutablePointer<pthread_condattr_t>, _ clock: clockid_t)
    -> Int32
