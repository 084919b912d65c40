import Foundation
import Testing
import TypedDefaults

// The GettingStarted article's "Use it" examples, as a newcomer pastes them (`Theme` is the
// article's, declared in PublicAPITests). The suite names are the tests' own, so that no test
// touches a real suite.

private final class Preferences {
    @UserDefault("hasSeenSplashScreen", store: ReadmeUseItTests.store) var hasSeenSplashScreen = false
    @UserDefault("name", store: ReadmeUseItTests.store) var name: String?
    @UserDefault("count", store: ReadmeUseItTests.store) var count: Int? = 42
    @UserDefault("theme", store: DefaultsStore(suite: "typeddefaults-tests.readme-use-it")) var theme = Theme.system
}

extension DefaultsKeys {
    fileprivate static let readmeLaunchCount = DefaultsKey<Int>("launchCount", default: 0)
}

@Suite struct ReadmeUseItTests {
    static let store = DefaultsStore.inMemory()

    @Test func theFirstExampleWorksInsideAType() throws {
        defer {
            if let file = DefaultsStore(suite: "typeddefaults-tests.readme-use-it").fileURL {
                TestSuite.removeFiles(of: file)
            }
        }
        let preferences = Preferences()
        preferences.hasSeenSplashScreen = true
        preferences.count = nil
        #expect(preferences.theme == .system)
        #expect(preferences.hasSeenSplashScreen && preferences.count == nil && preferences.name == nil)
    }

    @Test func appWideSettingsAreTypedKeys() {
        let store = DefaultsStore.inMemory()
        store[.readmeLaunchCount] += 1
        #expect(store[.readmeLaunchCount] == 1)
    }
}
