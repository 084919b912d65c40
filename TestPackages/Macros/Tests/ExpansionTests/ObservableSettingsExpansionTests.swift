import MacroTesting
import MacrosUnderTest
import SwiftSyntaxMacroExpansion
import Testing

@Suite(
    .macros([
        "ObservableSettings": MacroSpec(
            type: ObservableSettingsMacro.self, conformances: ["Observable", "SettingsCatalog"]),
        "_StoredSetting": MacroSpec(type: StoredSettingMacro.self),
        "SettingKey": MacroSpec(type: SettingMarkerMacro.self), "SettingInfo": MacroSpec(type: SettingMarkerMacro.self),
        "SettingIgnored": MacroSpec(type: SettingMarkerMacro.self),
        "SettingSecret": MacroSpec(type: SettingMarkerMacro.self),
    ])
)
struct ObservableSettingsExpansionTests {
    @Test func eachStoredVarBecomesAHandleAndAccessors() {
        assertMacro {
            """
            @ObservableSettings
            final class AppSettings: Sendable {
                static let shared = AppSettings()
                var theme = Theme.light
                var ratio: Double = 1
                public var nickname: String?
                var isDark: Bool { theme == .dark }
                @SettingIgnored var scratch = 0
                let session = Secret("session")
            }
            """
        } expansion: {
            """
            final class AppSettings: Sendable {
                static let shared = AppSettings()
                var theme {
                    @storageRestrictions(accesses: $theme)
                    init(initialValue) {
                    }
                    get {
                        $theme._value(observedBy: self)
                    }
                    set {
                        $theme.wrappedValue = newValue
                    }
                }

                let $theme = UserDefault(wrappedValue: Theme.light, "theme")
                var ratio: Double {
                    @storageRestrictions(accesses: $ratio)
                    init(initialValue) {
                    }
                    get {
                        $ratio._value(observedBy: self)
                    }
                    set {
                        $ratio.wrappedValue = newValue
                    }
                }

                let $ratio = UserDefault<Double>(wrappedValue: 1, "ratio")
                public var nickname: String? {
                    get {
                        $nickname._value(observedBy: self)
                    }
                    set {
                        $nickname.wrappedValue = newValue
                    }
                }

                public let $nickname = UserDefault<String?>("nickname")
                var isDark: Bool { theme == .dark }
                var scratch = 0
                let session = Secret("session")
            }

            @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
            extension AppSettings: Observable {
            }

            extension AppSettings: SettingsCatalog {
            }
            """
        }
    }

    @Test func thePrefixAndTheStoreAreTheClasss() {
        assertMacro {
            """
            @ObservableSettings(prefix: "player.", store: .appGroup)
            final class PlayerSettings {
                var shuffle = false
                var `repeat` = 0
            }
            """
        } expansion: {
            """
            final class PlayerSettings {
                var shuffle {
                    @storageRestrictions(accesses: $shuffle)
                    init(initialValue) {
                    }
                    get {
                        $shuffle._value(observedBy: self)
                    }
                    set {
                        $shuffle.wrappedValue = newValue
                    }
                }

                let $shuffle = UserDefault(wrappedValue: false, "player.shuffle", store: PlayerSettings._settingsStore)
                var `repeat` {
                    @storageRestrictions(accesses: $repeat)
                    init(initialValue) {
                    }
                    get {
                        $repeat._value(observedBy: self)
                    }
                    set {
                        $repeat.wrappedValue = newValue
                    }
                }

                let $repeat = UserDefault(wrappedValue: 0, "player.repeat", store: PlayerSettings._settingsStore)

                // A `nonisolated` class reads a store declared `nonisolated static let`.
                static var _settingsStore: DefaultsStore {
                    .appGroup
                }
            }

            @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
            extension PlayerSettings: Observable {
            }

            extension PlayerSettings: SettingsCatalog {
            }
            """
        }
    }

