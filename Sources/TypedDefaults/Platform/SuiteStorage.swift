import Foundation

/// How a named suite is kept on this platform.
enum SuiteStorage: Equatable {
    /// In the engine's own plist file, under a lock shared with other processes: on Linux,
    /// where corelibs `UserDefaults` loses other processes' writes (see <doc:Platforms>).
    case plistFile
    /// Through a `UserDefaults` object: on Apple platforms, where it persists safely by itself,
    /// and on Linux when the environment variable `TYPEDDEFAULTS_SUITE_STORAGE` is
    /// `userdefaults`, to run a program's tests on the path Apple platforms take.
    case userDefaults

    /// This process's choice, read once.
    static let current: SuiteStorage = {
        #if canImport(Darwin)
            return .userDefaults
        #else
            guard let value = getenv("TYPEDDEFAULTS_SUITE_STORAGE") else { return .plistFile }
            return String(cString: value) == "userdefaults" ? .userDefaults : .plistFile
        #endif
    }()
}
