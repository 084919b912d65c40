import ArgumentParser
import Foundation
import TypedDefaults
import TypedDefaultsToolSupport

struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Replace a suite's values with those of a file.",
        discussion: """
            Reads a property list (XML, binary or OpenStep) or the JSON that export writes. The suite's \
            values are replaced in one atomic write (--merge keeps keys the file does not name). A \
            file that does not parse, or a value the published schema does not allow, writes nothing, \
            nor does a file that would change a key an administrator locked (or, without --merge, \
            remove the user's value of one), or give a value outside the bounds they set.

            Examples:
              typed-defaults import com.example.app backup.plist
              typed-defaults import com.example.app - < backup.json
            """)

    @Argument(help: "The suite.") var suite: String
    @Argument(help: "The file, or - for standard input.") var file = "-"
    @Flag(help: "Keep the keys the file does not name.") var merge = false
    @Flag(help: "Import even values the schema does not allow.") var force = false

    func run() throws {
        let store = try Suites.store(suite)
        let data = try read()
        let imported: [DefaultsStoredKey: DefaultsStoredValue]
        do {
            imported = try ImportFile.values(in: data)
        } catch {
            throw ToolError(error.description)
        }
        // Even with --force: a secret is never written in the suite.
        let schema = try SecretKeys.schema(of: store, writing: "a key of the file")
        if let secret = imported.keys.sorted().first(where: { SecretKeys.isSecret($0.name, in: schema) }) {
            throw SecretKeys.refusal(secret.name, "the file's value for it was not imported; nothing was written")
        }
        if !force, let schema {
            for (key, value) in imported.sorted(by: { $0.key < $1.key }) {
                if let problem = schema[key.name]?.problem(with: value) {
                    throw ToolError("cannot import \(key): \(problem); nothing was written")
                }
            }
        }
        try Suites.edit(store) { values in
            if !merge { values.removeAll() }
            values.merge(imported) { _, new in new }
        }
    }

    /// The largest file imported: 64 MiB, what a suite's file may hold. Read in pieces, so a
    /// file that never ends (`/dev/zero`, a pipe that keeps writing) stops there.
    static let limit = 64 << 20

    private func read() throws -> Data {
        let handle: FileHandle
        if file == "-" {
            handle = .standardInput
        } else {
            do {
                handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: file))
            } catch {
                throw ToolError("cannot read \(file): \(error.localizedDescription)")
            }
        }
        do {
            return try handle.readToEnd(within: Self.limit)
        } catch .unreadable(let error) {
            throw ToolError("cannot read \(file): \(error.localizedDescription)")
        } catch .tooLarge {
            throw ToolError(
                "cannot import \(file): it holds more than 64 MiB, more than a suite may; nothing was written")
        }
    }
}