    @Test func attributesNameAnotherKeyATypedKeyOrASetting() {
        assertMacro {
            """
            @ObservableSettings(prefix: "app.")
            final class AppSettings {
                @SettingKey("colour-scheme") var scheme = "auto"
                @SettingKey(.volume) var volume: Double
                @SettingInfo(title: "Font size", range: 8...72, step: 2) var fontSize = 12
                @SettingKey(.quality) @SettingInfo(title: "Quality", options: [240, 720]) var quality: Int
            }
            """
        } expansion: {
            """
            final class AppSettings {
                var scheme {
                    @storageRestrictions(accesses: $scheme)
                    init(initialValue) {
                    }
                    get {
                        $scheme._value(observedBy: self)
                    }
                    set {
                        $scheme.wrappedValue = newValue
                    }
                }

                let $scheme = UserDefault(wrappedValue: "auto", "colour-scheme")
                var volume: Double {
                    get {
                        $volume._value(observedBy: self)
                    }
                    set {
                        $volume.wrappedValue = newValue
                    }
                }

                let $volume = UserDefault(.volume)
                var fontSize {
                    @storageRestrictions(accesses: $fontSize)
                    init(initialValue) {
                    }
                    get {
                        $fontSize._value(observedBy: self)
                    }
                    set {
                        $fontSize.wrappedValue = newValue
                    }
                }

                let $fontSize = Setting(wrappedValue: 12, "app.fontSize", title: "Font size", range: 8 ... 72, step: 2)
                
                var quality: Int {
                    get {
                        $quality._value(observedBy: self)
                    }
                    set {
                        $quality.wrappedValue = newValue
                    }
                }

                let $quality = Setting(.quality, title: "Quality", options: [240, 720])
            }

            @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
            extension AppSettings: Observable {
            }

            extension AppSettings: SettingsCatalog {
            }
            """
        }
    }

    @Test func anImplicitlyUnwrappedOptionalIsStoredAsAnOptional() {
        assertMacro {
            """
            @ObservableSettings
            final class AppSettings {
                var step: Double!
            }
            """
        } expansion: {
            """
            final class AppSettings {
                var step: Double! {
                    get {
                        $step._value(observedBy: self)
                    }
                    set {
                        $step.wrappedValue = newValue
                    }
                }

                let $step = UserDefault<Double?>("step")
            }

            @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
            extension AppSettings: Observable {
            }

            extension AppSettings: SettingsCatalog {
            }
            """
        }
    }

    @Test func aLetALazyVarAndObserversAreRefusedWithFixes() {
        assertMacro {
            """
            @ObservableSettings
            final class AppSettings {
                let theme = Theme.light
                lazy var cache = [String: Int]()
                var count = 0 {
                    didSet { print(count) }
                }
                var width = 1, height = 2
            }
            """
        } diagnostics: {
            """
            @ObservableSettings
            final class AppSettings {
                let theme = Theme.light
                ┬──
                ╰─ 🛑 a 'let' cannot be stored as a setting, which can change; declare it 'var', or mark it @SettingIgnored to keep it a constant
                   ✏️ declare it 'var'
                lazy var cache = [String: Int]()
                     ┬──
                     ╰─ 🛑 a 'lazy' property cannot be stored as a setting; mark it @SettingIgnored
                        ✏️ mark it @SettingIgnored
                var count = 0 {
                              ╰─ 🛑 a setting cannot have 'willSet' or 'didSet': other handles and processes change it too; use a typed key's didSet(_:)
                                 ✏️ remove the observers
                    didSet { print(count) }
                }
                var width = 1, height = 2
                    ┬────────────────────
                    ╰─ 🛑 declare one setting per 'var', with a name of its own
                       ✏️ mark it @SettingIgnored
            }
            """
        } fixes: {
            """
            @ObservableSettings
            final class AppSettings {
                var theme = Theme.light
                @SettingIgnored lazy var cache = [String: Int]()
                var count = 0 
                @SettingIgnored var width = 1, height = 2
            }
            """
        }
    }

