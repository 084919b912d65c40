import Foundation
import TypedDefaults
import TypedDefaultsSchema

enum Theme: String, CaseIterable, DefaultsValueConvertible {
    case light, dark, system
}

struct WindowLayout: Codable, DefaultsValueConvertible {
    var width: Int
    var height: Int
    var sidebarVisible: Bool
}

extension DefaultsKeys {
    static let launchCount = DefaultsKey<Int>("launchCount", default: 0)
    static let userName = DefaultsKey<String?>("userName")
    static let theme = DefaultsKey<Theme>("theme", default: .system)
    static let volume = DefaultsKey<Double>("volume", default: 0.5)
    static let windowLayout = DefaultsKey<WindowLayout>(
        "windowLayout", default: WindowLayout(width: 800, height: 600, sidebarVisible: true))
    static let recentFiles = DefaultsKey<[URL]>("recentFiles", default: [])
}

/// The demo's settings, stored in a suite of their own and listed through their catalog.
struct DemoSettings: SettingsCatalog {
    static let suiteName = "dev.typeddefaults.settings-demo"

    @Setting var launchCount: Int
    @Setting var userName: String?
    @Setting var theme: Theme
    @Setting var volume: Double
    @Setting var windowLayout: WindowLayout
    @Setting var recentFiles: [URL]

    init(store: DefaultsStore) {
        _launchCount = Setting(.launchCount, title: "Launches", info: "How many times the demo ran", store: store)
        _userName = Setting(.userName, title: "Name", store: store)
        // An enum's cases are the setting's options: `--next-theme` steps through them, the
        // listing names them, and the tool refuses a theme that is none of them.
        _theme = Setting(.theme, title: "Theme", store: store)
        _volume = Setting(
            .volume, title: "Volume", range: 0...1, step: 0.1, format: { "\(Int(($0 * 100).rounded()))%" },
            store: store)
        _windowLayout = Setting(.windowLayout, title: "Window", store: store)
        _recentFiles = Setting(
            .recentFiles, title: "Recent files", info: "Five at most",
            format: { $0.isEmpty ? "none" : $0.map(\.path).joined(separator: ", ") }, store: store)
    }

    /// Removes every stored value, so each setting shows its default again.
    func resetAll() {
        $launchCount.property.reset()
        $userName.property.reset()
        $theme.property.reset()
        $volume.property.reset()
        $windowLayout.property.reset()
        $recentFiles.property.reset()
    }

    /// One line per setting, from the catalog: key, value, whether it is stored, and its title.
    var listing: [(key: String, line: String)] {
        catalog.map { setting in
            let source = setting.hasStoredValue ? "stored" : "default"
            var line = "\(setting.key) = \(setting.formattedValue) (\(source)) · \(setting.title)"
            switch setting.kind {
            case .number(let min, let max, _): line += ", \(min) to \(max)"
            case .choice(let options): line += ", one of \(options.map(\.title).joined(separator: ", "))"
            case .flag, .value: break
            }
            if !setting.info.isEmpty { line += ": \(setting.info)" }
            return (setting.key, line)
        }
    }
}
