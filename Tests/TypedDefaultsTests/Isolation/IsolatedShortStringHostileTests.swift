import Foundation
import Testing

@testable import TypedDefaults

/// A plain class's property: its reads take the inlined cached path, which reads the suite's
/// own state.
private final class Banner {
    @UserDefault var caption: String

    init(store: DefaultsStore) {
        _caption = UserDefault(wrappedValue: "fallback", "caption", store: store)
    }
}

/// A test's copy of a suite stands for it from the first read in the test on, even where the
/// suite's own state already holds a short string in its lock-free copy of the cache, and a
/// write in the copy, measured where its type is known, keeps the copy's size as a recount.
/// (Isolating suites turns on, for the whole process, the switch that sends every read to the
/// lock: run apart from the tests of the lock-free copy.)
@Suite struct IsolatedShortStringHostileTests {
    @Test func aCopyStandsForASuiteWhoseStringWasReadWithoutTheLock() throws {
        let suite = try TestSuite()
        let store = suite.store
        let handle = UserDefault(wrappedValue: "fallback", "caption", store: store)
        let key = DefaultsKey<String>("caption", default: "fallback")
        let banner = Banner(store: store)
        let count = UserDefault(wrappedValue: 0, "count", store: store)
        handle.wrappedValue = "own"
        count.wrappedValue = 1
        // Read twice each way: the second read is the cached one.
        for _ in 0..<2 {
            #expect(handle.wrappedValue == "own")
            #expect(store[key] == "own")
            #expect(banner.caption == "own")
        }
        let copies = IsolatedSuites()
        IsolatedSuites.$current.withValue(copies) {
            for _ in 0..<2 {
                #expect(handle.wrappedValue == "fallback", "the suite's own string read in a test's copy")
                #expect(store[key] == "fallback")
                #expect(banner.caption == "fallback")
                #expect(count.wrappedValue == 0)
            }
            for value in ["copy", "", "fifteen bytes!!", String(repeating: "long ", count: 5)] {
                banner.caption = value
                for _ in 0..<2 {
                    #expect(handle.wrappedValue == value)
                    #expect(store[key] == value)
                    #expect(banner.caption == value)
                }
            }
            for value in [0xFF, 0x100, -1, .max, 0] { count.wrappedValue = value }
            let copy = store.state
            #expect(copy !== store.ownState)
            let (counted, recounted) = copy.lock.withLock { () -> (Int?, Int) in
                let counted = copy.sizeInBytes
                copy.sizeInBytes = nil
                return (counted, copy.currentSize())
            }
            #expect(counted == recounted, "the copy's counted size")
        }
        for _ in 0..<2 {
            #expect(handle.wrappedValue == "own", "a test's write reached the suite")
            #expect(store[key] == "own")
            #expect(banner.caption == "own")
            #expect(count.wrappedValue == 1)
        }
    }
}