    @Test func aPropertyWithNoDefaultAMisplacedAttributeOrASecretOfAnotherTypeIsRefused() {
        assertMacro {
            """
            @ObservableSettings
            final class AppSettings {
                var name: String
                @SettingKey("dark") var isDark: Bool { true }
                @SettingKey(.volume) var volume: Double = 0.5
                @SettingKey(.volume) var loudness
                @SettingSecret var password = ""
                @SettingSecret var pin: Int?
            }
            """
        } diagnostics: {
            """
            @ObservableSettings
            final class AppSettings {
                var name: String
                    ┬───────────
                    ╰─ 🛑 a setting needs a default, the value read while nothing is stored ('var name = value'); only an optional may leave it out
                       ✏️ add a default
                @SettingKey("dark") var isDark: Bool { true }
                ┬──────────────────
                ╰─ 🛑 a computed property is not stored; remove the attribute, or store the property with a default
                   ✏️ remove the attribute
                @SettingKey(.volume) var volume: Double = 0.5
                                                        ┬────
                                                        ╰─ 🛑 the typed key gives the default; remove this one
                                                           ✏️ remove the default
                @SettingKey(.volume) var loudness
                                         ┬───────
                                         ╰─ 🛑 a property stored under a typed key is declared with its type: 'var name: Type'
                @SettingSecret var password = ""
                                   ┬────────────
                                   ╰─ 🛑 a secret is declared 'var name: String?', with no default: nil while the keyring holds none
                                      ✏️ declare it 'String?'
                @SettingSecret var pin: Int?
                                   ┬────────
                                   ╰─ 🛑 a secret is declared 'var name: String?', with no default: nil while the keyring holds none
                                      ✏️ declare it 'String?'
            }
            """
        }
    }

    @Test func aStructAnActorAndAnEnumAreRefused() {
        assertMacro {
            """
            @ObservableSettings
            struct AppSettings {
                var theme = Theme.light
            }
            """
        } diagnostics: {
            """
            @ObservableSettings
            struct AppSettings {
            ┬─────
            ╰─ 🛑 @ObservableSettings applies to a class, whose instances share one store; not to a struct, an enum, an actor or an extension
               ✏️ make it a class
                var theme = Theme.light
            }
            """
        } fixes: {
            """
            @ObservableSettings
            class AppSettings {
                var theme = Theme.light
            }
            """
        } expansion: {
            """
            class AppSettings {
                var theme {
                    @storageRestrictions(accesses: $theme)
                    init(initialValue) {
                    }
                    get {
                        $theme._value(observedBy: self)
                    }
                    set {
                        $theme.wrappedValue = newValue
                    }
                }

                let $theme = UserDefault(wrappedValue: Theme.light, "theme")
            }

            @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
            extension AppSettings: Observable {
            }

            extension AppSettings: SettingsCatalog {
            }
            """
        }
        assertMacro {
            """
            @ObservableSettings
            actor AppSettings {
                var theme = Theme.light
            }
            """
        } diagnostics: {
            """
            @ObservableSettings
            actor AppSettings {
            ┬────
            ╰─ 🛑 @ObservableSettings applies to a class, whose instances share one store; not to a struct, an enum, an actor or an extension
               ✏️ make it a class
                var theme = Theme.light
            }
            """
        } fixes: {
            """
            @ObservableSettings
            class AppSettings {
                var theme = Theme.light
            }
            """
        } expansion: {
            """
            class AppSettings {
                var theme {
                    @storageRestrictions(accesses: $theme)
                    init(initialValue) {
                    }
                    get {
                        $theme._value(observedBy: self)
                    }
                    set {
                        $theme.wrappedValue = newValue
                    }
                }

                let $theme = UserDefault(wrappedValue: Theme.light, "theme")
            }

            @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
            extension AppSettings: Observable {
            }

            extension AppSettings: SettingsCatalog {
            }
            """
        }
    }

