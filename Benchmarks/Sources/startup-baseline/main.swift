import Foundation

// The floor `typed-defaults read SUITE KEY` is measured against (startup.sh): a minimal
// Foundation program that reads the same key of the same suite with plain `UserDefaults` and
// prints it. Whole processes, so start-up, Foundation and the suite's file read are in both.
let arguments = CommandLine.arguments
guard arguments.count == 3, let defaults = UserDefaults(suiteName: arguments[1]) else {
    FileHandle.standardError.write(Data("usage: startup-baseline SUITE KEY\n".utf8))
    exit(64)
}
guard let value = defaults.object(forKey: arguments[2]) else {
    FileHandle.standardError.write(Data("startup-baseline: no \(arguments[2]) in \(arguments[1])\n".utf8))
    exit(1)
}
print(value)
