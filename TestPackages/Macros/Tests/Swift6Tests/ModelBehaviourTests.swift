// The expanded code's behaviour, compiled in every configuration (the other test targets link
// this file). Each test has its own copy of the models' store: `.isolatedDefaults`.
import Foundation
import Testing
import TypedDefaults
import TypedDefaultsMacros
import TypedDefaultsTestSupport

@Suite(.isolatedDefaults) struct ModelBehaviourTests {
    @Test func aPropertyReadsItsDefaultUntilWrittenAndEveryInstanceSharesIt() {
        let settings = AppSettings()
        #expect(settings.theme == .light)
        #expect(settings.nickname == nil)
        #expect(settings.ratio == 1)
        settings.theme = .dark
        settings.nickname = "Ada"
        settings.launchCount += 1
        let other = AppSettings()
        #expect(other.theme == .dark)
        #expect(other.nickname == "Ada")
        #expect(other.launchCount == 1)
        #expect(DefaultsStore.macroProbe[DefaultsKey<String>("theme", default: "")] == "dark")
        settings.$theme.reset()
        #expect(other.theme == .light)
        settings.nickname = nil
        #expect(!other.$nickname.hasStoredValue)
    }

    @Test func keysAreTheNamesAfterThePrefixOrTheAttributes() {
        #expect(AppSettings().$launchCount.key == "launchCount")
        #expect(AppSettings().$scheme.key == "colour-scheme")
        #expect(PlayerSettings().$shuffle.key == "player.shuffle")
        PlayerSettings().repeats = 3
        #expect(DefaultsStore.macroProbe[DefaultsKey<Int>("player.repeats", default: 0)] == 3)
        #expect(PlayerSettings().$default.key == "player.default")
        #expect(PlayerSettings().step == nil)
        PlayerSettings().step = 0.5
        #expect(PlayerSettings().step == 0.5)
    }

    @Test func aTypedKeyBringsItsDefaultRulesAndCallbacksWhichDoNotRunOnLoad() {
        let changes = ChangeLog()
        ChangeLog.$current.withValue(changes) {
            let settings = AppSettings()
            #expect(settings.volume == 0.5)
            #expect(changes.recorded.isEmpty, "a callback ran as the object was made or first read")
            settings.volume = 3
            #expect(settings.volume == 1)
            #expect(changes.recorded == [1])
            DefaultsStore.macroProbe[.volume] = 0.25
            #expect(settings.volume == 0.25)
            #expect(changes.recorded == [1, 0.25])
        }
    }

    @Test func settingInfoMakesASettingWithItsRangeAndOptions() {
        let settings = AppSettings()
        #expect(settings.$fontSize.title == "Font size")
        settings.fontSize = 100
        #expect(settings.fontSize == 72)
        settings.$fontSize.decrease()
        #expect(settings.fontSize == 70)
        settings.quality = 500
        #expect(settings.quality == 480)
    }

    @Test func observationHearsAChangeThroughAnyHandle() {
        let settings = AppSettings()
        let changes = Counter()
        withObservationTracking {
            _ = settings.theme
        } onChange: {
            changes.increment()
        }
        AppSettings().theme = .dark
        #expect(changes.value == 1)
        withObservationTracking {
            _ = settings.launchCount
        } onChange: {
            changes.increment()
        }
        DefaultsStore.macroProbe.update(DefaultsKey<Int>("launchCount", default: 0)) { $0 += 5 }
        #expect(changes.value == 2)
        #expect(settings.launchCount == 5)
    }

    @Test func aModelsSecretIsFiledUnderItsStoreUnlessAServiceIsGiven() throws {
        let account = AccountSettings()
        let inTheStoresSuite = KeyringItem(service: "typeddefaults-macro-probe", account: "account.apiToken")
        #expect(account.$apiToken.item == inTheStoresSuite)
        #expect(account.$legacyToken.item == KeyringItem(service: "typeddefaults-macro-legacy", account: "legacyToken"))
        #expect(account.sessionToken.item.service == Secret("sessionToken").item.service)
        account.apiToken = "t0k3n"
        #expect(AccountSettings().apiToken == "t0k3n")
        #expect(try AccountSettings.keyring.secret(for: account.$apiToken.item) == Data("t0k3n".utf8))
        #expect(DefaultsStore.macroProbe.storedValue(forKey: "account.apiToken") == nil, "a secret reached the suite")
        try account.$apiToken.set(nil)
        #expect(account.apiToken == nil)
        #expect(try !account.$apiToken.isSet)
    }

    @Test func aNonisolatedModelIsUsedOffTheMainActor() async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { SyncSettings().interval += 1 }
        }
        #expect(SyncSettings().interval == 61)
    }

    @Test func theSharedInstanceIsUsedFromManyTasks() async {
        let counter = AppSettings.shared.$launchCount
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<20 { group.addTask { counter.update { $0 += 1 } } }
        }
        #expect(counter.wrappedValue == 20)
    }
}

/// Counts events, from any thread.
nonisolated final class Counter: @unchecked Sendable {  // `count` is only touched under `lock`.
    private let lock = NSLock()
    private var count = 0

    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}
