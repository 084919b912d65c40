// A settings model on a managed suite, compiled in every configuration (the other test targets
// link this file): the administrator's layer holds through the model's properties.
import Foundation
import Testing
import TypedDefaults
import TypedDefaultsMacros
import TypedDefaultsTestSupport

extension DefaultsAdministration {
    /// The theme locked dark and the font size narrowed, as an administrator's files would.
    nonisolated static var organisation: DefaultsAdministration {
        var administration = DefaultsAdministration(source: "/etc/xdg/typeddefaults-macro-probe.locks")
        administration.lock(DefaultsKey<Theme>("theme", default: .light), to: .dark)
        administration.limit(DefaultsKey<Int>("fontSize", default: 12), to: 8...20)
        return administration
    }
}

@Suite(.isolatedDefaults(administration: .organisation)) struct ManagedModelTests {
    @Test func aLockedPropertyReadsTheAdministratorsValueAndRefusesWrites() {
        let settings = AppSettings()
        #expect(settings.theme == .dark)
        #expect(!settings.$theme.isWritable)
        #expect(settings.$theme.valueSource == .locked(by: "/etc/xdg/typeddefaults-macro-probe.locks"))
        settings.theme = .light
        #expect(settings.theme == .dark)
        #expect(settings.$launchCount.isWritable)
    }

    @Test func aBoundedSettingTakesOnlyValuesInside() {
        let settings = AppSettings()
        #expect(settings.$fontSize.isWritable)
        settings.fontSize = 30
        #expect(settings.fontSize == 12)
        settings.fontSize = 16
        #expect(settings.fontSize == 16 && settings.$fontSize.valueSource == .user)
    }
}
