import Foundation

// An administrator's layer for a suite kept through `UserDefaults`. On Linux it is the same
// files as for the engine's own plist files. On Apple platforms a configuration profile's
// forced keys lock, with the value it forces, and an app's managed configuration (iOS, from a
// device management server) gives the administrator's defaults. No CI here runs the Apple side:
// TestPackages/AppleBranches compiles it.

extension AdministrationSource {
    /// Where the administrator's layer of the suite named `suiteName` comes from on this platform.
    static func platform(_ suiteName: String) -> AdministrationSource? {
        #if canImport(Darwin)
            return .given(ManagedLayer.managedPreferences(suite: suiteName))
        #else
            return .files(suite: suiteName)
        #endif
    }
}

#if canImport(Darwin)
    extension ManagedLayer {
        /// What a label names as the source of an Apple platform's managed value.
        static let configurationProfile = "a configuration profile"
        static let managedAppConfiguration = "the managed app configuration (com.apple.configuration.managed)"

        /// A suite's forced keys, asked of `UserDefaults` key by key (a profile's keys cannot be
        /// listed), and the managed app configuration's values as administrator's defaults.
        static func managedPreferences(suite: String) -> ManagedLayer {
            var layer = ManagedLayer()
            let domain = SharedDefaults(UserDefaults(suiteName: suite) ?? .standard)
            if let configuration = UserDefaults.standard.dictionary(forKey: "com.apple.configuration.managed") {
                for (key, value) in configuration {
                    layer.defaults[DefaultsStoredKey(key)] = (StoredObject(value), managedAppConfiguration)
                }
            }
            layer.perKey = { key in
                guard domain.defaults.objectIsForced(forKey: key.name) else { return nil }
                return ManagedEntry(
                    lockedBy: configurationProfile,
                    administratorDefault: domain.defaults.object(forKey: key.name).map(StoredObject.init),
                    defaultSource: configurationProfile)
            }
            return layer
        }
    }
#endif
