import Foundation
import Testing
import TypedDefaults

/// Many threads on a few shared keys; run under ThreadSanitizer in CI.
@Suite struct StressTests {
    /// Two equal halves: a torn read would show them differing.
    struct Pair: Codable, Equatable, DefaultsValueConvertible {
        var thread: Int
        var sequence: Int
        var check: Int  // thread * 1_000_000 + sequence, written separately
    }

    @Test func eightThreadsOfMixedOperations() throws {
        let suite = try TestSuite()
        let store = suite.store.durability(.coalesced(within: .milliseconds(1)))
        let keys = ["a", "b", "c.with.dots", "d@at"]
        let threads = 8
        let operationsPerThread = 100_000 / threads
        let none = Pair(thread: -1, sequence: -1, check: -1_000_001)

        final class Log: @unchecked Sendable {  // both arrays are only touched under `lock`
            private let lock = NSLock()
            private(set) var lastWrites: [[Pair?]] = []
            private(set) var badReads: [String] = []
            func record(lastWrite: [Pair?], badReads: [String]) {
                lock.withLock {
                    lastWrites.append(lastWrite)
                    self.badReads += badReads
                }
            }
        }
        let log = Log()

        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            var random = SystemRandomNumberGenerator()
            var lastWrite: [Pair?] = Array(repeating: nil, count: keys.count)
            var badReads: [String] = []
            for sequence in 0..<operationsPerThread {
                let index = Int.random(in: 0..<keys.count, using: &random)
                let wrapper = UserDefault(wrappedValue: none, keys[index], store: store)
                switch Int.random(in: 0..<10, using: &random) {
                case 0..<6:
                    let read = wrapper.wrappedValue
                    let valid =
                        read == none
                        || (read.check == read.thread * 1_000_000 + read.sequence
                            && (0..<threads).contains(read.thread) && (0..<operationsPerThread).contains(read.sequence))
                    if !valid { badReads.append("\(keys[index]): \(read)") }
                case 6..<9:
                    let pair = Pair(thread: thread, sequence: sequence, check: thread * 1_000_000 + sequence)
                    wrapper.wrappedValue = pair
                    lastWrite[index] = pair
                default:
                    wrapper.reset()
                    lastWrite[index] = none
                }
            }
            log.record(lastWrite: lastWrite, badReads: badReads)
        }

        #expect(log.badReads.isEmpty, "\(log.badReads.prefix(5))")
        try store.flush()
        // The file parses (it is absent when every key ended reset) and matches memory.
        let file =
            try FileManager.default.contents(atPath: suite.plistURL.path).map {
                try #require(try PropertyListSerialization.propertyList(from: $0, format: nil) as? [String: Any])
            } ?? [:]
        for (index, key) in keys.enumerated() {
            // The final value is the last write of one of the threads (a reset leaves the default).
            let final = UserDefault(wrappedValue: none, key, store: store).wrappedValue
            let candidates = log.lastWrites.compactMap { $0[index] }
            #expect(candidates.contains(final), "\(key): \(final) is no thread's last write")
            let onDisk = try (file[key] as? String).map { try JSONDecoder().decode(Pair.self, from: Data($0.utf8)) }
            #expect(onDisk == (final == none ? nil : final), "\(key): the file holds \(String(describing: onDisk))")
        }
    }

    /// Reads of small trivial values take a copy of the cache without the lock (on Linux):
    /// readers racing writers, resets and other processes' reloads must only ever see a value
    /// that was written, or the default, never a mix of two.
    @Test func lockFreeReadsNeverSeeATornValue() async throws {
        let suite = try TestSuite()
        let store = suite.store.durability(.coalesced(within: .milliseconds(5)))
        // Each half of the UUID repeats one byte, so a mix of two values shows.
        let values = (1...4).map { byte in
            UUID(uuid: (byte, byte, byte, byte, byte, byte, byte, byte, byte, byte, byte, byte, byte, byte, byte, byte))
        }
        let fallback = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
        let identifier = UserDefault(wrappedValue: fallback, "identifier", store: store)
        let count = UserDefault<Int?>("count", store: store)
        // Strings of different lengths and bytes: up to 15 UTF-8 bytes read from the copy, the
        // longer ones (a literal, and one made at run time, with storage) under the lock.
        let names = ["", "a", "bb", "ccccccccccccccc", "é—💾", "sixteen bytes!!!", String(repeating: "d", count: 40)]
        let name = UserDefault(wrappedValue: "fallback", "name", store: store)
        let writing = Counter()  // 1 once the writer is done
        await withTaskGroup(of: [String].self) { group in
            group.addTask {
                for round in 0..<100_000 {
                    if round % 7 == 0 {
                        identifier.reset()
                        count.wrappedValue = nil
                        name.reset()
                    } else {
                        identifier.wrappedValue = values[round % values.count]
                        count.wrappedValue = round
                        name.wrappedValue = names[round % names.count]
                    }
                    if round % 10_000 == 0 { store.refresh() }
                }
                writing.increment()
                return []
            }
            for _ in 0..<2 {
                group.addTask {
                    var problems: [String] = []
                    var reads = 0
                    while writing.value == 0 || reads < 1_000 {
                        for _ in 0..<100 {
                            let read = identifier.wrappedValue
                            if read != fallback, !values.contains(read) { problems.append("torn UUID \(read)") }
                            if let number = count.wrappedValue, !(0..<100_000).contains(number) {
                                problems.append("torn Int? \(number)")
                            }
                            let readName = name.wrappedValue
                            if readName != "fallback", !names.contains(readName) {
                                problems.append("torn String \(readName)")
                            }
                        }
                        reads += 100
                    }
                    return problems
                }
            }
            for await problems in group {
                #expect(problems.isEmpty, "\(problems.count) torn reads, such as \(problems.prefix(3))")
            }
        }
        // And once the writes stop, every handle reads the last one.
        #expect(UserDefault(wrappedValue: fallback, "identifier", store: store).wrappedValue == identifier.wrappedValue)
    }
}
