import Foundation
import TypedDefaults
import TypedDefaultsStorage

/// A published schema's file: JSON, documented in the article "The command line and schemas".
///
/// ```json
/// {
///     "format": "typed-defaults schema",
///     "version": 1,
///     "suite": "com.example.app",
///     "keys": [
///         {
///             "name": "fontSize", "swiftType": "Int", "title": "Font size", "info": "",
///             "valueType": {"kind": "integer", "lowest": -9223372036854775808, "highest": 9223372036854775807},
///             "default": 12, "formattedDefault": "12",
///             "range": {"min": 8, "max": 72, "step": 2}
///         },
///         {
///             "name": "theme", "swiftType": "Theme", "title": "Theme", "info": "",
///             "valueType": {"kind": "string"}, "default": "system", "formattedDefault": "System",
///             "options": [{"value": "light", "title": "Light"}, {"value": "dark", "title": "Dark"},
///                         {"value": "system", "title": "System"}]
///         }
///     ]
/// }
/// ```
///
/// Values (`default`, `range`, `options`) are in `DefaultsStoredValue`'s JSON form. A reader ignores
/// members it does not know, so later versions may add some; it refuses a `version` it does not
/// read.
enum SchemaFile {
    static let format = "typed-defaults schema"

    struct Problem: Error, CustomStringConvertible {
        let description: String
    }

    static func write(_ schema: DefaultsSchema, to file: URL) throws(DefaultsError) {
        let data = Data(text(schema).utf8)
        // Published at every launch: rewritten only when it changes, so watchers stay quiet.
        if case .success(let current?) = FileBytes.contents(of: file.path), current == data { return }
        do {
            DurableFile.makeFolder(file.deletingLastPathComponent(), mode: 0o755)
            // A temporary file synced and renamed over the schema (and over a symlink planted
            // there, never through it): after a power cut, the old schema or the new one.
            try DurableFile.replace(file, with: data, newFileMode: 0o644)
        } catch {
            throw .writeFailed(path: file.path, underlying: DefaultsUnconfirmedWrite.reported(error))
        }
    }

    static func read(_ file: URL) throws(DefaultsError) -> DefaultsSchema? {
        let data: Data
        switch FileBytes.contents(of: file.path) {
        case .success(nil): return nil
        case .success(let bytes?): data = bytes
        case .failure(let error): throw .readFailed(path: file.path, underlying: error)
        }
        do {
            return try schema(from: data)
        } catch {
            throw .unparsableFile(path: file.path, underlying: error)
        }
    }

    /// The file's text for `schema`, as ``write(_:to:)`` writes it.
    static func text(_ schema: DefaultsSchema) -> String {
        JSONText.write(json(schema), pretty: true) + "\n"
    }

    /// The schema a file's bytes hold, read without I/O (a fuzz target calls it with any bytes).
    static func schema(from data: Data) throws -> DefaultsSchema {
        guard let text = String(data: data, encoding: .utf8) else { throw Problem(description: "not UTF-8") }
        return try schema(from: try JSONText.parse(text))
    }

    // MARK: Writing

    private static func json(_ schema: DefaultsSchema) -> JSONText.Value {
        .object([
            .init("format", .string(format)),
            .init("version", .number(text: "\(DefaultsSchema.formatVersion)", isInteger: true)),
            .init("suite", .string(schema.suite)),
            .init("keys", .array(schema.keys.map(json))),
        ])
    }

    private static func json(_ key: DefaultsSchema.Key) -> JSONText.Value {
        var members: [JSONText.Member] = [
            .init("name", .string(key.name)),
            .init("swiftType", .string(key.swiftType)),
            .init("title", .string(key.title)),
            .init("info", .string(key.info)),
            .init("valueType", json(key.valueType)),
        ]
        if let defaultValue = key.defaultValue { members.append(.init("default", defaultValue.jsonValue)) }
        members.append(.init("formattedDefault", .string(key.formattedDefaultValue)))
        if let range = key.range {
            members.append(
                .init(
                    "range",
                    .object([
                        .init("min", range.min.jsonValue), .init("max", range.max.jsonValue),
                        .init("step", range.step.jsonValue),
                    ])))
        }
        if let options = key.options {
            members.append(
                .init(
                    "options",
                    .array(
                        options.map {
                            .object([.init("value", $0.value.jsonValue), .init("title", .string($0.title))])
                        }
                    )))
        }
        if let shape = key.jsonShape { members.append(.init("jsonShape", json(shape))) }
        if key.isSecret { members.append(.init("secret", .bool(true))) }
        return .object(members)
    }

    private static func json(_ type: DefaultsSchema.ValueType) -> JSONText.Value {
        func kind(_ name: String, _ more: JSONText.Member...) -> JSONText.Value {
            .object([.init("kind", .string(name))] + more)
        }
        switch type {
        case .any: return kind("any")
        case .string: return kind("string")
        case .json: return kind("json")
        case .integer(let lowest, let highest):
            return kind(
                "integer", .init("lowest", .number(text: "\(lowest)", isInteger: true)),
                .init("highest", .number(text: "\(highest)", isInteger: true)))
        case .real: return kind("float")
        case .boolean: return kind("boolean")
        case .date: return kind("date")
        case .data: return kind("data")
        case .keyedArchive(let className): return kind("keyedArchive", .init("class", .string(className)))
        case .array(let element): return kind("array", .init("element", json(element)))
        case .dictionary(let value): return kind("dictionary", .init("value", json(value)))
        case .optional(let wrapped): return kind("optional", .init("wrapped", json(wrapped)))
        }
    }

