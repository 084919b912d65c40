import ArgumentParser
import Foundation
import TypedDefaults

struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Replace a suite's values with those of a file.",
        discussion: """
            Reads a property list (XML or binary) or the JSON that export writes. The suite's \
            values are replaced in one atomic write (--merge keeps keys the file does not name). A \
            file that does not parse, or a value the published schema does not allow, writes nothing.

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
        let imported = try Self.values(in: try read())
        if !force, let schema = try Suites.schema(of: store) {
            for (key, value) in imported.sorted(by: { $0.key < $1.key }) {
                if let problem = schema[key]?.problem(with: value) {
                    throw ToolError("cannot import \(key): \(problem); nothing was written")
                }
            }
        }
        try Suites.edit(store) { values in
            if !merge { values.removeAll() }
            values.merge(imported) { _, new in new }
        }
    }

    private func read() throws -> Data {
        if file == "-" { return FileHandle.standardInput.readDataToEndOfFile() }
        do {
            return try Data(contentsOf: URL(fileURLWithPath: file))
        } catch {
            throw ToolError("cannot read \(file): \(error.localizedDescription)")
        }
    }

    /// The values in a file: JSON when its text starts with `{`, else a property list.
    static func values(in data: Data) throws -> [String: DefaultsStoredValue] {
        let name = "the file"
        let firstByte = data.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        let value: DefaultsStoredValue
        if firstByte == UInt8(ascii: "{") {
            guard let text = String(data: data, encoding: .utf8) else { throw ToolError("\(name) is not UTF-8 text") }
            do {
                value = try DefaultsStoredValue(json: text)
            } catch {
                throw ToolError("\(name) does not parse as JSON: \(error)")
            }
        } else {
            let object: Any
            do {
                object = try PropertyListSerialization.propertyList(from: data, format: nil)
            } catch {
                throw ToolError("\(name) does not parse as a property list or JSON")
            }
            guard let parsed = DefaultsStoredValue(propertyListObject: object) else {
                throw ToolError("\(name) holds values a suite cannot store, or nests too deeply")
            }
            value = parsed
        }
        guard case .dictionary(let entries) = value, value.encoding != .explicitNil(depth: 0) else {
            let found = value.kind == .dictionary ? "null" : value.kind == .array ? "an array" : "a \(value.kind)"
            throw ToolError("\(name) holds \(found), not a dictionary of keys")
        }
        return entries
    }
}
