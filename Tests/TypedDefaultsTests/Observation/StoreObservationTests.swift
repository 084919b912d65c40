import Foundation
import Testing
import TypedDefaults

extension DefaultsKeys {
    fileprivate static let observedLevel = DefaultsKey<Int>("level", default: 1)
    fileprivate static let observedMode = DefaultsKey<String>("mode", default: "easy")
    fileprivate static let observedRatio = DefaultsKey<Double>("ratio", default: 0.5)
}

/// Typed observation through the store, of one key or several, and starting with the current value.
@Suite struct StoreObservationTests {
    @Test func aTypedKeyIsObservedWithTypedOldAndNewValues() {
        let store = DefaultsStore.inMemory()
        let seen = Collected<DefaultsValueChange<Int>>()
        let observation = store.observe(.observedLevel) { seen.append($0) }
        defer { observation.cancel() }
        store[.observedLevel] = 2
        store[.observedLevel] = 3
        store.reset(.observedLevel)
        let changes = seen.wait(for: 3)
        #expect(changes.map(\.oldValue) == [1, 2, 3])
        #expect(changes.map(\.newValue) == [2, 3, 1])
        #expect(changes.allSatisfy { $0.key == "level" })
    }

    @Test func initialDeliversTheCurrentValueFirst() {
        let store = DefaultsStore.inMemory()
        store[.observedLevel] = 5
        let seen = Collected<DefaultsValueChange<Int>>()
        let observation = store.observe(.observedLevel, initial: true) { seen.append($0) }
        defer { observation.cancel() }
        store[.observedLevel] = 6
        let changes = seen.wait(for: 2)
        #expect(changes.map(\.oldValue) == [5, 5])
        #expect(changes.map(\.newValue) == [5, 6])

        // On a property, and for a key with nothing stored: the default.
        let property = UserDefault(.observedMode, store: store)
        let modes = Collected<DefaultsValueChange<String>>()
        let propertyObservation = property.observe(initial: true) { modes.append($0) }
        defer { propertyObservation.cancel() }
        #expect(modes.wait(for: 1).map(\.newValue) == ["easy"])
    }

    @Test func initialOnTheUntypedStoreNamesEachKeyOrEachStoredKey() {
        let store = DefaultsStore.inMemory()
        store[.observedLevel] = 2
        store[.observedMode] = "hard"
        let named = Collected<DefaultsKeyChange>()
        let namedObservation = store.observe(keys: ["level", "ratio"], initial: true) { named.append($0) }
        defer { namedObservation.cancel() }
        #expect(named.wait(for: 2).map(\.key) == ["level", "ratio"])

        let all = Collected<DefaultsKeyChange>()
        let allObservation = store.observe(initial: true) { all.append($0) }
        defer { allObservation.cancel() }
        #expect(Set(all.wait(for: 2).map(\.key)) == ["level", "mode"], "keys with nothing stored are left out")
    }

    @Test func severalKeysOfDifferentTypes() {
        let store = DefaultsStore.inMemory()
        let seen = Collected<DefaultsKeyChange>()
        let observation = store.observe(.observedLevel, .observedMode, .observedRatio) { seen.append($0) }
        defer { observation.cancel() }
        store[.observedLevel] = 2
        store[.observedMode] = "hard"
        store[.observedRatio] = 0.75
        UserDefault(wrappedValue: 0, "unrelated", store: store).wrappedValue = 1
        #expect(seen.wait(for: 3).map(\.key) == ["level", "mode", "ratio"])
        usleep(20_000)
        #expect(seen.all.count == 3, "a key not named is not delivered")
    }

    @Test func valuesAndChangesAsAsyncSequences() async {
        let store = DefaultsStore.inMemory()
        store[.observedLevel] = 10
        var values = store.changes(.observedLevel, initial: true).makeAsyncIterator()
        #expect(await values.next()?.newValue == 10)
        store[.observedLevel] = 11
        #expect(await values.next()?.newValue == 11)

        var changes = store.changes(.observedMode).makeAsyncIterator()
        store[.observedMode] = "hard"
        let change = await changes.next()
        #expect(change?.oldValue == "easy" && change?.newValue == "hard")

        var several = store.changes(.observedLevel, .observedRatio).makeAsyncIterator()
        store[.observedRatio] = 0.1
        #expect(await several.next()?.key == "ratio")
    }

    @Test func aStoredValueOfTheWrongTypeIsObservedAsTheDefault() throws {
        let suite = try TestSuite()
        suite.plant("not a number", forKey: "level")
        let seen = Collected<DefaultsValueChange<Int>>()
        let (observation, _) = ReportedErrors.during {
            suite.store.observe(.observedLevel, initial: true) { seen.append($0) }
        }
        defer { observation.cancel() }
        #expect(seen.wait(for: 1).map(\.newValue) == [1])
        #expect(suite.defaults.string(forKey: "level") == "not a number")
    }
}

extension StoreObservationTests {
    @Test func aSettingStartsWithItsCurrentValueToo() {
        let store = DefaultsStore.inMemory()
        let volume = Setting(wrappedValue: 0.5, "volume", title: "Volume", store: store)
        volume.wrappedValue = 0.7
        let seen = Collected<DefaultsValueChange<Double>>()
        let observation = volume.property.observe(initial: true) { seen.append($0) }
        defer { observation.cancel() }
        volume.wrappedValue = 0.9
        #expect(seen.wait(for: 2).map(\.newValue) == [0.7, 0.9])
    }

    @Test(
        .plistFilesOnly("`UserDefaults` does not tell of other processes' writes (Apple's neither)"),
        arguments: [false, true])
    func keysNoHandleUsedAreHeardOfWhenAnotherWriterChangesThem(storeHasReadBefore: Bool) throws {
        let suite = try TestSuite()
        suite.plant(1, forKey: "used")
        if storeHasReadBefore {
            @UserDefault("used", store: suite.store) var used = 0
            #expect(used == 1)
        }
        let heard = Collected<DefaultsKeyChange>()
        let observation = suite.store.observe { heard.append($0) }
        defer { observation.cancel() }
        // Another program replaces the file, adding a key and changing one this process used.
        func replaceFile(with contents: [String: Any]) throws {
            let data = try PropertyListSerialization.data(fromPropertyList: contents, format: .binary, options: 0)
            let temporary = suite.plistURL.appendingPathExtension("other-writer")
            try data.write(to: temporary)
            _ = rename(temporary.path, suite.plistURL.path)
        }
        try replaceFile(with: ["used": 2, "added": "by another program"])
        #expect(eventually { Set(heard.all.map(\.key)) == ["used", "added"] })
        #expect(heard.all.allSatisfy { $0.origin == .otherProcess })
        #expect(suite.store.storedValue(forKey: "added") == .string("by another program"))
        try replaceFile(with: ["used": 2])
        #expect(eventually { heard.all.count == 3 })
        #expect(heard.all.last?.key == "added")
        #expect(suite.store.storedValue(forKey: "added") == nil)
    }
}
