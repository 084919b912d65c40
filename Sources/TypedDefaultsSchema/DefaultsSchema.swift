import Foundation
import TypedDefaults

/// What a program declares about the keys of a suite (types, defaults, titles, ranges),
/// published beside the suite so that tools can describe the keys and check values written
/// from outside the program, as GSettings schemas do.
///
/// ```swift
/// struct AppSettings: SettingsCatalog {
///     @Setting("fontSize", title: "Font size", range: 8...72, step: 2) var fontSize = 12
/// }
/// try DefaultsSchema.publish(AppSettings(), keys: [.launchCount])   // at launch
/// ```
///
/// Then `typed-defaults describe com.example.app fontSize` shows the setting, and
/// `typed-defaults write com.example.app fontSize 100` is refused: 100 is outside 8…72. The file
/// format is documented in the article "The command line and schemas" and versioned by ``formatVersion``.
public struct DefaultsSchema: Sendable, Hashable {
    /// The version of the file format this library writes; it reads files of this version.
    /// A change that older readers would misread takes a new version.
    public static let formatVersion = 1

    /// The suite the schema describes.
    public var suite: String
    /// The keys, in the order the program declared them.
    public var keys: [Key]

    /// A schema of one suite's keys.
    ///
    /// - Parameters:
    ///   - suite: the name of the suite the schema describes.
    ///   - keys: the keys, in the order the program declared them.
    public init(suite: String, keys: [Key]) {
        self.suite = suite
        self.keys = keys
    }

    /// The key named exactly `name`, scalar for scalar (see `DefaultsStoredKey`), if the
    /// schema declares it.
    public subscript(name: String) -> Key? {
        let wanted = DefaultsStoredKey(name)
        return keys.first { DefaultsStoredKey($0.name) == wanted }
    }
}

extension DefaultsSchema {
    /// One declared key: a `Setting` of a catalog, or a typed key.
    public struct Key: Sendable, Hashable {
        /// The name the value is stored under.
        public var name: String
        /// The value's Swift type, as the program writes it: `Int`, `Optional<String>`, `Theme`.
        public var swiftType: String
        /// What the suite stores for the value.
        public var valueType: ValueType
        /// The setting's title; empty for a typed key.
        public var title: String
        /// The setting's info text; empty when none was given.
        public var info: String
        /// The default, as it is stored; `nil` when it is computed on each read, or is a keyed
        /// archive (whose bytes differ each time one is made).
        public var defaultValue: DefaultsStoredValue?
        /// The default, as the program formats it.
        public var formattedDefaultValue: String
        /// The bounds and step of a number declared with them.
        public var range: Range?
        /// The values a setting with options takes (an enum's cases, or a declared list), in
        /// its order; `nil` for a key that takes any value of its type.
        public var options: [Option]?
        /// The JSON a `Codable` value is stored as, from its default (``ValueType/json`` only):
        /// a value written without a member it needs, or with one of another type, is refused.
        public var jsonShape: JSONShape?
        /// Whether the value is a secret (`@Secret` of `TypedDefaultsSecrets`): kept in the
        /// system's keyring as the item of this suite's name and the key, never in the suite.
        /// Tools show whether one is set, never its value.
        public var isSecret: Bool

        /// A declared key, with every field given.
        ///
        /// - Parameters:
        ///   - name: the name the value is stored under.
        ///   - swiftType: the value's Swift type, as the program writes it: `Int`, `Optional<String>`, `Theme`.
        ///   - valueType: what the suite stores for the value.
        ///   - title: the setting's title; empty (the default) for a typed key.
        ///   - info: the setting's info text; empty unless given.
        ///   - defaultValue: the default, as it is stored; `nil` when it is computed on each read,
        ///     or is a keyed archive (whose bytes differ each time one is made).
        ///   - formattedDefaultValue: the default, as the program formats it.
        ///   - range: the bounds and step of a number declared with them; `nil` unless given.
        ///   - options: the values a setting with options takes, in its order; `nil` (the default)
        ///     for a key that takes any value of its type.
        ///   - jsonShape: the shape of the JSON a `Codable` value is stored as; `nil` unless given.
        ///   - isSecret: whether the keyring keeps the value, not the suite; `false` unless given.
        public init(
            name: String, swiftType: String, valueType: ValueType, title: String = "", info: String = "",
            defaultValue: DefaultsStoredValue?, formattedDefaultValue: String, range: Range? = nil,
            options: [Option]? = nil, jsonShape: JSONShape? = nil, isSecret: Bool = false
        ) {
            self.jsonShape = jsonShape
            self.isSecret = isSecret
            self.name = name
            self.swiftType = swiftType
            self.valueType = valueType
            self.title = title
            self.info = info
            self.defaultValue = defaultValue
            self.formattedDefaultValue = formattedDefaultValue
            self.range = range
            self.options = options
        }

