import Foundation
import TypedDefaultsStorage

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
// value, and read back only where Foundation can make the subclass of it; where it cannot, the
// read reports a type mismatch and gives the default.

/// Foundation's property-list classes, which store the values they hold: `NSString`, `NSNumber`,
/// `NSDate`, `NSData`, `NSURL`, `NSArray` and `NSDictionary` conform already, each stored exactly
/// as its Swift counterpart is (`NSString` as `String`, `NSDate` as `Date`). Nothing else can
/// conform: the library knows how to make each of these classes again, and no other.
public protocol DefaultsPropertyListClass: DefaultsValueConvertible
where DefaultsRepresentation == DefaultsStoredValue {}

extension DefaultsPropertyListClass {
    public init(defaultsRepresentation stored: DefaultsStoredValue) throws {
        self = try FoundationObject.cast(try FoundationObject.object(of: Self.self, from: stored), to: Self.self)
    }

    /// Refused (nothing is written) when an element of an array or dictionary is not a
    /// property-list value.
    public func defaultsRepresentation() throws -> DefaultsStoredValue {
        try FoundationObject.storedValue(of: self)
    }
}

extension NSString: DefaultsPropertyListClass {}
extension NSNumber: DefaultsPropertyListClass {}
extension NSDate: DefaultsPropertyListClass {}
extension NSData: DefaultsPropertyListClass {}
extension NSURL: DefaultsPropertyListClass {}
extension NSArray: DefaultsPropertyListClass {}
extension NSDictionary: DefaultsPropertyListClass {}

/// Turning Foundation objects into the Swift property-list values the store writes, and back.
enum FoundationObject {
    /// The stored value of one of Foundation's property-list classes: what its Swift counterpart
    /// stores, for a string, a date, data and a URL.
    static func storedValue(of object: Any) throws -> DefaultsStoredValue {
        switch object {
        case let string as NSString:
            return try stored(String(describing: string))
        case let date as NSDate:
            return try stored(Date(timeIntervalSinceReferenceDate: date.timeIntervalSinceReferenceDate))
        case let data as NSData:
            return try stored(Data(referencing: data))
        case let url as NSURL:
            guard let absolute = url.absoluteURL else { throw NotAPropertyList(type: NSURL.self) }
            return absolute.defaultsRepresentation()
        case let number as NSNumber: return try storedValue(of: number, as: "NSNumber")
        case let array as NSArray: return try storedValue(of: array, as: "NSArray")
        case let dictionary as NSDictionary: return try storedValue(of: dictionary, as: "NSDictionary")
        default: throw NotAPropertyList(type: type(of: object))
        }
    }

    /// An object of the property-list class `type` (or of the class it derives from) for a
    /// stored value: what its Swift counterpart reads, for a string, a date, data and a URL.
    static func object(of type: Any.Type, from stored: DefaultsStoredValue) throws -> NSObject {
        switch type {
        case is NSString.Type: return NSString(string: try value(String.self, from: stored))
        case is NSDate.Type:
            let date = try value(Date.self, from: stored)
            return NSDate(timeIntervalSinceReferenceDate: date.timeIntervalSinceReferenceDate)
        case is NSData.Type: return NSData(data: try value(Data.self, from: stored))
        case is NSURL.Type: return try URL(defaultsRepresentation: stored) as NSURL
        case is NSNumber.Type:
            switch stored {
            case .boolean(let value): return NSNumber(value: value)
            case .integer(let value): return NSNumber(value: value)
            case .unsignedInteger(let value): return NSNumber(value: value)
            case .real(let value): return NSNumber(value: value)
            default: break
            }
        case is NSArray.Type:
            if case .array = stored, let elements = StoredObject.array(stored.plistObject) {
                return NSArray(array: elements)
            }
        case is NSDictionary.Type:
            if case .dictionary = stored, let entries = StoredObject.dictionary(stored.plistObject) {
                return NSDictionary(dictionary: entries)
            }
        default: break
        }
        throw DefaultsTypeMismatch(expected: type, found: stored.plistObject)
    }

    /// The stored value of a Swift value, as the value itself is stored.
    private static func stored<Value: DefaultsValueConvertible>(_ value: Value) throws -> DefaultsStoredValue {
        let object = try value.defaultsRepresentation()._propertyListObject
        guard let stored = DefaultsStoredValue(plistObject: object) else {
            throw NotAPropertyList(type: Value.self)
        }
        return stored
    }

    /// A Swift value read from a stored value, as the value itself is read.
    private static func value<Value: DefaultsValueConvertible>(_ type: Value.Type, from stored: DefaultsStoredValue)
        throws -> Value
    {
        try Value(defaultsRepresentation: Value.DefaultsRepresentation(storedObject: stored.plistObject))
    }

    /// The stored value of a Foundation object; refused, saying where in it, when it holds
    /// something that is no property list or nests deeper than a suite may hold.
    static func storedValue(of object: NSObject, as typeName: String) throws -> DefaultsStoredValue {
        let propertyList = propertyList(object)
        if let value = DefaultsStoredValue(plistObject: propertyList) { return value }
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
