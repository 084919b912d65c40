import Foundation

// Foundation's property-list classes are stored as the values they hold, exactly as their
// Swift counterparts are: an `NSString` as a string, an `NSNumber` as the number (or boolean) it
// holds, an `NSArray` or `NSDictionary` as an array or dictionary of property-list values.
//
// ```swift
// @UserDefault("greeting") var greeting: NSString = "hello"
// @UserDefault("limits") var limits: NSDictionary = ["max": 10]
// ```
//
// Without these, an empty conformance (`extension NSString: DefaultsValueConvertible {}`) would
// pick up the keyed-archive storage meant for your own `NSSecureCoding` classes, which loses the
// value after a restart or crashes corelibs Foundation; with them, such a conformance is a
// compile-time error (a redundant conformance). Declare properties with these classes
// themselves: a subclass (`NSMutableString`, `NSDecimalNumber`) is stored as its superclass's
// value, which cannot make it again, so a read reports a type mismatch and gives the default.

extension NSString: DefaultsValueConvertible {
    public func defaultsRepresentation() -> String { String(describing: self) }
}

extension DefaultsValueConvertible where Self: NSString {
    public init(defaultsRepresentation string: String) throws {
        self = try FoundationObject.cast(NSString(string: string), to: Self.self)
    }
}

extension NSNumber: DefaultsValueConvertible {
    public func defaultsRepresentation() throws -> DefaultsStoredValue {
        try FoundationObject.storedValue(of: self, as: "NSNumber")
    }
}

extension DefaultsValueConvertible where Self: NSNumber {
    public init(defaultsRepresentation stored: DefaultsStoredValue) throws {
        let number: NSNumber
        switch stored {
        case .boolean(let value): number = NSNumber(value: value)
        case .integer(let value): number = NSNumber(value: value)
        case .unsignedInteger(let value): number = NSNumber(value: value)
        case .real(let value): number = NSNumber(value: value)
        default: throw DefaultsTypeMismatch(expected: Self.self, found: stored.propertyListObject)
        }
        self = try FoundationObject.cast(number, to: Self.self)
    }
}

extension NSDate: DefaultsValueConvertible {
    public func defaultsRepresentation() -> Date {
        Date(timeIntervalSinceReferenceDate: timeIntervalSinceReferenceDate)
    }
}

extension DefaultsValueConvertible where Self: NSDate {
    public init(defaultsRepresentation date: Date) throws {
        let object = NSDate(timeIntervalSinceReferenceDate: date.timeIntervalSinceReferenceDate)
        self = try FoundationObject.cast(object, to: Self.self)
    }
}

extension NSData: DefaultsValueConvertible {
    public func defaultsRepresentation() -> Data { Data(referencing: self) }
}

extension DefaultsValueConvertible where Self: NSData {
    public init(defaultsRepresentation data: Data) throws {
        self = try FoundationObject.cast(NSData(data: data), to: Self.self)
    }
}

extension NSURL: DefaultsValueConvertible {
    /// Stored as `URL` stores it, and read in every form `URL` reads.
    public func defaultsRepresentation() throws -> DefaultsStoredValue {
        guard let url = absoluteURL else { throw NotAPropertyList(type: NSURL.self) }
        return url.defaultsRepresentation()
    }
}

extension DefaultsValueConvertible where Self: NSURL {
    public init(defaultsRepresentation stored: DefaultsStoredValue) throws {
        self = try FoundationObject.cast(try URL(defaultsRepresentation: stored) as NSURL, to: Self.self)
    }
}

extension NSArray: DefaultsValueConvertible {
    /// Refused (nothing is written) when an element is not a property-list value.
    public func defaultsRepresentation() throws -> DefaultsStoredValue {
        try FoundationObject.storedValue(of: self, as: "NSArray")
    }
}

extension DefaultsValueConvertible where Self: NSArray {
    public init(defaultsRepresentation stored: DefaultsStoredValue) throws {
        guard case .array = stored, let elements = StoredObject.array(stored.propertyListObject) else {
            throw DefaultsTypeMismatch(expected: Self.self, found: stored.propertyListObject)
        }
        self = try FoundationObject.cast(NSArray(array: elements), to: Self.self)
    }
}

extension NSDictionary: DefaultsValueConvertible {
    /// Refused (nothing is written) when a key is not a string or a value not a property-list value.
    public func defaultsRepresentation() throws -> DefaultsStoredValue {
        try FoundationObject.storedValue(of: self, as: "NSDictionary")
    }
}

extension DefaultsValueConvertible where Self: NSDictionary {
    public init(defaultsRepresentation stored: DefaultsStoredValue) throws {
        guard case .dictionary = stored, let entries = StoredObject.dictionary(stored.propertyListObject) else {
            throw DefaultsTypeMismatch(expected: Self.self, found: stored.propertyListObject)
        }
        self = try FoundationObject.cast(NSDictionary(dictionary: entries), to: Self.self)
    }
}

/// Turning Foundation objects into the Swift property-list values the store writes, and back.
enum FoundationObject {
    /// The stored value of a Foundation object; refused, saying where in it, when it holds
    /// something that is no property list or nests deeper than a suite may hold.
    static func storedValue(of object: NSObject, as typeName: String) throws -> DefaultsStoredValue {
        let propertyList = propertyList(object)
        if let value = DefaultsStoredValue(propertyListObject: propertyList) { return value }
        throw StoredObject.storageProblem(propertyList)?.error(valueType: typeName)
            ?? NotAPropertyList(type: type(of: object))
    }

    /// `object` as `Type`, or a mismatch when `Type` is a subclass the stored value cannot make.
    static func cast<Object, Type>(_ object: Object, to type: Type.Type) throws -> Type {
        guard let cast = object as? Type else {
            throw DefaultsTypeMismatch(expected: String(describing: Type.self), found: "\(Object.self)")
        }
        return cast
    }

    /// The Swift property-list value for a Foundation object or a Swift value, recursively; an
    /// object that is none (a `NSNull`, a custom object) becomes one that ``Conversion`` refuses,
    /// so the write is reported and nothing is stored.
    static func propertyList(_ object: Any) -> Any {
        switch object {
        case let string as String: return string
        case let data as Data: return data
        case let date as Date: return date
        default: break
        }
        switch StoredObject.number(object) {
        case .bool(let value): return value
        case .signed(let value): return value
        case .unsigned(let value): return value
        case .floating(let value): return value
        case nil: break
        }
        if let elements = object as? NSArray { return elements.map(propertyList) }
        if let entries = object as? NSDictionary {
            var result: [String: Any] = [:]
            for (key, value) in entries {
                guard let key = key as? String else {
                    return StoredObject.NotAPropertyListObject(
                        found: "a key of type \(StoredObject.typeName(of: key)) (\(key)) in a dictionary")
                }
                result[key] = propertyList(value)
            }
            return result
        }
        // Refused by the encode, which names it and where it is.
        return object
    }
}
