import ArgumentParser
import Foundation
import TypedDefaults
import TypedDefaultsSchema

/// The type a written value is given as; macOS `defaults`' one-dash spellings work too.
enum ValueTypeFlag: String, EnumerableFlag {
    case int, float, bool, string, date, data, url, json

    static func name(for value: Self) -> NameSpecification {
        let names: [String] =
            switch value {
            case .int: ["int", "integer"]
            case .float: ["float", "real"]
            case .bool: ["bool", "boolean"]
            default: [value.rawValue]
            }
        return NameSpecification(names.flatMap { [.customLong($0), .customLong($0, withSingleDash: true)] })
    }

    static func help(for value: Self) -> ArgumentHelp? {
        switch value {
        case .int: "An integer: -5, 18446744073709551615."
        case .float: "A float: 0.5, 1e-3, nan, inf."
        case .bool: "A boolean: true or false (yes/no, 1/0)."
        case .string: "A string, as given (the default without a schema)."
        case .date: "An ISO 8601 date: 2026-11-23T10:00:00.5Z, 2026-11-23 10:00:00 +0000, -0044-03-15 (45 BC)."
        case .data: "Bytes in hexadecimal: cafe0042."
        case .url: "A URL, stored as its text: https://example.com/a."
        case .json: #"The JSON form read --json prints: {"size": 14}, [1, 2], {"$date": …}, null (an explicit nil)."#
        }
    }

    var kind: DefaultsStoredValue.Kind? {
        switch self {
        case .int: .integer
        case .float: .real
        case .bool: .boolean
        case .string, .url: .string
        case .date: .date
        case .data: .data
        case .json: nil
        }
    }
}

/// Several values written as one collection.
enum CollectionFlag: String, EnumerableFlag {
    case array, dict

    static func name(for value: Self) -> NameSpecification {
        [.customLong(value.rawValue), .customLong(value.rawValue, withSingleDash: true)]
    }

    static func help(for value: Self) -> ArgumentHelp? {
        switch value {
        case .array: "An array of the values, each of the type flag's type (strings by default)."
        case .dict: "A dictionary of key value pairs, values of the type flag's type."
        }
    }
}

/// Turns the words of a `write` into a stored value: by the type flag, else by the type the
/// schema declares, else as a string.
struct ValueInput {
    var type: ValueTypeFlag?
    var collection: CollectionFlag?
    /// The type the schema declares for the key, if any.
    var declared: DefaultsSchema.ValueType?

    func value(from words: [String]) throws -> DefaultsStoredValue {
        let declared = declared.map(Self.unwrapped)
        switch collection {
        case .array:
            let element: DefaultsSchema.ValueType? = if case .array(let element)? = declared { element } else { nil }
            return .array(try words.map { try scalar($0, declared: element) })
        case .dict:
            guard words.count % 2 == 0 else {
                let count = words.count == 1 ? "1 word" : "\(words.count) words"
                throw ToolError.usage("--dict takes key value pairs: \(count) given")
            }
            let entryType: DefaultsSchema.ValueType? = if case .dictionary(let value)? = declared { value } else { nil }
            var entries: [DefaultsStoredKey: DefaultsStoredValue] = [:]
            for index in stride(from: 0, to: words.count, by: 2) {
                let key = DefaultsStoredKey(words[index])
                guard entries[key] == nil else {
                    throw ToolError("--dict: the key \(words[index]) appears twice")
                }
                entries[key] = try scalar(words[index + 1], declared: entryType)
            }
            return .dictionary(entries)
        case nil:
            if case .array(let element)? = declared, type != .json, !(words.count == 1 && words[0].hasPrefix("[")) {
                return .array(try words.map { try scalar($0, declared: element) })
            }
            guard words.count == 1 else {
                throw ToolError.usage("write takes one value (\(words.count) given); use --array or --dict for several")
            }
            if let declaredType = self.declared, case .optional = declaredType, words[0] == "null" || words[0] == "nil",
                type == nil || type == .json
            {
                return try DefaultsStoredValue(json: "null")
            }
            return try scalar(words[0], declared: declared)
        }
    }

    /// One word as a value of the flag's type, or the declared type.
    private func scalar(_ word: String, declared: DefaultsSchema.ValueType?) throws -> DefaultsStoredValue {
        let declared = declared.map(Self.unwrapped)
        do {
            switch type {
            case .json?:
                // A Codable value is stored as its JSON text: given as that text, or as the stored
                // string's JSON form, a JSON string, as read --json prints it.
                guard declared == .json else { return try DefaultsStoredValue(json: word) }
                if case .string(let text)? = try? DefaultsStoredValue(json: word) { return try jsonText(text) }
                return try jsonText(word)
            case .url?:
                guard let url = URL(string: word), url.scheme != nil || word.hasPrefix("/") else {
                    throw ToolError("\(String(reflecting: word)) is not a URL")
                }
                return .string(url.absoluteString)
            case let flag?:
                return try DefaultsStoredValue(parsing: word, as: flag.kind ?? .string)
            case nil:
                switch declared {
                case nil, .any?, .string?: return .string(word)
                case .json?: return try jsonText(word)
                case .integer?: return try DefaultsStoredValue(parsing: word, as: .integer)
                case .real?: return try DefaultsStoredValue(parsing: word, as: .real)
                case .boolean?: return try DefaultsStoredValue(parsing: word, as: .boolean)
                case .date?: return try DefaultsStoredValue(parsing: word, as: .date)
                case .data?, .keyedArchive?: return try DefaultsStoredValue(parsing: word, as: .data)
                case .array?, .dictionary?, .optional?: return try DefaultsStoredValue(json: word)
                }
            }
        } catch let error as DefaultsStoredValue.FormatError {
            throw ToolError(error.description)
        }
    }

    /// JSON text, checked, stored as the string a `Codable` value is.
    private func jsonText(_ word: String) throws -> DefaultsStoredValue {
        if let problem = DefaultsSchema.ValueType.json.problem(with: .string(word)) { throw ToolError(problem) }
        return .string(word)
    }

    private static func unwrapped(_ type: DefaultsSchema.ValueType) -> DefaultsSchema.ValueType {
        if case .optional(let wrapped) = type { return unwrapped(wrapped) }
        return type
    }
}
