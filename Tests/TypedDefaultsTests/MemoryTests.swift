import Foundation
import Testing
import TypedDefaults

@Suite struct MemoryTests {
    /// Resident memory in bytes, from /proc (Linux).
    func residentBytes() -> Int? {
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
        let fields = statm.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/statm")))
    func aMillionWritesLeaveTheResidentSetFlat() throws {
        let suite = try TestSuite()
        let store = suite.store.durability(.coalesced(within: .milliseconds(10)))
        let value = UserDefault(wrappedValue: 0, "value", store: store)
        let text = UserDefault(wrappedValue: "", "text", store: store)
        for round in 0..<100_000 {
            value.wrappedValue = round
            text.wrappedValue = "round \(round)"
        }
        try store.flush()
        let before = try #require(residentBytes())
        for round in 0..<1_000_000 {
            if round.isMultiple(of: 2) { value.wrappedValue = round } else { text.wrappedValue = "round \(round)" }
        }
        try store.flush()
        let after = try #require(residentBytes())
        let growth = after - before
        #expect(growth < 8 << 20, "resident set grew by \(growth >> 10) KiB over a million writes")
        #expect(value.wrappedValue == 999_998)
    }
}
