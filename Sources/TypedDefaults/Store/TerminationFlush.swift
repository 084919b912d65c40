import Foundation
import TypedDefaultsStorage

extension DefaultsStore {
    /// Flushes every store when the process receives one of `signals`, then lets the signal
    /// end the process as it would have, so the exit status still says "terminated by SIGTERM".
    ///
    /// Normal exit flushes by itself; a signal's default action ends the process without
    /// running exit handlers, losing up to the last 100 ms of writes. Call this once, early,
    /// in a server or tool that is stopped with `kill` or Ctrl-C:
    ///
    /// ```swift
    /// @main struct Server {
    ///     static func main() async throws {
    ///         DefaultsStore.flushOnTermination()
    ///         try await run()
    ///     }
    /// }
    /// ```
    ///
    /// It replaces any handler installed for those signals. `SIGKILL` cannot be caught: after
    /// one, the file holds the writes of the last flush, intact.
    public static func flushOnTermination(signals: [Int32] = [SIGTERM, SIGINT]) {
        TerminationFlush.install(signals)
    }
}

/// The self-pipe behind ``DefaultsStore/flushOnTermination(signals:)``.
///
/// A signal handler may only do async-signal-safe work, so it just writes the signal's number to
/// a pipe; a thread of our own reads it, flushes, restores the default action and sends the
/// signal again. (libdispatch's signal sources cannot be used: on Linux they miss a signal
/// whose disposition is `SIG_IGN`, and without that the default action kills the process first.)
enum TerminationFlush {
    /// The pipe's write end, read by the handler. Set once, before any handler is installed.
    nonisolated(unsafe) private static var wakeDescriptor: Int32 = -1
    private static let installed = Locked<Set<Int32>>([])

    static func install(_ signals: [Int32]) {
        // A process started from a thread that blocks signals (a libdispatch worker does)
        // inherits the block and would never see them: unblock them here, before the watcher
        // thread is made, so it inherits the unblocked mask too.
        var handled = sigset_t()
        sigemptyset(&handled)
        for signalNumber in signals { sigaddset(&handled, signalNumber) }
        pthread_sigmask(SIG_UNBLOCK, &handled, nil)

        installed.withLock { installed in
            if wakeDescriptor < 0 { startWatcher() }
            for signalNumber in signals where !installed.contains(signalNumber) {
                var action = sigaction()
                action.setHandler { number in TerminationFlush.notify(number) }
                sigemptyset(&action.sa_mask)
                action.sa_flags = SA_RESTART
                sigaction(signalNumber, &action, nil)
                installed.insert(signalNumber)
            }
        }
    }

    /// Runs in the signal handler: one `write`, which is async-signal-safe.
    private static func notify(_ signalNumber: Int32) {
        var byte = UInt8(truncatingIfNeeded: signalNumber)
        _ = write(wakeDescriptor, &byte, 1)
    }

    private static func startWatcher() {
        var descriptors: [Int32] = [0, 0]
        guard pipe(&descriptors) == 0 else { return }
        let readEnd = descriptors[0]
        wakeDescriptor = descriptors[1]
        let watcher = Thread {
            nameCurrentThread("TD.termination")
            var byte: UInt8 = 0
            while true {
                let count = read(readEnd, &byte, 1)
                if count == 1 { break }
                if count < 0 && errno == EINTR { continue }
                // The pipe was closed under us (a daemon closing every descriptor it did not
                // open): no signal can reach this thread any more, and reading again would spin.
                return
            }
            let signalNumber = Int32(byte)
            SuiteRegistry.flushAllBeforeExit()
            // Now the default action: for the whole process, from a thread that accepts it.
            signal(signalNumber, SIG_DFL)
            var only = sigset_t()
            sigemptyset(&only)
            sigaddset(&only, signalNumber)
            pthread_sigmask(SIG_UNBLOCK, &only, nil)
            kill(getpid(), signalNumber)
        }
        watcher.start()
    }
}