    // MARK: Reading

    private static func schema(from json: JSONText.Value) throws -> DefaultsSchema {
        let root = try Object(json, "the file")
        guard try root.string("format") == format else { throw Problem(description: "not a \(format) file") }
        let version = try root.integer("version")
        guard version == DefaultsSchema.formatVersion else {
            throw Problem(description: "version \(version); this library reads version \(DefaultsSchema.formatVersion)")
        }
        let keys = try root.array("keys").enumerated().map { index, entry in
            try key(from: try Object(entry, "keys[\(index)]"))
        }
        // One declaration per key, as publishing writes: readers that took the first of two
        // (a plain one before a secret) would write a secret in clear.
        var declared = Set<DefaultsStoredKey>()
        for (index, key) in keys.enumerated() where !declared.insert(DefaultsStoredKey(key.name)).inserted {
            throw Problem(description: "keys[\(index)] declares \(String(reflecting: key.name)) again")
        }
        return DefaultsSchema(suite: try root.string("suite"), keys: keys)
    }

    private static func key(from object: Object) throws -> DefaultsSchema.Key {
        let range = try object.optional("range").map { json -> DefaultsSchema.Range in
            let range = try Object(json, "\(object.path).range")
            return DefaultsSchema.Range(
                min: try range.value("min"), max: try range.value("max"), step: try range.value("step"))
        }
        let options = try object.optional("options").map { _ in
            try object.array("options").enumerated().map { index, entry in
                let option = try Object(entry, "\(object.path).options[\(index)]")
                return DefaultsSchema.Option(value: try option.value("value"), title: try option.string("title"))
            }
        }
        return DefaultsSchema.Key(
            name: try object.string("name"), swiftType: try object.string("swiftType"),
            valueType: try valueType(from: try Object(try object.member("valueType"), "\(object.path).valueType")),
            title: try object.string("title"), info: try object.string("info"),
            defaultValue: try object.optional("default").map { try DefaultsStoredValue($0) },
            formattedDefaultValue: try object.string("formattedDefault"), range: range, options: options,
            jsonShape: try object.optional("jsonShape").map { try shape(from: $0, at: "\(object.path).jsonShape") },
            isSecret: try object.optional("secret").map { _ in try object.boolean("secret") } ?? false)
    }

    private static func valueType(from object: Object) throws -> DefaultsSchema.ValueType {
        func nested(_ name: String) throws -> DefaultsSchema.ValueType {
            try valueType(from: try Object(try object.member(name), "\(object.path).\(name)"))
        }
        switch try object.string("kind") {
        case "any": return .any
        case "string": return .string
        case "json": return .json
        case "integer":
            guard case .integer(let lowest) = try object.value("lowest"),
                let highest = try object.value("highest").unsignedValue
            else { throw Problem(description: "\(object.path): integer bounds are not integers") }
            return .integer(lowest: lowest, highest: highest)
        case "float": return .real
        case "boolean": return .boolean
        case "date": return .date
        case "data": return .data
        case "keyedArchive": return .keyedArchive(className: try object.string("class"))
        case "array": return .array(of: try nested("element"))
        case "dictionary": return .dictionary(of: try nested("value"))
        case "optional": return .optional(try nested("wrapped"))
        case let other: throw Problem(description: "\(object.path): unknown kind \(String(reflecting: other))")
        }
    }

    /// An object of the file, read member by member with errors that say where.
    private struct Object {
        let members: [String: JSONText.Value]
        let path: String

        init(_ json: JSONText.Value, _ path: String) throws {
            guard case .object(let members) = json else { throw Problem(description: "\(path) is not an object") }
            self.members = Dictionary(members.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
            self.path = path
        }

        func optional(_ name: String) -> JSONText.Value? {
            members[name]
        }

        func member(_ name: String) throws -> JSONText.Value {
            guard let value = members[name] else { throw Problem(description: "\(path) has no \(name)") }
            return value
        }

        func string(_ name: String) throws -> String {
            guard case .string(let text) = try member(name) else {
                throw Problem(description: "\(path).\(name) is not a string")
            }
            return text
        }

        func boolean(_ name: String) throws -> Bool {
            guard case .bool(let value) = try member(name) else {
                throw Problem(description: "\(path).\(name) is not a boolean")
            }
            return value
        }

        func integer(_ name: String) throws -> Int64 {
            guard case .integer(let number) = try value(name) else {
                throw Problem(description: "\(path).\(name) is not an integer")
            }
            return number
        }

        func array(_ name: String) throws -> [JSONText.Value] {
            guard case .array(let elements) = try member(name) else {
                throw Problem(description: "\(path).\(name) is not an array")
            }
            return elements
        }

        func value(_ name: String) throws -> DefaultsStoredValue {
            do {
                return try DefaultsStoredValue(try member(name))
            } catch let error as DefaultsStoredValue.FormatError {
                throw Problem(description: "\(path).\(name): \(error)")
            }
        }
    }
}

extension DefaultsStoredValue {
    /// The value of a non-negative integer, whichever case holds it.
    fileprivate var unsignedValue: UInt64? {
        switch self {
        case .integer(let number): UInt64(exactly: number)
        case .unsignedInteger(let number): number
        default: nil
        }
    }
}
