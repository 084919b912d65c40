import Foundation

/// Another program on the machine: Python, with its own property-list parser and writer
/// (`plistlib`), which compares keys by their code points as `UserDefaults` does.
enum Python {
    /// Runs `script` with `arguments`; returns its standard output, or throws with its errors.
    static func run(_ script: String, _ arguments: String...) async throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script] + arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do { try process.run() } catch { continuation.resume(throwing: error) }
        }
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        guard status == 0 else {
            let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            throw Failed(description: "python3 exited with \(status): \(message)")
        }
        return printed
    }

    /// The top-level entries of a property-list file as `plistlib` reads them, one line each,
    /// sorted, keys and values in Python's `ascii()` form (`'cafe\u0301' 'two'`), a dictionary
    /// value's entries sorted by key.
    static func entries(of file: URL) async throws -> [String] {
        let script = """
            import plistlib, sys
            with open(sys.argv[1], "rb") as f:
                d = plistlib.load(f)
            for k in sorted(d):
                v = d[k]
                print(ascii(k), ascii(dict(sorted(v.items())) if isinstance(v, dict) else v))
            """
        return try await run(script, file.path).split(separator: "\n").map(String.init)
    }

    struct Failed: Error, CustomStringConvertible {
        let description: String
    }
}

/// Replaces the suite's file as another program would: its entries changed by `change`,
/// written whole to a new file and renamed over the old one.
func rewriteAsAnotherProgram(_ url: URL, _ change: (inout [String: Any]) -> Void) throws {
    var contents: [String: Any] = [:]
    if let data = FileManager.default.contents(atPath: url.path),
        let read = try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any]
    {
        contents = read
    }
    change(&contents)
    let data = try PropertyListSerialization.data(fromPropertyList: contents, format: .binary, options: 0)
    try data.write(to: url, options: .atomic)
}
