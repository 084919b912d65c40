import Foundation
import Testing
import TypedDefaults

extension DefaultsKeys {
    // The same two rules in both orders: clamping first lets the replacement stand.
    static let clampThenEnsure = DefaultsKey<Int>("rules.clampThenEnsure", default: 5)
        .clamped(to: 0...10).ensure(when: { $0 == 10 }, use: 20)
    static let ensureThenClamp = DefaultsKey<Int>("rules.ensureThenClamp", default: 5)
        .ensure(when: { $0 == 10 }, use: 20).clamped(to: 0...10)
    static let nickname = DefaultsKey<String?>("rules.nickname").whenNil(use: "friend")
    static let port = DefaultsKey<Int>("rules.port", default: 8080).validate { (1...65535).contains($0) }
    static let level = DefaultsKey<Double>("rules.level", default: 0.5).clamped(to: 0...1)
}

@Suite struct RuleTests {
    @Test func rulesApplyInDeclarationOrderOnWrite() throws {
        let suite = try TestSuite()
        suite.store[.clampThenEnsure] = 50
        suite.store[.ensureThenClamp] = 50
        #expect(try suite.flushedObject(forKey: "rules.clampThenEnsure") as? Int == 20)
        #expect(try suite.flushedObject(forKey: "rules.ensureThenClamp") as? Int == 10)
    }

    @Test func rulesApplyInDeclarationOrderOnRead() throws {
        let suite = try TestSuite()
        suite.plant(50, forKey: "rules.clampThenEnsure")
        suite.plant(50, forKey: "rules.ensureThenClamp")
        let before = try suite.fileBytes()
        #expect(suite.store[.clampThenEnsure] == 20)
        #expect(suite.store[.ensureThenClamp] == 10)
        #expect(try suite.fileBytes() == before, "a read corrects what it returns, not what is stored")
    }

    @Test func aRejectedValueIsReplacedNeverStored() throws {
        let suite = try TestSuite()
        suite.store[.port] = 80
        #expect(suite.store[.port] == 80)
        suite.store[.port] = 70_000
        #expect(suite.store[.port] == 8080)
        #expect(try suite.flushedObject(forKey: "rules.port") as? Int == 8080)
        suite.store[.level] = 3
        #expect(try suite.flushedObject(forKey: "rules.level") as? Double == 1)
        suite.store[.level] = -.infinity
        #expect(suite.store[.level] == 0)
        suite.store[.level] = .nan
        #expect(suite.store[.level] == 0, "NaN is outside every range")
    }

    @Test func whenNilOnReadAndWrite() throws {
        let suite = try TestSuite()
        #expect(suite.store[.nickname] == "friend", "the nil default is replaced")
        suite.store[.nickname] = "Bobbie"
        #expect(suite.store[.nickname] == "Bobbie")
        suite.store[.nickname] = nil
        #expect(suite.store[.nickname] == "friend")
        #expect(try suite.flushedObject(forKey: "rules.nickname") as? String == "friend")
    }

    @Test func rulesOnAPropertyDeclaredWithAName() {
        let store = DefaultsStore.inMemory()
        let retries = UserDefault(wrappedValue: 3, "retries", store: store).clamped(to: 0...5)
            .adding(DefaultsRule { value, _ in value - value % 2 })
        retries.wrappedValue = 9
        #expect(retries.wrappedValue == 4, "clamped to 5, then made even")
        let plain = UserDefault(wrappedValue: 0, "retries", store: store)
        #expect(plain.wrappedValue == 4, "what was stored is the corrected value")
        plain.wrappedValue = -3
        #expect(retries.wrappedValue == 0, "another handle's write is corrected on read")
        #expect(plain.wrappedValue == -3, "handles without the rules see what is stored")
    }

    @Test func rulesApplyToLoadUpdateAndObservers() throws {
        let store = DefaultsStore.inMemory()
        let level = UserDefault(.level, store: store)
        let seen = Collected<DefaultsValueChange<Double>>()
        let observation = level.observe { seen.append($0) }
        UserDefault(wrappedValue: 0, "rules.level", store: store).wrappedValue = 7
        #expect(try level.load() == 1)
        level.update { $0 += 5 }
        #expect(level.wrappedValue == 1)
        let changes = seen.wait(for: 2)
        #expect(changes.map(\.newValue) == [1, 1])
        #expect(changes.first?.oldValue == 0.5)
        observation.cancel()
    }

    @Test func aRuleThatReadsTheDefault() {
        let store = DefaultsStore.inMemory()
        let key = DefaultsKey<Int>("rules.dynamicValidate", dynamicDefault: { 42 }).validate { $0 > 0 }
        store[key] = -1
        #expect(store[key] == 42)
    }
}
