import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The command line's arguments, read from `argv` before anything reads
/// `CommandLine.arguments`, and then hidden from it: corelibs' `UserDefaults` reads a process's
/// `-key value` arguments as settings that override every suite's, and `--port 8080` is no
/// setting. Only the pointers in `argv` change, so `ps` still shows the arguments.
func takeArguments() -> [String] {
    let count = Int(CommandLine.argc)
    guard count > 1 else { return [] }
    let arguments = (1..<count).compactMap { CommandLine.unsafeArgv[$0].map { String(cString: $0) } }
    // One empty string, kept for the process's life as `argv`'s strings are.
    if let empty = strdup("") {
        for index in 1..<count { CommandLine.unsafeArgv[index] = empty }
    }
    return arguments
}

do {
    switch try ServeCommand.parse(takeArguments()) {
    case .help:
        print(ServeCommand.help)
    case .serve(let command):
        try command.run()
    }
} catch let error as ServeCommand.UsageError {
    ServeCommand.error("typed-defaults: \(error) (see 'typed-defaults help serve')")
    exit(64)
} catch {
    ServeCommand.error("typed-defaults: \(error)")
    exit(1)
}
