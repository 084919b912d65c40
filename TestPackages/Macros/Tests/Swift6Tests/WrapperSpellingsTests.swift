// juliand665/UserDefault's spellings as its users write them, in a class, a struct and a task,
// compiled in every configuration (the other test targets link this file): with
// `-default-isolation MainActor` the class and the conversions below are the main actor's.
import Foundation
import Testing
import TypedDefaults
import TypedDefaultsTestSupport

struct SpellingTags: ExpressibleByArray, DefaultsValueConvertible, Equatable {
    var items: [String]
    init(array: [String]) { items = array }
    func makeIterator() -> IndexingIterator<[String]> { items.makeIterator() }
}

struct SpellingQueue: ExpressibleBySequence, DefaultsValueConvertible, Equatable {
    var items: [Int]
    init<S: Sequence>(_ elements: S) where S.Element == Int { items = Array(elements) }
    func makeIterator() -> IndexingIterator<[Int]> { items.makeIterator() }
}

final class SpellingPreferences {
    @UserDefault("spelling.tags", defaults: .standard) var tags = SpellingTags(array: ["a"])
    @UserDefault("spelling.queue", defaults: .standard) var queue = SpellingQueue([1, 2])
    @UserDefault("spelling.ids", defaults: .standard) var ids: Set<Int> = []
    @UserDefault("spelling.name", defaults: .standard) var name: String?
}

struct SpellingModel {
    @UserDefault("spelling.count", defaults: .standard) var count = 0
}

@Suite(.isolatedDefaults) struct WrapperSpellingsTests {
    @Test func theWrapperKeepsItsValuesAndClearsThem() {
        let preferences = SpellingPreferences()
        #expect(preferences.tags == SpellingTags(array: ["a"]))
        preferences.tags = SpellingTags(array: ["b", "c"])
        preferences.queue = SpellingQueue([3, 3, 4])
        preferences.ids = [7, 8]
        preferences.name = "Ada"
        let other = SpellingPreferences()
        #expect(other.tags.items == ["b", "c"])
        #expect(other.queue.items == [3, 3, 4])
        #expect(other.ids == [7, 8])
        #expect(other.$name.wasLoadedSuccessfully)
        other.$name.clear()
        other.$name.loadValue()
        #expect(preferences.name == nil)
        preferences.$queue.saveValue()
        #expect(other.queue.items == [3, 3, 4])
    }

    @Test func theConversionsReadAndWriteAUserDefaultsObject() throws {
        ["x", "y"].save(to: .standard, forKey: "spelling.names")
        #expect(try [String](from: .standard, forKey: "spelling.names") == ["x", "y"])
        #expect(throws: DefaultsError.self) { try Int(from: .standard, forKey: "spelling.nothing") }
        let model = SpellingModel()
        model.count += 2
        #expect(SpellingModel().count == 2)
    }

    @Test func aWrapperMadeOffTheMainActorWrites() async {
        await incrementCount()
        #expect(SpellingModel().count == 1)
    }
}

/// On the global executor in every configuration, in the caller's task: a detached task would
/// not see the test's isolated store.
@concurrent nonisolated func incrementCount() async {
    let count = UserDefault(wrappedValue: 0, "spelling.count", defaults: .standard)
    count.wrappedValue += 1
}
