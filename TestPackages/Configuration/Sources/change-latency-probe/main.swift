import Configuration
import Foundation
import TypedDefaults
import TypedDefaultsConfiguration

// The programs Benchmarks/change-latency.py times, each printing a value and times on a line,
// in nanoseconds read from CLOCK_MONOTONIC, which every process on Linux shares:
//
//   change-latency-probe writer SUITE     writes each number read from standard input to the
//                                         key `k`, committed to the file before the setter
//                                         returns, and prints it with the times of the setter's
//                                         call and return
//   change-latency-probe observer SUITE   prints each value of `k` another process commits, in
//                                         the `DefaultsStore.observe` callback that hears it
//   change-latency-probe provider SUITE   the same from the swift-configuration provider's watch
//
// An observer prints "ready" once it observes. Standard output is written unbuffered.

/// Now on CLOCK_MONOTONIC, in nanoseconds.
func monotonicNanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}

func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: change-latency-probe writer|observer|provider SUITE\n".utf8))
    exit(2)
}
let suite = arguments[1]

switch arguments[0] {
case "writer":
    let store = try DefaultsStore(suiteName: suite, durability: .immediate)
    let key = DefaultsKey<Int>("k", default: 0, store: store)
    while let line = readLine(), let value = Int(line) {
        let called = monotonicNanoseconds()
        store[key] = value
        say("\(value) \(called) \(monotonicNanoseconds())")
    }
case "observer":
    let store = try DefaultsStore(suiteName: suite)
    let key = DefaultsKey<Int>("k", default: 0, store: store)
    let observation = store.observe(key) { change in say("\(change.newValue) \(monotonicNanoseconds())") }
    say("ready")
    withExtendedLifetime(observation) { dispatchMain() }
case "provider":
    let provider = try DefaultsProvider(store: DefaultsStore(suiteName: suite))
    let watching = Task.detached {
        try await provider.watchValue(forKey: "k", type: .int) { updates in
            var first = true
            for await update in updates {
                // The first update is the value as it is when the watch begins.
                if first {
                    first = false
                    say("ready")
                    continue
                }
                if case .int(let value)? = try? update.get().value?.content {
                    say("\(value) \(monotonicNanoseconds())")
                }
            }
        }
    }
    withExtendedLifetime(watching) { dispatchMain() }
default:
    FileHandle.standardError.write(Data("usage: change-latency-probe writer|observer|provider SUITE\n".utf8))
    exit(2)
}
