import Foundation

/// A stored value written as a literal and read through typed accessors, so that a setting of
/// mixed values reads and writes like a JSON value (Defaults' `AnySerializable`):
///
/// ```swift
/// @UserDefault("layout") var layout: [String: DefaultsStoredValue] = ["columns": 3, "tags": [true, "x"]]
///
/// layout["columns"] = 4
/// let columns = layout["columns"]?.intValue       // 4
/// let first = layout["tags"]?[0]?.boolValue       // true
/// ```
///
/// Integer literals are ``integer(_:)``, floating-point literals ``real(_:)``. There is no `nil`
/// literal: a property list has no null (store an optional value for "nothing").
extension DefaultsStoredValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    public init(stringLiteral value: String) {
        self = .string(value)
    }

    public init(integerLiteral value: Int64) {
        self = .integer(value)
    }

    public init(floatLiteral value: Double) {
        self = .real(value)
    }

    public init(booleanLiteral value: Bool) {
        self = .boolean(value)
    }

    public init(arrayLiteral elements: DefaultsStoredValue...) {
        self = .array(elements)
    }

    /// A dictionary; a key given twice keeps its last value.
    public init(dictionaryLiteral elements: (DefaultsStoredKey, DefaultsStoredValue)...) {
        self = .dictionary(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

extension DefaultsStoredValue {
    /// The string, for a ``string(_:)``.
    public var stringValue: String? {
        if case .string(let value) = self { value } else { nil }
    }

    /// The integer, for an ``integer(_:)`` or ``unsignedInteger(_:)`` that `Int` holds.
    public var intValue: Int? {
        switch self {
        case .integer(let value): Int(exactly: value)
        case .unsignedInteger(let value): Int(exactly: value)
        default: nil
        }
    }

    /// The number as a `Double`: a ``real(_:)``, or an integer (rounded to the nearest `Double`
    /// beyond 2^53).
    public var doubleValue: Double? {
        switch self {
        case .real(let value): value
        case .integer(let value): Double(value)
        case .unsignedInteger(let value): Double(value)
        default: nil
        }
    }

    /// The flag, for a ``boolean(_:)``.
    public var boolValue: Bool? {
        if case .boolean(let value) = self { value } else { nil }
    }

    /// The date, for a ``date(_:)``.
    public var dateValue: Date? {
        if case .date(let value) = self { value } else { nil }
    }

    /// The bytes, for a ``data(_:)``.
    public var dataValue: Data? {
        if case .data(let value) = self { value } else { nil }
    }

    /// The elements, for an ``array(_:)``.
    public var arrayValue: [DefaultsStoredValue]? {
        if case .array(let values) = self { values } else { nil }
    }

    /// The entries, for a ``dictionary(_:)``.
    public var dictionaryValue: [DefaultsStoredKey: DefaultsStoredValue]? {
        if case .dictionary(let values) = self { values } else { nil }
    }

    /// The element at `index` of an array; `nil` for another value or an index out of range.
    public subscript(index: Int) -> DefaultsStoredValue? {
        guard case .array(let values) = self, values.indices.contains(index) else { return nil }
        return values[index]
    }

    /// The entry under `key` of a dictionary (keys compared as stored, scalar for scalar);
    /// `nil` for another value. Setting it on a dictionary adds, replaces or (with `nil`)
    /// removes the entry; on any other value it does nothing.
    public subscript(key: String) -> DefaultsStoredValue? {
        get {
            guard case .dictionary(let values) = self else { return nil }
            return values[DefaultsStoredKey(key)]
        }
        set {
            guard case .dictionary(var values) = self else { return }
            values[DefaultsStoredKey(key)] = newValue
            self = .dictionary(values)
        }
    }
}
