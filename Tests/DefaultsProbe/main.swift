import Foundation
import TypedDefaults

// Usage: DefaultsProbe write|verify SUITE CASE     round-trip cases (Cases.swift, LinuxQuirks.swift)
//        DefaultsProbe SCENARIO SUITE [ARGUMENTS]  store-engine and migration scenarios (Scenarios.swift,
//                                                  MigrationScenarios.swift, ManagedScenarios.swift)
//        DefaultsProbe roundtrip-write|roundtrip-verify SUITE SEED [FAMILY]   generated round trips (RoundTrip/)
//        DefaultsProbe secret-write|secret-check SERVICE   a secret setting (SecretScenarios.swift)
//        DefaultsProbe list
// Writes go through @UserDefault and the process exits normally without calling synchronize(),
// so a later process sees only what TypedDefaults made durable.

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("DefaultsProbe: \(message)\n".utf8))
    exit(1)
}

// Start from an empty signal mask: a test process spawns this from a libdispatch thread whose
// blocked signals a child inherits, and a child that cannot be stopped by SIGTERM proves nothing.
var noSignals = sigset_t()
sigemptyset(&noSignals)
pthread_sigmask(SIG_SETMASK, &noSignals, nil)

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "list" {
    for probe in ProbeCase.all + ProbeCase.linuxQuirks { print(probe.name) }
    exit(0)
}
guard arguments.count >= 2 else { fail("usage: DefaultsProbe write|verify SUITE CASE, or SCENARIO SUITE ...") }
let (action, suite) = (arguments[0], arguments[1])

switch action {
case "write", "verify":
    guard arguments.count == 3 else { fail("usage: DefaultsProbe \(action) SUITE CASE") }
    guard let probe = (ProbeCase.all + ProbeCase.linuxQuirks).first(where: { $0.name == arguments[2] }) else {
        fail("no case named \(arguments[2])")
    }
    let defaults: UserDefaults
    do {
        defaults = try UserDefaults.suite(named: suite)
    } catch {
        fail("\(error)")
    }
    if action == "write" {
        probe.write(defaults)
    } else {
        let failures = probe.verify(defaults)
        guard failures.isEmpty else { fail(failures.joined(separator: "\n")) }
    }
    print("\(action) \(probe.name): done")
default:
    do {
        let rest = Array(arguments.dropFirst(2))
        guard
            try RoundTrip.run(action, suite: suite, rest) || MigrationScenario.run(action, suite: suite, rest)
                || SecretScenario.run(action, service: suite)
                || SteppedClock.run(action, suite: suite, rest) || HistoryWorker.run(action, suite: suite, rest)
                || ManagedScenario.run(action, suite: suite, rest) || Scenario.run(action, suite: suite, rest)
        else {
            fail("unknown action \(action)")
        }
    } catch {
        fail("\(error)")
    }
}
