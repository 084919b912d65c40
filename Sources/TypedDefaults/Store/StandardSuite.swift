import Foundation
import TypedDefaultsStorage

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
    /// - Throws: ``DefaultsError/invalidSuiteName(_:reason:)`` for a name that store refuses,
    ///   when ``standard`` is already in use under another name, or when the program already
    ///   named it otherwise: two parts of a program that disagree would otherwise lose one's
    ///   settings silently. Naming it again with the same name does nothing.
    public static func nameStandardSuite(_ suiteName: String) throws(DefaultsError) {
        if let reason = SuiteName.problem(with: suiteName) { throw .invalidSuiteName(suiteName, reason: reason) }
        guard Bundle.main.bundleIdentifier == nil else { return }
        let refusal = StandardSuite.state.withLock { state -> String? in
            if let made = state.madeAs, made != suiteName {
                return "DefaultsStore.standard is already in use as \"\(made)\"; name it before anything uses it"
            }
            if let named = state.named, named != suiteName {
                return "the standard suite is already named \"\(named)\"; a program names it once"
            }
            state.named = suiteName
            return nil
        }
        if let refusal { throw .invalidSuiteName(suiteName, reason: refusal) }
    }
}

extension DefaultsStore {
    /// The standard suite's name: the one ``standard`` was made as, else the one it will be made
    /// as. What other stores of a program's settings (its keyring items) file them under.
    package static var standardSuiteName: String {
        let named = StandardSuite.state.withLock { $0.madeAs ?? $0.named }
        return Bundle.main.bundleIdentifier ?? named ?? PreferencesFolder.standardSuiteName
    }

    /// What the keyring items of this suite's secrets are filed under: the suite's name, as its
    /// file names it (the suite's own in an isolated test too), else the standard suite's name
    /// (a store in memory, or one `UserDefaults` keeps, whose name the store does not know).
    package var keyringService: String {
        ownState.fileURL?.deletingPathExtension().lastPathComponent ?? Self.standardSuiteName
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
        guard let named else { return DefaultsStore(UserDefaults.standard) }
        do {
            return try DefaultsStore(suiteName: named)
        } catch {
            // The name was checked when it was given; a platform that still refuses it (Apple's
            // `UserDefaults(suiteName:)` refuses some names) is told, not hidden: after this
            // initializer, so that a handler that uses `standard` does not re-enter it.
            state.withLock { $0.madeAs = PreferencesFolder.standardSuiteName }
            DispatchQueue.global().async { DefaultsError.report(error) }
            return DefaultsStore(UserDefaults.standard)
        }
    }
}
