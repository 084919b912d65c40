import Foundation
import TypedDefaults

enum Theme: String, CaseIterable, DefaultsValueConvertible {
    case light, dark, system
}

struct WindowLayout: Codable, DefaultsValueConvertible {
    var width: Int
    var height: Int
    var sidebarVisible: Bool
}

/// The demo's settings, stored in a suite of their own.
struct DemoSettings {
    static let suiteName = "dev.typeddefaults.settings-demo"

    @UserDefault var launchCount: Int
    @UserDefault var userName: String?
    @UserDefault var theme: Theme
    @UserDefault var windowLayout: WindowLayout
    @UserDefault var recentFiles: [URL]

    init(store: DefaultsStore) {
        _launchCount = UserDefault(wrappedValue: 0, "launchCount", store: store)
        _userName = UserDefault("userName", store: store)
        _theme = UserDefault(wrappedValue: .system, "theme", store: store)
        _windowLayout = UserDefault(
            wrappedValue: WindowLayout(width: 800, height: 600, sidebarVisible: true), "windowLayout", store: store)
        _recentFiles = UserDefault(wrappedValue: [], "recentFiles", store: store)
    }

    /// Removes every stored value, so each setting shows its default again.
    func resetAll() {
        $launchCount.reset()
        $userName.reset()
        $theme.reset()
        $windowLayout.reset()
        $recentFiles.reset()
    }

    /// A value as a person would write it: `Ada` rather than `Optional("Ada")`.
    private func describe(_ value: Any) -> String {
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .optional else { return String(describing: value) }
        return mirror.children.first.map { describe($0.value) } ?? "nil"
    }

    /// One line per setting: key, value, and whether it is stored or the default.
    var listing: [(key: String, line: String)] {
        func line<Value>(_ wrapper: UserDefault<Value>) -> (key: String, line: String) {
            let source = wrapper.hasStoredValue ? "stored" : "default"
            return (wrapper.key, "\(wrapper.key) = \(describe(wrapper.wrappedValue)) (\(source))")
        }
        return [line($launchCount), line($userName), line($theme), line($windowLayout), line($recentFiles)]
    }
}
