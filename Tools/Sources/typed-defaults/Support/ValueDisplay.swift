import Foundation
import TypedDefaults
import TypedDefaultsSchema

/// Stored values as people read them: in macOS `defaults`' old-style property-list format, with
/// what TypedDefaults stores shown as the program's author wrote it (Codable JSON as JSON, an
/// explicit `nil` as `nil`, a keyed archive as its class and size). Programs get the exact JSON
/// form instead (`DefaultsStoredValue.json()`, `ExportFile`), which reads back.
enum ValueDisplay {
    /// The old-style text of `value`; nested collections indented below `indent`.
    static func text(_ value: DefaultsStoredValue, indent: String = "") -> String {
        switch value.encoding {
        case .explicitNil(let depth):
            return String(repeating: "Optional(", count: depth) + "nil" + String(repeating: ")", count: depth)
        case .json:
            if case .string(let json) = value { return json }
        case .keyedArchive(let className):
            if case .data(let bytes) = value { return "<keyed archive of \(className), \(bytes.count) bytes>" }
        case .plain:
            break
        }
        let inner = indent + "    "
        switch value {
        case .string(let string): return quotedIfNeeded(string)
        case .integer(let number): return "\(number)"
        case .unsignedInteger(let number): return "\(number)"
        case .real(let number): return "\(number)"
        case .boolean(let flag): return flag ? "1" : "0"
        case .date(let date): return dateText(date).map { "\"\($0)\"" } ?? value.json()
        case .data(let bytes): return "{length = \(bytes.count), bytes = 0x\(hex(bytes))}"
        case .array(let elements):
            guard !elements.isEmpty else { return "()" }
            return "(\n" + elements.map { inner + text($0, indent: inner) }.joined(separator: ",\n") + "\n\(indent))"
        case .dictionary(let entries):
            guard !entries.isEmpty else { return "{}" }
            return "{\n" + entryLines(entries, indent: inner) + "\n\(indent)}"
        }
    }

    /// One key's value as `defaults read DOMAIN KEY` prints it: a string or a date as it is,
    /// unquoted, so that a script's `x=$(typed-defaults read …)` gets the text itself; anything
    /// else as ``text(_:indent:)`` shows it.
    static func topLevelText(_ value: DefaultsStoredValue) -> String {
        guard value.encoding == .plain else { return text(value) }
        switch value {
        case .string(let string): return string
        case .date(let date): return dateText(date) ?? text(value)
        default: return text(value)
        }
    }

    /// The value as its declared type shows it: a date TypedDefaults stored as seconds since
    /// 2001 (on Linux) as a date.
    static func presented(_ value: DefaultsStoredValue, as declared: DefaultsSchema.ValueType?) -> DefaultsStoredValue {
        switch (declared, value) {
        case (.date?, .real(let seconds)), (.optional(.date)?, .real(let seconds)):
            .date(Date(timeIntervalSinceReferenceDate: seconds))
        default:
            value
        }
    }

    /// A declared key's default on one line, shown as a stored value is; a default computed on
    /// each read as the program describes it.
    static func defaultLine(of key: DefaultsSchema.Key) -> String {
        key.defaultValue.map { line(presented($0, as: key.valueType)) } ?? key.formattedDefaultValue
    }

    /// The value on one line: a collection in the JSON form.
    static func line(_ value: DefaultsStoredValue) -> String {
        switch (value, value.encoding) {
        case (.array, .plain), (.dictionary, .plain): value.json()
        default: text(value)
        }
    }

    /// `key = value;` lines, sorted by key; `notes` adds a comment to a key's line, and `shown`
    /// gives the text of keys whose value is not printed (secrets).
    static func entryLines(
        _ entries: [DefaultsStoredKey: DefaultsStoredValue], indent: String, notes: [DefaultsStoredKey: String] = [:],
        shown: [DefaultsStoredKey: String] = [:]
    ) -> String {
        let texts = entries.mapValues { text($0, indent: indent) }.merging(shown) { _, shown in shown }
        return texts.sorted { $0.key < $1.key }.map { key, text in
            let note = notes[key].map { " /* \($0) */" } ?? ""
            return "\(indent)\(quotedIfNeeded(key.name)) = \(text);\(note)"
        }.joined(separator: "\n")
    }

    /// Text as old-style property lists write it: bare when it is a plain word.
    static func quotedIfNeeded(_ text: String) -> String {
        let bare =
            !text.isEmpty
            && text.unicodeScalars.allSatisfy { scalar in
                scalar.isASCII
                    && (CharacterSet.alphanumerics.contains(scalar) || "_.$/:-".unicodeScalars.contains(scalar))
            }
        if bare { return text }
        var quoted = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            case "\n": quoted += "\\n"
            case "\t": quoted += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                quoted += String(format: "\\U%04x", scalar.value)
            default: quoted.unicodeScalars.append(scalar)
            }
        }
        return quoted + "\""
    }

    /// `2026-11-23 10:00:00 +0000`, as macOS `defaults read` shows a date, with the year and
    /// fraction the JSON form writes (`-0044-03-15 12:00:00.5 +0000`), so that `--date` reads
    /// it back exactly; `nil` beyond the years ISO 8601 text holds.
    static func dateText(_ date: Date) -> String? {
        isoText(date).map { $0.replacingOccurrences(of: "T", with: " ").dropLast() + " +0000" }
    }

    /// The ISO 8601 text of the JSON form, `2026-11-23T10:00:00.5Z`: proleptic Gregorian (a
    /// `DateFormatter` turns Julian before 1582), any year; `nil` where the form has seconds.
    static func isoText(_ date: Date) -> String? {
        let json = DefaultsStoredValue.date(date).json()
        let (prefix, suffix) = (#"{"$date":""#, #""}"#)
        guard json.hasPrefix(prefix), json.hasSuffix(suffix) else { return nil }
        return String(json.dropFirst(prefix.count).dropLast(suffix.count))
    }

    /// Bytes in hex; a long run shows its first 32 and last 8 bytes.
    private static func hex(_ bytes: Data) -> String {
        func digits(_ part: some Sequence<UInt8>) -> String {
            part.map { String(format: "%02x", $0) }.joined()
        }
        guard bytes.count > 64 else { return digits(bytes) }
        return digits(bytes.prefix(32)) + " ... " + digits(bytes.suffix(8))
    }
}