        /// Why `value` is not one the program accepts for the key, or `nil` when it is: of
        /// the stored type, within the range, and one of the options.
        ///
        /// ```swift
        /// if let problem = key.problem(with: .integer(100)) { print(problem) }
        /// // 100 is outside the range 8 to 72
        /// ```
        ///
        /// The check is of the stored form: a `Codable` value must be JSON with the members
        /// its default has (``jsonShape``), but only the program can tell whether it decodes.
        public func problem(with value: DefaultsStoredValue) -> String? {
            if let problem = valueType.problem(with: value) { return problem }
            if let jsonShape, case .string(let text) = value, let problem = jsonShape.problem(withJSON: text) {
                return problem
            }
            if let options, !options.contains(where: { $0.value.isSameValue(as: value) }) {
                let listed = options.map { $0.value.json() }.joined(separator: ", ")
                return "\(value.json()) is not one of the options: \(listed)"
            }
            guard let range else { return nil }
            if case .real(let number) = value, number.isNaN {
                return "nan is outside the range \(range.min.json()) to \(range.max.json())"
            }
            if let order = DefaultsStoredValue.compareNumbers(value, range.min), order < 0 {
                return "\(value.json()) is below the range \(range.min.json()) to \(range.max.json())"
            }
            if let order = DefaultsStoredValue.compareNumbers(value, range.max), order > 0 {
                return "\(value.json()) is above the range \(range.min.json()) to \(range.max.json())"
            }
            return nil
        }
    }

    /// The bounds and step of a number, in its stored form.
    public struct Range: Sendable, Hashable {
        public var min: DefaultsStoredValue
        public var max: DefaultsStoredValue
        public var step: DefaultsStoredValue

        /// Bounds and a step, in their stored form.
        ///
        /// - Parameters:
        ///   - min: the lowest value.
        ///   - max: the highest value.
        ///   - step: how far one step moves the value.
        public init(min: DefaultsStoredValue, max: DefaultsStoredValue, step: DefaultsStoredValue) {
            self.min = min
            self.max = max
            self.step = step
        }
    }

    /// One option of a setting with options: the value as stored, and as the program formats it.
    public struct Option: Sendable, Hashable {
        public var value: DefaultsStoredValue
        public var title: String

        /// An option, as stored and as formatted.
        ///
        /// - Parameters:
        ///   - value: the option as the suite stores it.
        ///   - title: the option as the program formats it.
        public init(value: DefaultsStoredValue, title: String) {
            self.value = value
            self.title = title
        }
    }

