// The declarations an app writes, compiled in every configuration the tests cover (the other
// test targets and the probe link this file): Swift 6, main-actor isolation by default with
// the approachable-concurrency features, and Swift 5.
import Foundation
import TypedDefaults
import TypedDefaultsMacros

enum Theme: String, DefaultsValueConvertible, Sendable { case light, dark }

extension DefaultsStore {
    /// The suite the models live in; the tests that cross processes share its file. Not isolated
    /// to the main actor where that is the default, so that a `nonisolated` model can use it.
    nonisolated static let macroProbe = DefaultsStore(suite: "typeddefaults-macro-probe")
}

extension DefaultsKeys {
    /// Its callback runs after every change of the key, in the task that made it: it records into
    /// that task's log, so that tests running at once, each on its own copy of the suite, keep
    /// their records apart.
    static let volume = DefaultsKey<Double>("volume", default: 0.5).clamped(to: 0...1).didSet { new, _ in
        ChangeLog.current?.record(new)
    }
}

@ObservableSettings(store: .macroProbe)
final class AppSettings: Sendable {
    static let shared = AppSettings()

    var theme = Theme.light
    var launchCount = 0
    var nickname: String?
    var ratio: Double = 1
    @SettingKey("colour-scheme") var scheme = "auto"
    @SettingKey(.volume) var volume: Double
    @SettingInfo(title: "Font size", range: 8...72, step: 2) var fontSize = 12
    @SettingInfo(title: "Quality", options: [240, 480, 720]) var quality = 720
    @SettingIgnored let madeAt = Date()

    /// Computed: left as written.
    var isDark: Bool { theme == .dark }
}

@ObservableSettings(prefix: "player.", store: .macroProbe)
final class PlayerSettings: Sendable {
    var shuffle = false
    public var repeats = 0
    var `default` = 0
    var step: Double!
}

/// A model's secrets, in each form the articles show for a `Sendable` class.
@ObservableSettings(prefix: "account.", store: .macroProbe)
final class AccountSettings: Sendable {
    /// Where its secrets are kept: never the user's keyring.
    static let keyring = MemoryKeyring()

    var server = "api.example.com"
    @SettingSecret(keyring: AccountSettings.keyring) var apiToken: String?  // "account.apiToken", in the store's suite
    @SettingSecret("legacyToken", service: "typeddefaults-macro-legacy", keyring: AccountSettings.keyring)
    var legacyToken: String?
    /// A `Secret` kept in a constant: left as written, with the service it was made with.
    let sessionToken = Secret("sessionToken", keyring: AccountSettings.keyring)
}

/// A model that is not isolated to the main actor where that is the default: its store is a
/// `nonisolated static let`.
@ObservableSettings(store: .macroProbe)
nonisolated final class SyncSettings: Sendable {
    var interval = 60
}

/// Values a callback saw, from any thread. Not isolated to the main actor, where that is the
/// default: a key's callbacks run on the thread that made the change.
nonisolated final class ChangeLog: @unchecked Sendable {  // `values` is only touched under `lock`.
    @TaskLocal static var current: ChangeLog?
    private let lock = NSLock()
    private var values: [Double] = []

    func record(_ value: Double) { lock.withLock { values.append(value) } }
    var recorded: [Double] { lock.withLock { values } }
}
