import Foundation
import Testing

@testable import TypedDefaults

extension DefaultsKeys {
    fileprivate static let reusedLevel = DefaultsKey<Int>("reusedLevel", default: 1)
}

/// A write of a scalar may put its value in the box of the object it replaces, when nothing
/// else holds that box: no copy, commit or observer may ever see a value change under it.
@Suite struct StoredObjectReuseTests {
    @Test func aBoxHeldTwiceIsNotChangedInPlace() {
        var original = StoredObject(1)
        let copy = original
        let replacedShared = original.replaceUniquelyHeld(with: 2)
        #expect(!replacedShared)
        #expect(original.object as? Int == 1)
        #expect(copy.object as? Int == 1)

        var alone = StoredObject(3)
        let replacedAlone = alone.replaceUniquelyHeld(with: 4)
        #expect(replacedAlone)
        #expect(alone.object as? Int == 4)
    }

    @Test func writesAroundAnObserverAreHeardWithTheirOldValues() {
        let store = DefaultsStore.inMemory()
        store[.reusedLevel] = 2
        store[.reusedLevel] = 3  // no one hears: the box may be reused
        let seen = Collected<DefaultsValueChange<Int>>()
        let observation = store.observe(.reusedLevel) { seen.append($0) }
        store[.reusedLevel] = 4
        store[.reusedLevel] = 5
        let changes = seen.wait(for: 2)
        observation.cancel()
        store[.reusedLevel] = 6
        #expect(changes.map(\.oldValue) == [3, 4])
        #expect(changes.map(\.newValue) == [4, 5])
        #expect(store[.reusedLevel] == 6)
    }

    @Test func writesBetweenFlushesReachTheFileAsWritten() throws {
        let suite = try TestSuite()
        let store = suite.store
        store[.reusedLevel] = 2
        #expect(try suite.flushedObject(forKey: "reusedLevel") as? Int == 2)
        // The flush's contents hold the box now; the next writes must leave them alone.
        store[.reusedLevel] = 3
        store[.reusedLevel] = 4
        #expect(store[.reusedLevel] == 4)
        #expect(try suite.flushedObject(forKey: "reusedLevel") as? Int == 4)
        store[.reusedLevel] = 5
        #expect(store.storedValue(forKey: "reusedLevel") == .integer(5))
        #expect(try suite.flushedObject(forKey: "reusedLevel") as? Int == 5)
    }
}
