import Foundation

/// Names the calling thread where the system shows it (`top -H`, `/proc/<pid>/task/*/comm`, a
/// debugger): on Linux, Foundation's `Thread.name` stays inside Foundation, and Glibc's module
/// has no `pthread_setname_np`, so the name is written where the kernel keeps it (15 bytes).
package func nameCurrentThread(_ name: String) {
    #if canImport(Darwin)
        pthread_setname_np(name)
    #else
        let descriptor = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = name.withCString { write(descriptor, $0, strlen($0)) }
        close(descriptor)
    #endif
}
