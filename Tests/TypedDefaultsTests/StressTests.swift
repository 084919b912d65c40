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
}
