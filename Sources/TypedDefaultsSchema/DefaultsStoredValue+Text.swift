import Foundation
import TypedDefaults
import TypedDefaultsStorage

extension DefaultsStoredValue {
    /// Why text could not be read as a stored value.
    public struct FormatError: Error, CustomStringConvertible, Sendable {
        public let description: String

        init(_ description: String) {
            self.description = description
        }
    }

    /// Reads a scalar value written as text, as a command line gives it.
    ///
    /// ```swift
    /// try DefaultsStoredValue(parsing: "14", as: .integer)                    // .integer(14)
    /// try DefaultsStoredValue(parsing: "2026-11-23T10:00:00Z", as: .date)
    /// try DefaultsStoredValue(parsing: "cafe", as: .data)                     // 2 bytes, CA FE
    /// ```
    ///
    /// - integer: decimal, `-9223372036854775808` to `18446744073709551615`;
    /// - float: decimal or exponent notation, `nan`, `inf`, `-inf`;
    /// - boolean: `true`/`false`, `yes`/`no`, `1`/`0`, in any case;
    /// - date: ISO 8601 (`2026-11-23`, `2026-11-23T10:00:00.5Z`, `…+02:00`) or
    ///   `2026-11-23 10:00:00 +0000` as macOS `defaults read` prints it, in the proleptic
    ///   Gregorian calendar; a year outside 0000–9999 is a sign and four to six digits
    ///   (`-0044-03-15`: 45 BC, as year 0000 is 1 BC);
    /// - data: hexadecimal digits, spaces allowed between bytes;
    /// - string: the text itself. Arrays and dictionaries have no plain text form: use
    ///   ``init(json:)``.
    ///
    /// - Parameters:
    ///   - text: the text, as a command line gives it.
    ///   - kind: the kind of value to read it as, in the form listed above.
    /// - Throws: ``FormatError`` naming what is wrong; nothing is guessed.
    public init(parsing text: String, as kind: Kind) throws(FormatError) {
        switch kind {
        case .string:
            self = .string(text)
        case .integer:
            if let value = Int64(text) {
                self = .integer(value)
            } else if let value = UInt64(text) {
                self = .unsignedInteger(value)
            } else if let digits = Optional(text.hasPrefix("-") ? text.dropFirst() : Substring(text)),
                !digits.isEmpty, digits.allSatisfy({ ("0"..."9").contains($0) })
            {
                throw FormatError("\(text) is outside the integers a suite can hold")
            } else {
                throw FormatError("\(String(reflecting: text)) is not an integer")
            }
        case .real:
            guard let value = Double(text), !text.hasPrefix("+"), !text.contains(where: \.isWhitespace),
                value.isFinite || ["nan", "inf", "-inf", "infinity", "-infinity"].contains(text.lowercased())
            else { throw FormatError("\(String(reflecting: text)) is not a number") }
            self = .real(value)
        case .boolean:
            switch text.lowercased() {
            case "true", "yes", "1": self = .boolean(true)
            case "false", "no", "0": self = .boolean(false)
            default: throw FormatError("\(String(reflecting: text)) is not a boolean: use true or false")
            }
        case .date:
            guard let date = DateText.parse(text) else {
                throw FormatError(
                    "\(String(reflecting: text)) is not a date: use ISO 8601, such as 2026-11-23T10:00:00Z")
            }
            self = .date(date)
        case .data:
            let digits = text.filter { !$0.isWhitespace }
            var bytes: [UInt8] = []
            var index = digits.startIndex
            while index < digits.endIndex {
                let next = digits.index(index, offsetBy: 2, limitedBy: digits.endIndex) ?? digits.endIndex
                guard digits.distance(from: index, to: next) == 2, let byte = UInt8(digits[index..<next], radix: 16)
                else { throw FormatError("\(String(reflecting: text)) is not hexadecimal bytes") }
                bytes.append(byte)
                index = next
            }
            self = .data(Data(bytes))
        case .array, .dictionary:
            throw FormatError("an \(kind) has no plain text form; give it as JSON")
        }
    }
}

// MARK: - JSON

