import Foundation
import TypedDefaults
import TypedDefaultsSchema

/// A file `typed-defaults import` reads: the JSON form `export --format json` and `read --json`
/// write, or a property list (XML, binary or OpenStep). Apart from the command line, so that a
/// fuzz target can call it with any bytes.
public enum ImportFile {
    /// The values in a file: JSON when its text starts with `{`, else a property list; text
    /// that starts with `{` and is not JSON may be an OpenStep property list (`{ key = value; }`).
    ///
    /// ```swift
    /// let values = try ImportFile.values(in: Data(#"{"fontSize": 14}"#.utf8))   // ["fontSize": .integer(14)]
    /// ```
    ///
    /// Keys are kept exactly (two that differ only in their Unicode normalization stay two), a
    /// JSON file's values may nest as deep as a suite's (its object is the suite, no level of
    /// them), and a property list is read by the library's bounded reader, so no file can make
    /// the import hang or grow without end.
    public static func values(in data: Data) throws(ImportFileError) -> [DefaultsStoredKey: DefaultsStoredValue] {
        let firstByte = data.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        let value: DefaultsStoredValue
        if firstByte == UInt8(ascii: "{") {
            guard let text = String(data: data, encoding: .utf8) else { throw .notUTF8 }
            do {
                // The file's object is the suite, not a level of its values.
                value = try DefaultsStoredValue(suiteJSON: text)
            } catch {
                // JSON's `:` is never OpenStep's `=`: no text is both, but `{}`, the same in each.
                guard let openStep = try? propertyList(data) else { throw .notJSON(reason: error.description) }
                value = openStep
            }
        } else {
            value = try propertyList(data)
        }
        // Any dictionary: a suite whose only key is an explicit nil's marker is such a suite,
        // not a nil, and `{` starts no `null`.
        guard case .dictionary(let entries) = value else {
            throw .notADictionary(found: value.kind == .array ? "an array" : "a \(value.kind)")
        }
        return entries
    }

    /// The value of a property list: the one place a file's plist is parsed.
    static func propertyList(_ data: Data) throws(ImportFileError) -> DefaultsStoredValue {
        do {
            return try DefaultsStoredValue(suitePropertyList: data)
        } catch {
            throw .notPropertyList(reason: error.description)
        }
    }
}

/// Why a file does not import; nothing is written.
public enum ImportFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Text that starts as JSON (`{`) and is not UTF-8.
    case notUTF8
    /// Text that starts as JSON and parses neither as the JSON form nor as an OpenStep property
    /// list: the JSON parser's reason.
    case notJSON(reason: String)
    /// Neither JSON nor a property list a suite can hold: the property-list reader's reason.
    case notPropertyList(reason: String)
    /// A value that is not a dictionary of keys: `found` names what it is.
    case notADictionary(found: String)

    public var description: String {
        switch self {
        case .notUTF8: "the file is not UTF-8 text"
        case .notJSON(let reason): "the file does not parse as JSON: \(reason)"
        case .notPropertyList(let reason): "the file does not parse as a property list or JSON: \(reason)"
        case .notADictionary(let found): "the file holds \(found), not a dictionary of keys"
        }
    }
}
