import Foundation
import TypedDefaults

// What a process holds in memory once it has opened a large suite, read a key and written one,
// with TypedDefaults and with plain UserDefaults, each in a fresh process (`Benchmarks/memory.sh`
// runs the three steps):
//
//     memory-footprint write SUITE KEYS    # fills SUITE with KEYS String keys, through TypedDefaults
//     memory-footprint typed SUITE         # opens it through a DefaultsStore
//     memory-footprint plain SUITE         # opens it through UserDefaults
//
// `typed` and `plain` print the peak and the current resident set, in kB, from /proc/self/status.

let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
    FileHandle.standardError.write(Data("usage: memory-footprint write|typed|plain SUITE [KEYS]\n".utf8))
    exit(2)
}
let suite = arguments[2]

/// The value stored under each key: a short sentence, as settings text tends to be.
func value(_ index: Int) -> String { "value number \(index) of the suite" }

/// `VmHWM` and `VmRSS` of this process, in kB.
func residentSet() -> (peak: Int, now: Int) {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    func field(_ name: String) -> Int {
        let line = status.split(separator: "\n").first { $0.hasPrefix(name + ":") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? -1
    }
    return (field("VmHWM"), field("VmRSS"))
}

// The suite is larger than the 4 MiB a store takes by default, on purpose: its memory is what is
// measured, so the store has no size limit.
switch arguments[1] {
case "write":
    guard arguments.count == 4, let count = Int(arguments[3]) else { exit(2) }
    let store = try DefaultsStore(suiteName: suite).sizeLimit(.none)
    try store.editStoredValues { values in
        for index in 0..<count { values[DefaultsStoredKey("key\(index)")] = .string(value(index)) }
    }
case "typed":
    let store = try DefaultsStore(suiteName: suite).sizeLimit(.none)
    let read = DefaultsKey<String>("key7", default: "")
    guard store[read] == value(7) else { exit(1) }
    store[DefaultsKey<String>("written", default: "")] = "new value"
    try store.flush()
    let (peak, now) = residentSet()
    print("typed peak \(peak) now \(now)")
case "plain":
    guard let defaults = UserDefaults(suiteName: suite), defaults.string(forKey: "key7") == value(7) else { exit(1) }
    defaults.set("new value", forKey: "written")
    defaults.synchronize()
    let (peak, now) = residentSet()
    print("plain peak \(peak) now \(now)")
default:
    exit(2)
}