extension DefaultsStoredValue {
    /// Reads the value from its JSON form, which keeps every property-list value exactly.
    ///
    /// ```swift
    /// try DefaultsStoredValue(json: #"{"size": 14, "ratio": 0.5, "since": {"$date": "2026-11-23T10:00:00Z"}}"#)
    /// ```
    ///
    /// A JSON string, `true`/`false`, array and object are what they say; a number written
    /// without a fraction or exponent is an integer, any other a float; `null` is an explicit
    /// `nil` (see ``Encoding/explicitNil(depth:)``). An object whose only member is one of these
    /// names is a value JSON has no form for:
    ///
    /// | member | value |
    /// |---|---|
    /// | `"$date"` | an ISO 8601 date (as ``init(parsing:as:)`` reads one), or seconds since 2001-01-01 as a number |
    /// | `"$data"` | Base64 |
    /// | `"$real"` | `"nan"`, `"inf"` or `"-inf"` |
    /// | `"$dictionary"` | an object taken as a dictionary as it is (so a stored dictionary may have such a member) |
    ///
    /// - Throws: ``FormatError`` for text that is not JSON (with the byte where it goes wrong),
    ///   an integer beyond 64 bits, a float beyond `Double`, or a value nested deeper than a
    ///   suite may hold: 250 arrays and dictionaries, a dictionary written `{"$dictionary": {…}}`
    ///   being one (the text itself may nest 506 deep, which bounds the work).
    public init(json: String) throws(FormatError) {
        self = try Self(try Self.parsed(json), depth: 0)
    }

    /// Reads a whole suite from its JSON form, the object of its keys `typed-defaults export
    /// --format json` and `read suite --json` write: an object, read as ``init(json:)`` reads it,
    /// except that the object is the suite and not a level of the values it holds, so each may
    /// nest as deep as a suite allows (``init(json:)`` counts the object as a level).
    ///
    /// ```swift
    /// guard case .dictionary(let values) = try DefaultsStoredValue(suiteJSON: backup) else { return }
    /// ```
    ///
    /// Text that is not an object read as a dictionary (`[1]`, `{"$date": …}`) is read as
    /// ``init(json:)`` reads it.
    ///
    /// - Throws: ``FormatError``, as ``init(json:)``.
    public init(suiteJSON json: String) throws(FormatError) {
        let parsed = try Self.parsed(json)
        if case .object(let members) = parsed, let entries = Self.dictionaryMembers(members) {
            self = .dictionary(try Self.entries(entries, depth: 0))
        } else {
            self = try Self(parsed, depth: 0)
        }
    }

    private static func parsed(_ json: String) throws(FormatError) -> JSONText.Value {
        do {
            return try JSONText.parse(json)
        } catch {
            throw FormatError("not JSON: \(error)")
        }
    }

    /// The value of `json`, inside `depth` arrays and dictionaries: an array or a dictionary
    /// (an explicit `nil`'s marker is one) is one more, and may be no deeper than a suite holds.
    init(_ json: JSONText.Value, depth: Int = 0) throws(FormatError) {
        switch json {
        case .string(let text):
            self = .string(text)
        case .bool(let flag):
            self = .boolean(flag)
        case .null:
            try Self.checkNesting(depth)
            self = .dictionary([DefaultsStoredKey(NilMarker.key): .integer(0)])
        case .number(let text, let isInteger):
            if isInteger {
                self = try DefaultsStoredValue(parsing: text, as: .integer)
            } else {
                guard let value = Double(text), value.isFinite else {
                    throw FormatError("\(text) is beyond the range of a float")
                }
                self = .real(value)
            }
        case .array(let elements):
            try Self.checkNesting(depth)
            var values: [DefaultsStoredValue] = []
            values.reserveCapacity(elements.count)
            for element in elements { values.append(try DefaultsStoredValue(element, depth: depth + 1)) }
            self = .array(values)
        case .object(let members):
            guard let entries = Self.dictionaryMembers(members) else {
                self = try Self.special(members[0], depth: depth)
                return
            }
            try Self.checkNesting(depth)
            self = .dictionary(try Self.entries(entries, depth: depth + 1))
        }
    }

    /// Refuses an array or a dictionary inside `depth` others when a suite may not hold it.
    private static func checkNesting(_ depth: Int) throws(FormatError) {
        guard depth < StoredObject.maximumNestingDepth else {
            throw FormatError("it nests deeper than the \(StoredObject.maximumNestingDepth) levels a suite may hold")
        }
    }

