import Foundation
import TypedDefaults

// Usage: DefaultsProbe write|verify SUITE CASE
//        DefaultsProbe list
// Writes through @UserDefault and exits normally without calling synchronize(), so a later
// `verify` in a new process sees only what TypedDefaults made durable.

let arguments = CommandLine.arguments.dropFirst()

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("DefaultsProbe: \(message)\n".utf8))
    exit(1)
}

if arguments.first == "list" {
    for probe in ProbeCase.all + ProbeCase.linuxQuirks { print(probe.name) }
    exit(0)
}

let parts = Array(arguments)
guard parts.count == 3 else { fail("usage: DefaultsProbe write|verify SUITE CASE, or DefaultsProbe list") }
let (action, suite, caseName) = (parts[0], parts[1], parts[2])
guard let probe = (ProbeCase.all + ProbeCase.linuxQuirks).first(where: { $0.name == caseName }) else {
    fail("no case named \(caseName)")
}
let defaults: UserDefaults
do {
    defaults = try UserDefaults.suite(named: suite)
} catch {
    fail("\(error)")
}

switch action {
case "write":
    probe.write(defaults)
    print("wrote \(caseName)")
case "verify":
    let failures = probe.verify(defaults)
    guard failures.isEmpty else { fail(failures.joined(separator: "\n")) }
    print("verified \(caseName)")
default:
    fail("unknown action \(action)")
}
