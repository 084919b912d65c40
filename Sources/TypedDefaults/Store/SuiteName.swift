import Foundation
import TypedDefaultsStorage

extension UserDefaults {
    /// Opens the suite named `name`, refusing a name that is not a plain file name.
    ///
    /// On Linux a suite name becomes a file path, unchecked: `UserDefaults(suiteName: "../escape")`
    /// writes `~/.config/../escape.plist`. This refuses names that are empty, contain a path
    /// separator or `..`, or a NUL character, longer than 200 UTF-8 bytes (the longest whose
    /// lock, temporary and preserved files' names fit in 255 bytes), and names that Foundation
    /// itself refuses.
    ///
    /// Use it where code needs the `UserDefaults` object itself, such as another library that
    /// takes one; to read and write the suite with this library, `try`
    /// ``DefaultsStore/init(suiteName:durability:)`` checks the name by the same rules.
    ///
    /// ```swift
    /// let defaults = try UserDefaults.suite(named: profileName)
    /// ```
    ///
    /// - Throws: ``DefaultsError/invalidSuiteName(_:reason:)``.
    public static func suite(named name: String) throws(DefaultsError) -> UserDefaults {
        if let reason = SuiteName.problem(with: name) {
            throw .invalidSuiteName(name, reason: reason)
        }
        guard let defaults = UserDefaults(suiteName: name) else {
            throw .invalidSuiteName(name, reason: "Foundation refuses it as a suite name")
        }
        return defaults
    }
}

enum SuiteName {
    /// The longest name, in UTF-8 bytes, whose files all have names of at most 255 bytes:
    /// `.<name>.plist.<pid>.<random>.tmp` and `<name>.plist.corrupt-<time>-3` are the longest.
    static let maximumLength = 200

    /// Why `name` cannot be used as a suite name, or `nil` when it can.
    static func problem(with name: String) -> String? {
        if name.isEmpty { return "it is empty" }
        if name.contains("/") || name.contains("\\") { return "it contains a path separator" }
        if name.contains("..") { return "it contains \"..\"" }
        if name.contains("\0") { return "it contains a NUL character" }
        if name.utf8.count > maximumLength {
            return "it is \(name.utf8.count) bytes long; at most \(maximumLength) leave room for the suffixes of "
                + "its file names (.plist.lock, .plist.corrupt-<time>) within the 255-byte limit of a file name"
        }
        return nil
    }
}

extension PreferencesFolder {
    /// The suite a corelibs `UserDefaults` object reads, from its private `suite` property
    /// (`nil` there means the standard suite). `nil` when it cannot be found out.
    static func suiteName(of defaults: UserDefaults) -> String? {
        // A name the store cannot manage as a file (too long for its lock and temporary files'
        // names, a path) is left to UserDefaults itself.
        guard let name = anySuiteName(of: defaults), SuiteName.problem(with: name) == nil else { return nil }
        return name
    }
}
