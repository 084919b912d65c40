import Foundation
import Testing
import TypedDefaultsStorage

@testable import TypedDefaults

/// How deep in its thread's stack a function was called, over many calls: the range of the
/// addresses of a local of `record()`, per thread.
private final class Depths: Sendable {
    private let ranges = Locked<[UInt: (lowest: UInt, highest: UInt)]>([:])

    /// Records the depth of this call.
    @inline(never)
    func record() {
        var marker = 0
        let address = withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
        #if canImport(Darwin)
            let thread = UInt(bitPattern: pthread_self())
        #else
            let thread = UInt(pthread_self())
        #endif
        ranges.withLock { ranges in
            let range = ranges[thread] ?? (address, address)
            ranges[thread] = (min(range.lowest, address), max(range.highest, address))
        }
    }

    /// The most the depth varied on one thread, in bytes.
    var largestSpread: UInt {
        ranges.read { $0.values.map { $0.highest - $0.lowest }.max() ?? 0 }
    }
}

/// A callback the engine keeps (an observer's, the error handler) is called the same way on its
/// thousandth call as on its first. A closure kept in a generic `Locked` and read back through
/// `withLock { $0 }` is written back through that `inout` wrapped in two more reabstraction
/// thunks on every read: each call then runs through all the thunks of the reads before it, so
/// an observer's deliveries grow slower one by one, and after some 30,000 changes the thread
/// that delivers them runs out of stack and the process crashes.
@Suite struct StoredCallbackHostileTests {
    /// The stack of one call may vary by a few frames; thousands of thunks take hundreds of KB.
    private static let sameDepth: UInt = 32_768

    /// An observer of a key that changes 3,000 times is called at the same depth every time.
    @Test func anObserversThousandthDeliveryIsMadeAsItsFirst() {
        let store = DefaultsStore.inMemory()
        let handle = UserDefault(wrappedValue: 0, "count", store: store)
        let depths = Depths()
        let heard = Counter()
        let observation = handle.observe { _ in
            depths.record()
            heard.increment()
        }
        for value in 1...3_000 { handle.wrappedValue = value }
        #expect(eventually { heard.value == 3_000 })
        observation.cancel()
        #expect(
            depths.largestSpread < Self.sameDepth,
            "the 3,000th delivery ran \(depths.largestSpread) bytes deeper than the first")
    }

    /// The same, for an observer's entry driven directly on one thread.
    @Test func anEntryDeliversAtTheSameDepthEveryTime() {
        let depths = Depths()
        let entry = SuiteObservers.Entry(id: 1, keys: nil) { _ in depths.record() }
        let change = SlotChange(key: DefaultsStoredKey("k"), oldObject: nil, newObject: nil, origin: .thisProcess)
        for _ in 0..<3_000 { entry.deliver(change) }
        #expect(depths.largestSpread < Self.sameDepth, "\(depths.largestSpread) bytes deeper")
    }

    /// The error handler, called for 3,000 reports, is called at the same depth every time.
    @Test func theErrorHandlersThousandthCallIsMadeAsItsFirst() {
        let depths = Depths()
        let (_, reported) = ReportedErrors.during(reaction: { depths.record() }) {
            for _ in 0..<3_000 { DefaultsError.report(.missingValue(key: "k")) }
        }
        #expect(reported.count == 3_000)
        #expect(depths.largestSpread < Self.sameDepth, "\(depths.largestSpread) bytes deeper")
    }
}
