import Foundation
import TypedDefaults

/// A failure reported in one line, with exit status 1 (64 for a usage error); nothing was
/// written.
struct ToolError: Error, CustomStringConvertible {
    let description: String
    /// The command line's shape is wrong (a value missing, too many), not what it names.
    var isUsage = false

    init(_ description: String) {
        self.description = description
    }

    /// A command line of the wrong shape, as ArgumentParser reports one: exit status 64.
    static func usage(_ description: String) -> ToolError {
        var error = ToolError(description)
        error.isUsage = true
        return error
    }

    /// What the library's error means to someone at a shell.
    init(_ error: DefaultsError) {
        switch error {
        case .invalidSuiteName(let name, let reason):
            self.init("\(String(reflecting: name)) is not a suite name: \(reason)")
        case .writeFailed(let path, let underlying as DefaultsUnconfirmedWrite):
            // Written, but maybe not on the device: running the command again syncs it.
            self.init("wrote \(path), but \(underlying); run the command again to be sure it is kept")
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
