import Foundation
import TypedDefaultsStorage

/// Reading the loosely typed objects that `UserDefaults` returns, whether boxed or not.
///
/// corelibs Foundation hands back arrays as `[Any?]` and dictionaries as `[AnyHashable: Any?]`,
/// numbers as `Int`, `Int64`, `UInt64`, `Double` or `NSNumber` depending on how they were
/// written and whether the file was re-read, and booleans as numbers. These helpers turn that
/// into exact answers.
extension StoredObject {
    /// A number as it was stored, without lossy conversion.
    typealias Number = PropertyListObject.Number
    typealias ExactDictionary = PropertyListObject.ExactDictionary
    typealias Missing = PropertyListObject.Missing

    /// The number stored in `object`, or `nil` when it is not a number.
    @inline(__always)
    static func number(_ object: Any) -> Number? {
        PropertyListObject.number(object)
    }

    /// The elements of a stored array, or `nil` when `object` is not an array.
    static func array(_ object: Any) -> [Any]? {
        PropertyListObject.array(object)
    }

    /// The entries of a stored dictionary, or `nil` when `object` is not a `String`-keyed one, or
    /// is an ``ExactDictionary``, which no Swift dictionary can hold (a typed read of it is a
    /// mismatch, its bytes left as they are).
    static func dictionary(_ object: Any) -> [String: Any]? {
        PropertyListObject.dictionary(object)
    }

    /// The entries of a stored dictionary with their keys exactly as stored, an
    /// ``ExactDictionary``'s included; `nil` when `object` is no dictionary.
    package static func exactEntries(_ object: Any) -> [DefaultsStoredKey: Any]? {
        if let exact = object as? ExactDictionary { return exact.storedEntries }
        guard let entries = dictionary(object) else { return nil }
        var exact: [DefaultsStoredKey: Any] = [:]
        exact.reserveCapacity(entries.count)
        for (key, value) in entries { exact[DefaultsStoredKey(key)] = value }
        return exact
    }

    /// The object for a dictionary of exact keys: a `[String: Any]`, as the engine writes, unless
    /// two keys are one as Swift strings.
    static func dictionaryObject(_ entries: [DefaultsStoredKey: Any]) -> Any {
        var dictionary: [String: Any] = [:]
        dictionary.reserveCapacity(entries.count)
        for (key, value) in entries { dictionary[key.name] = value }
        guard dictionary.count != entries.count else { return dictionary }
        var exact: [PropertyListKey: Any] = [:]
        for (key, value) in entries { exact[PropertyListKey(key.name)] = value }
        return ExactDictionary(exact)
    }

    /// A short description of a stored object for error messages, such as `String "abc"`.
    static func describe(_ object: Any) -> String {
        PropertyListObject.describe(object)
    }

    /// The deepest nesting of arrays and dictionaries a stored value may have. CoreFoundation's
    /// parser refuses a file nested 512 levels deep (the suite's own dictionary is one), and
    /// Python's `plistlib` a binary file whose arrays nest more than 331 deep (its recursion
    /// limit); 250 leaves room below both, and far above any real setting.
    package static let maximumNestingDepth = 250

    /// Why `object` cannot be stored, or `nil` when it can: it holds something that is no
    /// property list (`UserDefaults.set` would crash on it), or its arrays and dictionaries nest
    /// deeper than ``maximumNestingDepth``. One walk over the value checks both, and stops at
    /// that depth, so a hostile value cannot exhaust the stack. The problem says where in the
    /// value it is.
    static func storageProblem(_ object: Any, depth: Int = 0) -> StorageProblem? {
        // Swift's own scalar types by exact type first: each `is` below is a dynamic cast, and
        // checking a written `Int` by casts cost more than the rest of the write.
        let kind = ObjectIdentifier(type(of: object))
        if scalarTypes.contains(where: { $0 == kind }) { return nil }
        let children: [(step: String, child: Any)]
        switch object {
        case is String, is Data, is Date, is Bool, is Int, is Int64, is UInt64, is Double, is Float:
            return nil
        case let elements as [Any]:
            children = elements.enumerated().map { ("[\($0.offset)]", $0.element) }
        case let entries as [String: Any]:
            children = entries.sorted { $0.key < $1.key }.map { ("[\(String(reflecting: $0.key))]", $0.value) }
        case let exact as ExactDictionary:
            children = exact.entries.sorted { $0.key < $1.key }.map {
                ("[\(String(reflecting: $0.key.name))]", $0.value)
            }
        case let refused as NotAPropertyListObject:
            return .notAPropertyList(path: "", found: refused.found)
        default:
            return .notAPropertyList(path: "", found: typeName(of: object))
        }
        guard depth < maximumNestingDepth else { return .nestedTooDeeply }
        for (step, child) in children {
            switch storageProblem(child, depth: depth + 1) {
            case .notAPropertyList(let path, let found)?: return .notAPropertyList(path: step + path, found: found)
            case let problem?: return problem
            case nil: continue
            }
        }
        return nil
    }

    /// The name of `object`'s type as a program writes it: `Date` for an `NSDate`, `NSNull`,
    /// `UUID`, `Set<Int>`.
    static func typeName(of object: Any) -> String {
        switch object {
        case is Date: return "Date"
        case is Data: return "Data"
        case is String: return "String"
        case is NSNull: return "NSNull"
        default: break
        }
        if number(object) != nil { return "a number" }
        let name = String(describing: type(of: object))
        // corelibs' private subclasses (`__NSCFString`, `__SwiftValue`) mean nothing to a reader.
        return name.hasPrefix("__") ? String(describing: type(of: object as AnyObject)) : name
    }

    /// Stands in for a part of a Foundation object that is no property list (a dictionary key
    /// that is not a string), so that the write is refused saying what it was.
    struct NotAPropertyListObject {
        let found: String
    }

    private static let scalarTypes = [
        String.self, Int.self, Double.self, Bool.self, Date.self, Data.self, Int64.self, UInt64.self, Float.self,
    ].map { ObjectIdentifier($0) }

    enum StorageProblem: Equatable {
        /// What was found at `path` (`["prefs"][2]`, empty for the value itself).
        case notAPropertyList(path: String, found: String)
        case nestedTooDeeply

        /// The error a refused write reports; `valueType` is the type the program wrote.
        func error(valueType: String?) -> any Error {
            switch self {
            case .notAPropertyList(let path, let found):
                NotAPropertyList(valueType: valueType, path: path, found: found)
            case .nestedTooDeeply:
                NestedTooDeeply()
            }
        }
    }
}

extension PropertyListObject.ExactDictionary {
    /// The entries, keyed as the engine keys a suite.
    var storedEntries: [DefaultsStoredKey: Any] {
        var stored: [DefaultsStoredKey: Any] = [:]
        stored.reserveCapacity(entries.count)
        for (key, value) in entries { stored[DefaultsStoredKey(key.name)] = value }
        return stored
    }
}
