#if Web
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

    /// Serves the page as the command line says; exits with the status the tool documents.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    func serve(_ arguments: [String]) -> Never {
        do {
            switch try ServeCommand.parse(arguments) {
            case .help:
                print(ServeCommand.help)
            case .serve(let command):
                try command.run()
            }
            exit(0)
        } catch let error as ServeCommand.UsageError {
            ServeCommand.error("typed-defaults: \(error) (see 'typed-defaults help serve')")
            exit(64)
        } catch {
            ServeCommand.error("typed-defaults: \(error)")
            exit(1)
        }
    }

    if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
        serve(takeArguments())
    } else {
        FileHandle.standardError.write(Data("typed-defaults-serve needs macOS 15 or later\n".utf8))
        exit(69)
    }
#else
    import Foundation

    // Built without the Web trait, the server has nothing to serve with: say how to build it.
    FileHandle.standardError.write(
        Data(
            """
            typed-defaults-serve was built without the Web trait. In a clone of TypedDefaults: \
            bash Tools/install.sh --serve (or swift build -c release --traits Web --product \
            typed-defaults-serve); in a package of your own: traits: ["Web"] on the dependency.

            """.utf8))
    exit(69)
#endif
