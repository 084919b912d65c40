import Foundation
import Testing
import TypedDefaults

/// juliand665/UserDefault's spellings, which its users bring along: each does here what that
/// library documents, on this engine's suites.
@Suite struct UserDefaultSpellingsTests {
    @Test func aPropertyDeclaredWithDefaultsSharesTheStoresSuite() throws {
        let suite = try TestSuite()
        @UserDefault("theme", defaults: suite.defaults) var theme = "system"
        @UserDefault("nickname", defaults: suite.defaults) var nickname: String?
        theme = "dark"
        nickname = "Bo"
        #expect(suite.store[DefaultsKey<String>("theme", default: "")] == "dark")
        #expect(suite.store[DefaultsKey<String?>("nickname", default: nil)] == "Bo")
        #expect($theme.key == "theme")
        #expect($theme.defaultValue == "system")
        #expect(try suite.flushedObject(forKey: "theme") as? String == "dark")
        #expect($theme.defaults.object(forKey: "theme") as? String == "dark")
    }

    @Test func wasLoadedSuccessfullyOnlyWhenAReadableValueIsStored() throws {
        let suite = try TestSuite()
        let count = UserDefault(wrappedValue: 0, "count", defaults: suite.defaults)
        #expect(!count.wasLoadedSuccessfully)
        count.wrappedValue = 3
        #expect(count.wasLoadedSuccessfully)
        let asText = UserDefault(wrappedValue: "", "count", defaults: suite.defaults)
        #expect(!asText.wasLoadedSuccessfully)
    }

    @Test func saveValueStoresTheDefaultAndClearRemovesIt() throws {
        let suite = try TestSuite()
        let volume = UserDefault(wrappedValue: 7, "volume", defaults: suite.defaults)
        volume.saveValue()
        #expect(volume.hasStoredValue)
        #expect(try volume.load() == 7)
        volume.wrappedValue = 9
        volume.clear()
        #expect(!volume.hasStoredValue)
        #expect(volume.wrappedValue == 7)
    }

    @Test func loadValueTakesInAPlainUserDefaultsWrite() throws {
        let suite = try TestSuite()
        let name = UserDefault(wrappedValue: "", "name", defaults: suite.defaults)
        name.wrappedValue = "first"
        try suite.store.flush()
        suite.plant("second", forKey: "name")
        name.loadValue()
        #expect(name.wrappedValue == "second")
    }

    @Test func aValueReadAndSavedThroughUserDefaults() throws {
        let suite = try TestSuite()
        do {
            _ = try [String](from: suite.defaults, forKey: "names")
            Issue.record("read a value where nothing is stored")
        } catch {
            guard case .missingValue("names") = error else {
                Issue.record("expected .missingValue, got \(error)")
                return
            }
        }
        ["a", "b"].save(to: suite.defaults, forKey: "names")
        #expect(try [String](from: suite.defaults, forKey: "names") == ["a", "b"])
        do {
            _ = try Int(from: suite.defaults, forKey: "names")
            Issue.record("an array read as an Int")
        } catch {
            guard case .typeMismatch(let key, _, _) = error else {
                Issue.record("expected .typeMismatch, got \(error)")
                return
            }
            #expect(key == "names")
        }
    }

    @Test func collectionsOfEitherProtocolAreStoredAsArrays() throws {
        let store = DefaultsStore.inMemory()
        @UserDefault("stack", store: store) var stack = ArrayBuilt(array: [])
        @UserDefault("queue", store: store) var queue = SequenceBuilt([])
        stack = ArrayBuilt(array: [3, 1])
        queue = SequenceBuilt(["x", "y"])
        #expect(store.storedValue(forKey: "stack") == [3, 1])
        #expect(store.storedValue(forKey: "queue") == ["x", "y"])
        #expect(stack == ArrayBuilt(array: [3, 1]))
        #expect(queue == SequenceBuilt(["x", "y"]))
        #expect(Set(array: [1, 1, 2]) == [1, 2])
    }
}

/// A collection written for juliand665/UserDefault's `ExpressibleByArray`.
private struct ArrayBuilt: Equatable, ExpressibleByArray, DefaultsValueConvertible {
    var items: [Int]
    init(array: [Int]) { items = array }
    func makeIterator() -> IndexingIterator<[Int]> { items.makeIterator() }
}

/// A collection written for its `ExpressibleBySequence`: a sequence initializer and nothing else.
private struct SequenceBuilt: Equatable, ExpressibleBySequence, DefaultsValueConvertible {
    var items: [String]
    init<S: Sequence>(_ elements: S) where S.Element == String { items = Array(elements) }
    func makeIterator() -> IndexingIterator<[String]> { items.makeIterator() }
}
