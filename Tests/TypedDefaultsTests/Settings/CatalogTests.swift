import Foundation
import Testing

@testable import TypedDefaults
@testable import TypedDefaultsSchema

extension DefaultsKeys {
    static let catalogTheme = DefaultsKey<Theme>("catalog.theme", default: .system)
    static let catalogVolume = DefaultsKey<Double>("catalog.volume", default: 0.5)
}

struct AudioSettings: SettingsCatalog {
    @Setting var volume: Double
    @Setting var muted: Bool
    let notASetting = "ignored"

    init(store: DefaultsStore) {
        _volume = Setting(
            .catalogVolume, title: "Volume", info: "How loud", range: 0...1, step: 0.1,
            format: { "\(Int(($0 * 100).rounded())) %" }, store: store)
        _muted = Setting(wrappedValue: false, "catalog.muted", title: "Muted", store: store)
    }
}

struct AppSettings: SettingsCatalog {
    @Setting var theme: Theme
    @Setting var nickname: String?
    let audio: AudioSettings  // a nested catalog

    init(store: DefaultsStore) {
        _theme = Setting(.catalogTheme, title: "Theme", info: "Colors of every window", store: store)
        _nickname = Setting("catalog.nickname", title: "Nickname", store: store)
        audio = AudioSettings(store: store)
    }
}

class BaseSettings: SettingsCatalog {
    @Setting var first: Int
    init(store: DefaultsStore) { _first = Setting(wrappedValue: 1, "catalog.first", store: store) }
}

final class DerivedSettings: BaseSettings {
    @Setting var second: String
    override init(store: DefaultsStore) {
        _second = Setting(wrappedValue: "two", "catalog.second", store: store)
        super.init(store: store)
    }
}

@Suite struct CatalogTests {
    @Test func listsEverySettingWithItsMetadataInOrder() {
        let store = DefaultsStore.inMemory()
        let settings = AppSettings(store: store)
        settings.theme = .dark
        settings.audio.$volume.increase()

        let catalog = settings.catalog
        #expect(catalog.map(\.key) == ["catalog.theme", "catalog.nickname", "catalog.volume", "catalog.muted"])
        #expect(
            catalog[0]
                == SettingDescription(
                    key: "catalog.theme", swiftType: "Theme", title: "Theme", info: "Colors of every window",
                    formattedDefaultValue: "system", formattedValue: "dark", hasStoredValue: true, kind: .value))
        #expect(
            catalog[1]
                == SettingDescription(
                    key: "catalog.nickname", swiftType: "Optional<String>", title: "Nickname", info: "",
                    formattedDefaultValue: "nil", formattedValue: "nil", hasStoredValue: false, kind: .value))
        #expect(
            catalog[2]
                == SettingDescription(
                    key: "catalog.volume", swiftType: "Double", title: "Volume", info: "How loud",
                    formattedDefaultValue: "50 %", formattedValue: "60 %", hasStoredValue: true,
                    kind: .number(min: "0 %", max: "100 %", step: "0.1")))
        #expect(catalog[3].kind == .flag)
        #expect(catalog[3].formattedValue == "false")
    }

    @Test func aClassListsItsSuperclassSettingsFirst() {
        let catalog = DerivedSettings(store: .inMemory()).catalog
        #expect(catalog.map(\.key) == ["catalog.first", "catalog.second"])
        #expect(catalog.map(\.swiftType) == ["Int", "String"])
    }

    @Test func unreadableStoredDataListsAsTheDefaultAndIsReported() throws {
        let suite = try TestSuite()
        suite.plant("chartreuse", forKey: "catalog.theme")
        let before = try suite.fileBytes()
        let (catalog, reported) = ReportedErrors.during { AppSettings(store: suite.store).catalog }
        #expect(catalog.first?.formattedValue == "system")
        #expect(catalog.first?.hasStoredValue == true, "something is stored, though it cannot be read")
        #expect(reported.map(\.key) == ["catalog.theme"])
        #expect(try suite.fileBytes() == before)
    }

    @Test func settingsWithOptionsListThemAsAChoice() {
        enum Size: String, CaseIterable, DefaultsValueConvertible { case small, medium, large }
        struct Screen: SettingsCatalog {
            @Setting var size: Size
            @Setting var quality: Int
            @Setting var name: String
        }
        let store = DefaultsStore.inMemory()
        let screen = Screen(
            size: Setting(
                wrappedValue: .medium, "catalog.size", title: "Size", format: { $0.rawValue.capitalized },
                store: store),
            quality: Setting(
                wrappedValue: 720, "catalog.quality", title: "Quality", options: [240, 480, 720, 1080],
                format: { "\($0)p" }, store: store),
            name: Setting(wrappedValue: "Ada", "catalog.name", title: "Name", store: store))
        screen.$size.increase()
        let catalog = screen.catalog
        #expect(
            catalog[0]
                == SettingDescription(
                    key: "catalog.size", swiftType: "Size", title: "Size", info: "", formattedDefaultValue: "Medium",
                    formattedValue: "Large", hasStoredValue: true,
                    kind: .choice(options: [
                        .init(value: .string("small"), title: "Small", isSelected: false),
                        .init(value: .string("medium"), title: "Medium", isSelected: false),
                        .init(value: .string("large"), title: "Large", isSelected: true),
                    ])))
        #expect(
            catalog[1].kind
                == .choice(options: [
                    .init(value: .integer(240), title: "240p", isSelected: false),
                    .init(value: .integer(480), title: "480p", isSelected: false),
                    .init(value: .integer(720), title: "720p", isSelected: true),
                    .init(value: .integer(1080), title: "1080p", isSelected: false),
                ]))
        #expect(catalog[1].formattedDefaultValue == "720p")
        #expect(catalog[2].kind == .value, "a setting free to hold any value is no choice")
    }
}
