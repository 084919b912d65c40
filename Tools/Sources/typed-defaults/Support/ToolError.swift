import Foundation
import TypedDefaults

/// A failure reported in one line, with exit status 1; nothing was written.
struct ToolError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }

    /// What the library's error means to someone at a shell.
    init(_ error: DefaultsError) {
        switch error {
        case .invalidSuiteName(let name, let reason):
            self.init("\(String(reflecting: name)) is not a suite name: \(reason)")
        case .writeFailed(let path, let underlying):
            // The library keeps a program's changes for its next flush; this process ends now.
            self.init("cannot write \(path): \(underlying); nothing was written")
        default:
            self.init(error.description)
        }
    }
}

/// Standard output and error, written as each line is ready (a watcher's reader must not wait).
enum Output {
    static func line(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    static func error(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}
