import Foundation

extension DefaultsStore {
    /// Names the standard suite for the whole program, so that ``standard`` keeps its settings
    /// when the executable is renamed: without a bundle identifier, the system names that suite
    /// after the executable (`~/.config/App.plist` on Linux), and a program copied as `App2`
    /// starts empty. Call it first in `main`, before anything uses ``standard``:
    ///
    /// ```swift
    /// try DefaultsStore.nameStandardSuite("com.example.app")
    /// ```
    ///
    /// A program with a bundle identifier (an app on Apple platforms) keeps its own domain, which
    /// `@AppStorage` and the system's `defaults` read, and the call changes nothing. Plain
    /// `UserDefaults.standard` is not renamed: reach the suite through the store.
    ///
    /// - Parameter suiteName: a plain file name, as ``init(suiteName:durability:)`` takes.
    /// - Throws: ``DefaultsError/invalidSuiteName(_:reason:)`` for a name that store refuses, or
    ///   when ``standard`` is already in use under another name.
    public static func nameStandardSuite(_ suiteName: String) throws(DefaultsError) {
        if let reason = SuiteName.problem(with: suiteName) { throw .invalidSuiteName(suiteName, reason: reason) }
        guard Bundle.main.bundleIdentifier == nil else { return }
        let inUse = StandardSuite.state.withLock { state -> String? in
            if let made = state.madeAs, made != suiteName { return made }
            state.named = suiteName
            return nil
        }
        if let inUse {
            throw .invalidSuiteName(
                suiteName,
                reason: "DefaultsStore.standard is already in use as \"\(inUse)\"; name it before anything uses it")
        }
    }
}

/// What ``DefaultsStore/standard`` is made of: the suite the program named, else the one
/// `UserDefaults.standard` keeps.
enum StandardSuite {
    struct State {
        /// The name ``DefaultsStore/nameStandardSuite(_:)`` was given.
        var named: String?
        /// The suite's name once ``DefaultsStore/standard`` was made.
        var madeAs: String?
    }

    static let state = Locked(State())

    static func make() -> DefaultsStore {
        let named = state.withLock { state -> String? in
            let named = Bundle.main.bundleIdentifier == nil ? state.named : nil
            state.madeAs = named ?? PreferencesFolder.standardSuiteName
            return named
        }
        // The name was checked when it was given.
        if let named, let store = try? DefaultsStore(suiteName: named) { return store }
        return DefaultsStore(UserDefaults.standard)
    }
}