    @Test func aSecretIsFiledUnderTheClasssStoreUnlessAServiceIsGiven() {
        assertMacro {
            """
            @ObservableSettings(prefix: "account.", store: .app)
            final class AccountSettings: Sendable {
                @SettingSecret var apiToken: String?
                @SettingSecret("openAIToken", title: "OpenAI token") public var openAIToken: String?
                @SettingSecret(service: "com.example.shared", keyring: keyring) var shared: Optional<String>
            }
            """
        } expansion: {
            """
            final class AccountSettings: Sendable {
                var apiToken: String? {
                    get {
                        $apiToken.wrappedValue
                    }
                    set {
                        $apiToken.wrappedValue = newValue
                    }
                }

                let $apiToken = Secret("account.apiToken", store: AccountSettings._settingsStore)
                public var openAIToken: String? {
                    get {
                        $openAIToken.wrappedValue
                    }
                    set {
                        $openAIToken.wrappedValue = newValue
                    }
                }

                public let $openAIToken = Secret("openAIToken", store: AccountSettings._settingsStore, title: "OpenAI token")
                var shared: Optional<String> {
                    get {
                        $shared.wrappedValue
                    }
                    set {
                        $shared.wrappedValue = newValue
                    }
                }

                let $shared = Secret("account.shared", service: "com.example.shared", keyring: keyring)

                // A `nonisolated` class reads a store declared `nonisolated static let`.
                static var _settingsStore: DefaultsStore {
                    .app
                }
            }

            @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
            extension AccountSettings: Observable {
            }

            extension AccountSettings: SettingsCatalog {
            }
            """
        }
    }

    @Test func aSecretWrapperIsRefusedWithAFixToASettingSecret() {
        assertMacro {
            """
            @ObservableSettings
            final class AccountSettings: Sendable {
                @Secret("apiToken") var apiToken: String?
            }
            """
        } diagnostics: {
            """
            @ObservableSettings
            final class AccountSettings: Sendable {
                @Secret("apiToken") var apiToken: String?
                ┬──────────────────
                ╰─ 🛑 declare a model's secret @SettingSecret, which files it under the model's store; a @Secret wrapper's storage is a 'var', which a 'Sendable' class cannot hold
                   ✏️ declare it @SettingSecret
            }
            """
        } fixes: {
            """
            @ObservableSettings
            final class AccountSettings: Sendable {
                @SettingSecret("apiToken") var apiToken: String?
            }
            """
        } expansion: {
            """
            final class AccountSettings: Sendable {
                var apiToken: String? {
                    get {
                        $apiToken.wrappedValue
                    }
                    set {
                        $apiToken.wrappedValue = newValue
                    }
                }

                let $apiToken = Secret("apiToken")
            }

            @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
            extension AccountSettings: Observable {
            }

            extension AccountSettings: SettingsCatalog {
            }
            """
        }
    }

    /// Each refusal is reported once; what the compiler then reports of the expansion (nothing
    /// more) is CompilerErrorTests'.
    @Test func eachRefusalOfASendableClassIsReportedOnce() {
        assertMacro {
            """
            @ObservableSettings
            final class AppSettings: Sendable {
                var name: String
                @SettingKey(.volume) var volume: Double = 0.5
                var count = 0 {
                    didSet { print(count) }
                }
                @SettingKey(.volume) var loudness
            }
            """
        } diagnostics: {
            """
            @ObservableSettings
            final class AppSettings: Sendable {
                var name: String
                    ┬───────────
                    ╰─ 🛑 a setting needs a default, the value read while nothing is stored ('var name = value'); only an optional may leave it out
                       ✏️ add a default
                @SettingKey(.volume) var volume: Double = 0.5
                                                        ┬────
                                                        ╰─ 🛑 the typed key gives the default; remove this one
                                                           ✏️ remove the default
                var count = 0 {
                              ╰─ 🛑 a setting cannot have 'willSet' or 'didSet': other handles and processes change it too; use a typed key's didSet(_:)
                                 ✏️ remove the observers
                    didSet { print(count) }
                }
                @SettingKey(.volume) var loudness
                                         ┬───────
                                         ╰─ 🛑 a property stored under a typed key is declared with its type: 'var name: Type'
            }
            """
        }
    }
}
