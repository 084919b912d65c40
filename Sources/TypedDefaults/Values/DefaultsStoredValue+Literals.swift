import Foundation

/// A stored value written as a literal and read as any type, so that a setting of mixed values
/// reads and writes like a JSON value (Defaults' `AnySerializable`):
///
/// ```swift
/// @UserDefault("layout") var layout: [String: DefaultsStoredValue] = ["columns": 3, "tags": [true, "x"]]
///
/// layout["columns"] = 4
/// let columns = layout["columns"]?.value(as: Int.self)     // 4
/// let first = layout["tags"]?[0]?.value(as: Bool.self)     // true
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
    /// The value read as a `Value`, by the rules a key of that type reads by; `nil` when it is
    /// not one. Any type the library stores reads, as Defaults' `AnySerializable.get(_:)`
    /// reads:
    ///
    /// ```swift
    /// let columns = layout["columns"]?.value(as: Int.self)      // 4
    /// let theme = layout["theme"]?.value(as: Theme.self)        // an enum, by its raw value
    /// let tags = layout["tags"]?.value(as: [DefaultsStoredValue].self)
    /// ```
    ///
    /// An integer reads as a `Double`, and a number as a `Date` (its interval since the
    /// reference date), as a stored one does; a `Bool` never reads as a number, nor a number as
    /// a `Bool`. Match a case (`if case .dictionary(let entries) = value`) to keep a
    /// dictionary's keys exactly as stored.
    public func value<Value: DefaultsValueConvertible>(as type: Value.Type = Value.self) -> Value? {
        try? Value(defaultsRepresentation: Value.DefaultsRepresentation(storedObject: plistObject))
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
