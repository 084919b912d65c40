import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

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

enum TerminationFlush {
    /// The dispatch sources, kept alive for the life of the process.
    private static let sources = Locked<[Int32: SignalSource]>([:])

    static func install(_ signals: [Int32]) {
        sources.withLock { sources in
            for signalNumber in signals where sources[signalNumber] == nil {
                // Ignore the default action so the dispatch source sees the signal instead.
                signal(signalNumber, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
                source.setEventHandler {
                    SuiteRegistry.flushAll()
                    signal(signalNumber, SIG_DFL)
                    raise(signalNumber)
                }
                source.resume()
                sources[signalNumber] = SignalSource(source: source)
            }
        }
    }

    // @unchecked Sendable is sound: the source is configured once before it is stored and never
    // touched again; it is only kept to stay alive.
    struct SignalSource: @unchecked Sendable {
        let source: any DispatchSourceSignal
    }
}
