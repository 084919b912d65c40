import Foundation
import Testing
import TypedDefaults

extension DefaultsStore {
    /// A suite named by a literal, declared once where it cannot throw.
    fileprivate static let literalSuite = DefaultsStore(suite: "typeddefaults-tests.literal-suite")
}

extension DefaultsKeys {
    fileprivate static let carried = DefaultsKey<Int>("carried", default: 0, store: .literalSuite)
    fileprivate static let carriedVolume = DefaultsKey<Double>("volume", default: 0.5, store: .literalSuite)
    fileprivate static let uncarried = DefaultsKey<Int>("carried", default: 0)
}

/// Keys that carry their store, and keys as values: equal and hashable by name and store.
@Suite struct KeyStoreTests {
    /// The literal suite is shared by this process's tests: each test uses keys of its own.
    @Test func aPropertyOrSettingOfAKeyUsesTheKeysStore() throws {
        let name = "typeddefaults-tests.literal-suite"
        defer {
            if let file = DefaultsStore.literalSuite.fileURL { TestSuite.removeFiles(of: file) }
        }
        let property = UserDefault(.carried)
        #expect(property.store.fileURL == DefaultsStore.literalSuite.fileURL)
        property.wrappedValue = 7
        #expect(DefaultsStore.literalSuite[.carried] == 7)

        let setting = Setting(.carriedVolume, title: "Volume")
        setting.wrappedValue = 0.8
        #expect(DefaultsStore.literalSuite[.carriedVolume] == 0.8)
        try DefaultsStore.literalSuite.flush()
        if isLinux {
            #expect(try UserDefaults.suite(named: name).integer(forKey: "carried") == 7)
        }
    }

    @Test func anExplicitStoreWinsOverTheKeys() throws {
        let suite = try TestSuite()
        let property = UserDefault(.carried, store: suite.store)
        property.wrappedValue = 3
        #expect(suite.store[.carried] == 3)
        #expect(property.store.fileURL == suite.store.fileURL)
        let setting = Setting(.carriedVolume, title: "Volume", store: suite.store)
        setting.wrappedValue = 0.25
        #expect(suite.store[.carriedVolume] == 0.25)
    }

    @Test func keysAreEqualByNameAndStore() {
        #expect(DefaultsKeys.carried == DefaultsKey<Int>("carried", default: 99, store: .literalSuite))
        #expect(DefaultsKeys.carried != DefaultsKeys.uncarried, "same name, another store")
        #expect(DefaultsKeys.uncarried == DefaultsKey<Int>("carried", default: 1))
        #expect(DefaultsKeys.uncarried != DefaultsKey<Int>("other", default: 0))

        let set: Set<DefaultsKey<Int>> = [.carried, .uncarried, DefaultsKey<Int>("carried", default: 5)]
        #expect(set.count == 2)
        var titles: [DefaultsKeys: String] = [:]
        titles[DefaultsKeys.carried] = "Count"
        titles[DefaultsKeys.carriedVolume] = "Volume"
        #expect(titles[DefaultsKey<Double>("volume", default: 0, store: .literalSuite)] == "Volume")
        #expect(titles.count == 2)
    }

    @Test func theLiteralSuiteIsTheSuiteOfThatName() throws {
        let byName = try DefaultsStore(suiteName: "typeddefaults-tests.literal-suite")
        #expect(byName.fileURL == DefaultsStore.literalSuite.fileURL)
    }
}