    /// The members of the dictionary an object is: its own, those inside `{"$dictionary": {…}}`,
    /// or `nil` when it is a lone `$date`, `$data`, `$real` or `$dictionary` member that is
    /// another value (or a wrong one).
    private static func dictionaryMembers(_ members: [JSONText.Member]) -> [JSONText.Member]? {
        guard members.count == 1 else { return members }
        switch (members[0].key, members[0].value) {
        case ("$dictionary", .object(let inner)): return inner
        case ("$date", _), ("$data", _), ("$real", _), ("$dictionary", _): return nil
        default: return members
        }
    }

    /// An object's members as a dictionary's values, each inside `depth` arrays and dictionaries,
    /// keyed exactly: members whose names differ only in their Unicode normalization are two
    /// entries; a name given twice is refused.
    private static func entries(
        _ members: [JSONText.Member], depth: Int
    ) throws(FormatError) -> [DefaultsStoredKey: Self] {
        var values: [DefaultsStoredKey: DefaultsStoredValue] = [:]
        values.reserveCapacity(members.count)
        for member in members {
            let key = DefaultsStoredKey(member.key)
            guard values[key] == nil else {
                throw FormatError("the member \(String(reflecting: member.key)) appears twice")
            }
            values[key] = try DefaultsStoredValue(member.value, depth: depth)
        }
        return values
    }

    /// The value of a lone `$date`, `$data` or `$real` member, which ``dictionaryMembers(_:)``
    /// found is no dictionary; a lone `$dictionary` that holds no object is refused here.
    private static func special(_ member: JSONText.Member, depth: Int) throws(FormatError) -> Self {
        switch (member.key, member.value) {
        case ("$date", .string(let text)):
            guard let date = DateText.parse(text) else {
                throw FormatError("\(String(reflecting: text)) is not a date")
            }
            return .date(date)
        case ("$date", let seconds):
            switch try DefaultsStoredValue(seconds, depth: depth) {
            case .real(let value): return .date(Date(timeIntervalSinceReferenceDate: value))
            case .integer(let value): return .date(Date(timeIntervalSinceReferenceDate: Double(value)))
            default: throw FormatError("$date takes an ISO 8601 text or seconds since 2001-01-01")
            }
        case ("$data", .string(let base64)):
            guard let data = Data(base64Encoded: base64) else { throw FormatError("$data is not Base64") }
            return .data(data)
        case ("$real", .string(let text)):
            switch text {
            case "nan": return .real(.nan)
            case "inf": return .real(.infinity)
            case "-inf": return .real(-.infinity)
            default: throw FormatError("$real takes \"nan\", \"inf\" or \"-inf\"")
            }
        default:
            throw FormatError("\(member.key) holds a value of the wrong kind")
        }
    }

    /// The value's JSON form (see ``init(json:)``), which reads back as exactly this value:
    /// compact, or indented for people.
    ///
    /// ```swift
    /// DefaultsStoredValue.real(1).json()    // "1.0"
    /// ```
    ///
    /// Dictionary members are sorted by key, so equal values give equal text.
    public func json(pretty: Bool = false) -> String {
        JSONText.write(jsonValue, pretty: pretty)
    }

    var jsonValue: JSONText.Value {
        switch self {
        case .string(let text):
            return .string(text)
        case .integer(let value):
            return .number(text: "\(value)", isInteger: true)
        case .unsignedInteger(let value):
            return .number(text: "\(value)", isInteger: true)
        case .real(let value):
            guard value.isFinite else {
                return .object([JSONText.Member("$real", .string(value.isNaN ? "nan" : value > 0 ? "inf" : "-inf"))])
            }
            // Swift writes the shortest text that reads back the same; "1.0", "1e-05".
            return .number(text: "\(value)", isInteger: false)
        case .boolean(let flag):
            return .bool(flag)
        case .date(let date):
            if let text = DateText.format(date) { return .object([JSONText.Member("$date", .string(text))]) }
            return .object([
                JSONText.Member("$date", DefaultsStoredValue.real(date.timeIntervalSinceReferenceDate).jsonValue)
            ])
        case .data(let data):
            return .object([JSONText.Member("$data", .string(data.base64EncodedString()))])
        case .array(let values):
            return .array(values.map(\.jsonValue))
        case .dictionary(let values):
            if case .explicitNil(depth: 0) = encoding { return .null }
            let members = values.sorted { $0.key < $1.key }.map { JSONText.Member($0.key.name, $0.value.jsonValue) }
            if members.count == 1, members[0].key.hasPrefix("$") {
                return .object([JSONText.Member("$dictionary", .object(members))])
            }
            return .object(members)
        }
    }
}
