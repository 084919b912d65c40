import Foundation
import TypedDefaults
import TypedDefaultsPostgres

// Stands for one machine of a fleet in the backend's tests; the server comes from PG* variables.
//   postgres-probe write-keys SUITE PREFIX COUNT   writes COUNT keys PREFIX0…, then flushes
//   postgres-probe stream SUITE PREFIX COUNT       the same, one key every 2 ms
//   postgres-probe increment SUITE KEY COUNT       adds 1 to KEY COUNT times with update; with
//                                                  POSTGRES_PROBE_GATE=PATH, prints "ready" after
//                                                  the first, waits (60 s at most) for PATH, and
//                                                  20 ms after each update
//   postgres-probe observe SUITE KEY VALUE         prints "ready", then "seen" when KEY reads VALUE
//   postgres-probe write-and-exit SUITE KEY VALUE  writes KEY, prints "written" and exits: the
//                                                  store commits it at exit, within its bound

// Start from an empty signal mask: a test process spawns this from a libdispatch thread whose
// blocked signals a child inherits, and a probe that SIGTERM cannot stop outlives its test.
var noSignals = sigset_t()
sigemptyset(&noSignals)
pthread_sigmask(SIG_SETMASK, &noSignals, nil)

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("postgres-probe: \(message)\n".utf8))
    exit(1)
}

func say(_ line: String) {
    FileHandle.standardOutput.write(Data("\(line)\n".utf8))
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count == 4, let count = Int(arguments[3]) ?? (arguments[0] == "observe" ? 0 : nil) else {
    fail("usage: postgres-probe write-keys|stream|increment|observe|write-and-exit SUITE NAME NUMBER")
}
guard let configuration = PostgresBackend.environmentConfiguration() else { fail("PGHOST is not set") }
let backend: PostgresBackend
do {
    backend = try PostgresBackend(configuration: configuration, suite: arguments[1])
} catch {
    fail("\(error)")
}
let store = DefaultsStore(backend: backend)

switch arguments[0] {
case "write-keys", "stream":
    for index in 0..<count {
        store[DefaultsKey<Int>("\(arguments[2])\(index)", default: -1)] = index
        if arguments[0] == "stream" { usleep(2_000) }
    }
    // Until every write is committed: the server may be restarting.
    let deadline = Date().addingTimeInterval(60)
    while true {
        do {
            try store.flush()
            break
        } catch {
            if Date() > deadline { fail("not committed in 60 s: \(error)") }
            usleep(100_000)
        }
    }
    say("done")
case "increment":
    let key = DefaultsKey<Int>(arguments[2], default: 0)
    let gate = ProcessInfo.processInfo.environment["POSTGRES_PROBE_GATE"]
    for index in 0..<count {
        store.update(key) { $0 += 1 }
        guard let gate else { continue }
        if index == 0 {
            say("ready")
            let deadline = Date().addingTimeInterval(60)
            while !FileManager.default.fileExists(atPath: gate) {
                if Date() > deadline { fail("\(gate) not made in 60 s") }
                usleep(1_000)
            }
        } else {
            // Paced past the gate, so that the updates outlast what the test does once it opens.
            usleep(20_000)
        }
    }
    say("done")
case "observe":
    let key = DefaultsKey<Int>(arguments[2], default: 0)
    let expected = Int(arguments[3]) ?? 0
    let seen = DispatchSemaphore(value: 0)
    let observation = store.observe(key) { change in
        if change.newValue == expected { seen.signal() }
    }
    say("ready")
    // Bounded, so that a probe whose test process died does not wait for ever.
    if store[key] != expected, seen.wait(timeout: .now() + 60) == .timedOut { fail("not seen in 60 s") }
    say("seen")
    observation.cancel()
case "write-and-exit":
    store[DefaultsKey<Int>(arguments[2], default: 0)] = count
    say("written")
default:
    fail("unknown command \(arguments[0])")
}
