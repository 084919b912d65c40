#if Macros
    import SwiftCompilerPlugin
    import SwiftSyntaxMacros

    @main struct TypedDefaultsMacrosPlugin: CompilerPlugin {
        let providingMacros: [any Macro.Type] = [
            ObservableSettingsMacro.self, StoredSettingMacro.self, SettingMarkerMacro.self,
        ]
    }
#else
    // Without the Macros trait there is no swift-syntax to build the plugin with; the library's
    // declarations say the trait is needed.
    @main enum TypedDefaultsMacrosPlugin {
        static func main() {}
    }
#endif
