import Foundation

/// A suite's contents in the form the file's user keeps them: what ``PlistFile`` parses a
/// file's root dictionary into, writes back, and remembers between reads. The engine keeps its
/// own keys and boxed objects; the file needs only their entries.
package protocol SuiteFileValues: Sendable {
    /// The contents of a file whose root dictionary holds `fileEntries`.
    init(fileEntries: [PropertyListKey: Any])

    /// The root dictionary's entries, to be written.
    var fileEntries: [(key: PropertyListKey, value: Any)] { get }

    /// Whether there are no entries: an empty suite's plain file is removed.
    var isEmpty: Bool { get }
}

/// Why a suite file could not be read or written. The engine reports each as the
/// `DefaultsError` case of the same name.
package enum SuiteFileError: Error {
    /// The file did not parse, and was moved to `preservedAt` (`nil`: it could not be moved).
    case corruptFile(path: String, preservedAt: String?, underlying: any Error)
    /// The file did not parse, and was left as it is.
    case unparsableFile(path: String, underlying: any Error)
    /// The file could not be read at all: permissions, an I/O error, no regular file.
    case readFailed(path: String, underlying: any Error)
    /// The file could not be written, or its lock not taken.
    case writeFailed(path: String, underlying: any Error)
}

/// A replacement whose new contents are in place, renamed over the old file, but whose folder
/// the device did not confirm it synced: a power cut may still bring back the old contents.
package struct UnconfirmedRename: Error, CustomStringConvertible {
    /// Why the folder's sync failed.
    package let underlying: any Error

    package var description: String { "\(underlying)" }
}