    /// What a suite stores for a value of a declared type.
    public indirect enum ValueType: Sendable, Hashable, CustomStringConvertible {
        /// Any property-list value.
        case any
        case string
        /// A string holding JSON: a `Codable` value.
        case json
        /// An integer within the bounds of its Swift type.
        case integer(lowest: Int64, highest: UInt64)
        /// A float; an integer is read as one too.
        case real
        case boolean
        /// A date, or a number of seconds since 2001-01-01 (how TypedDefaults stores a `Date`
        /// on Linux, keeping its fraction of a second).
        case date
        case data
        /// Data holding a keyed archive of the class named: an `NSSecureCoding` value.
        case keyedArchive(className: String)
        case array(of: ValueType)
        case dictionary(of: ValueType)
        /// A value of the wrapped type, or an explicit `nil`.
        case optional(ValueType)

        public var description: String {
            switch self {
            case .any: "any value"
            case .string: "string"
            case .json: "string holding JSON"
            case .integer(let lowest, let highest): "integer (\(lowest) to \(highest))"
            case .real: "float"
            case .boolean: "boolean"
            case .date: "date"
            case .data: "data"
            case .keyedArchive(let className): "data holding a keyed archive of \(className)"
            case .array(let element): "array of \(element)"
            case .dictionary(let value): "dictionary of \(value)"
            case .optional(let wrapped): "\(wrapped), or nil"
            }
        }

        /// The kind of stored value that holds it, `nil` for ``any``.
        public var kind: DefaultsStoredValue.Kind? {
            switch self {
            case .any: nil
            case .string, .json: .string
            case .integer: .integer
            case .real: .real
            case .boolean: .boolean
            case .date: .date
            case .data, .keyedArchive: .data
            case .array: .array
            case .dictionary: .dictionary
            case .optional(let wrapped): wrapped.kind
            }
        }

        /// Why `value` is not of this type, or `nil` when it is.
        public func problem(with value: DefaultsStoredValue) -> String? {
            switch (self, value) {
            case (.any, _):
                return nil
            case (.optional(let wrapped), _):
                if case .explicitNil = value.encoding { return nil }
                return wrapped.problem(with: value)
            case (.string, .string), (.boolean, .boolean), (.date, .date), (.data, .data), (.real, .real):
                return nil
            case (.real, .integer), (.real, .unsignedInteger):
                return nil
            case (.date, .real), (.date, .integer):
                // Seconds since 2001: how TypedDefaults stores a date on Linux.
                return nil
            case (.json, .string(let text)):
                do {
                    _ = try JSONText.parse(text)
                    return nil
                } catch {
                    return "\(String(reflecting: text)) is not JSON: \(error)"
                }
            case (.integer(let lowest, let highest), .integer(let number)):
                return number >= lowest && (number < 0 || UInt64(number) <= highest)
                    ? nil : "\(number) is outside the bounds of the type, \(lowest) to \(highest)"
            case (.integer(_, let highest), .unsignedInteger(let number)):
                return number <= highest ? nil : "\(number) is outside the bounds of the type, up to \(highest)"
            case (.keyedArchive(let className), .data):
                guard case .keyedArchive(let found) = value.encoding else { return "the data is not a keyed archive" }
                return found == className ? nil : "the archive holds \(found), not \(className)"
            case (.array(let element), .array(let elements)):
                for (index, item) in elements.enumerated() {
                    if let problem = element.problem(with: item) { return "element \(index): \(problem)" }
                }
                return nil
            case (.dictionary(let valueType), .dictionary(let entries)):
                for (key, item) in entries.sorted(by: { $0.key < $1.key }) {
                    if let problem = valueType.problem(with: item) { return "\(String(reflecting: key)): \(problem)" }
                }
                return nil
            default:
                return "expected \(self), found \(value.kind)"
            }
        }
    }
}

extension DefaultsStoredValue {
    /// Whether two stored values are the same value: equal, or numbers of equal value however
    /// stored (`720` and `720.0`).
    func isSameValue(as other: Self) -> Bool {
        self == other || Self.compareNumbers(self, other) == 0
    }

    /// The order of two numbers (negative, zero, positive), exact for every integer; `nil` when
    /// either is not a number, or is NaN.
    static func compareNumbers(_ first: Self, _ second: Self) -> Int? {
        if let x = first.exactInteger, let y = second.exactInteger {
            if x.isNegative != y.isNegative { return x.isNegative ? -1 : 1 }
            let order = x.magnitude < y.magnitude ? -1 : x.magnitude > y.magnitude ? 1 : 0
            return x.isNegative ? -order : order
        }
        guard let x = first.approximateNumber, let y = second.approximateNumber, !x.isNaN, !y.isNaN else { return nil }
        return x < y ? -1 : x > y ? 1 : 0
    }

    private var exactInteger: (isNegative: Bool, magnitude: UInt64)? {
        switch self {
        case .integer(let number): (number < 0, number.magnitude)
        case .unsignedInteger(let number): (false, number)
        default: nil
        }
    }

    private var approximateNumber: Double? {
        switch self {
        case .integer(let number): Double(number)
        case .unsignedInteger(let number): Double(number)
        case .real(let number): number
        default: nil
        }
    }
}
