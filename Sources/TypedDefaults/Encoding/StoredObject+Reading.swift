import Foundation

/// Reading the loosely typed objects that `UserDefaults` returns, whether boxed or not.
///
/// corelibs Foundation hands back arrays as `[Any?]` and dictionaries as `[AnyHashable: Any?]`,
/// numbers as `Int`, `Int64`, `UInt64`, `Double` or `NSNumber` depending on how they were
/// written and whether the file was re-read, and booleans as numbers. These helpers turn that
/// into exact answers.
extension StoredObject {
    /// A number as it was stored, without lossy conversion.
    enum Number {
        case bool(Bool)
        case signed(Int64)
        case unsigned(UInt64)
        case floating(Double)
    }

    /// The number stored in `object`, or `nil` when it is not a number.
    static func number(_ object: Any) -> Number? {
        // Swift's own number types first, by exact type: `as? NSNumber` would box each one.
        let kind = type(of: object)
        if kind == Int.self, let value = object as? Int { return .signed(Int64(value)) }
        if kind == Double.self, let value = object as? Double { return .floating(value) }
        if kind == Bool.self, let value = object as? Bool { return .bool(value) }
        if kind == Int64.self, let value = object as? Int64 { return .signed(value) }
        if kind == UInt64.self, let value = object as? UInt64 { return .unsigned(value) }
        if kind == Float.self, let value = object as? Float { return .floating(Double(value)) }
        guard let number = object as? NSNumber else { return nil }
        if number.isBoolean { return .bool(number.boolValue) }
        switch UInt8(bitPattern: number.objCType.pointee) {
        case UInt8(ascii: "f"), UInt8(ascii: "d"):
            return .floating(number.doubleValue)
        case UInt8(ascii: "Q"), UInt8(ascii: "L"), UInt8(ascii: "I"), UInt8(ascii: "S"),
            UInt8(ascii: "C"):
            return .unsigned(number.uint64Value)
        default:
            return .signed(number.int64Value)
        }
    }

    /// The elements of a stored array, or `nil` when `object` is not an array.
    static func array(_ object: Any) -> [Any]? {
        guard let elements = object as? [Any?] else { return nil }
        // A nil element cannot come from a property list; keep it so the element read fails.
        return elements.map { $0 ?? Missing() }
    }

    /// The entries of a stored dictionary, or `nil` when `object` is not a `String`-keyed one, or
    /// is an ``ExactDictionary``, which no Swift dictionary can hold (a typed read of it is a
    /// mismatch, its bytes left as they are).
    static func dictionary(_ object: Any) -> [String: Any]? {
        guard let entries = object as? [String: Any?] else { return nil }
        return entries.mapValues { $0 ?? Missing() }
    }

    /// The entries of a stored dictionary with their keys exactly as stored, an
    /// ``ExactDictionary``'s included; `nil` when `object` is no dictionary.
    package static func exactEntries(_ object: Any) -> [DefaultsStoredKey: Any]? {
        if let exact = object as? ExactDictionary { return exact.entries }
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
        return dictionary.count == entries.count ? dictionary : ExactDictionary(entries)
    }

    /// A stored dictionary with keys that differ in their Unicode scalars but that Swift's
    /// `String` sees as equal (`"caf\u{E9}"` and `"cafe\u{301}"`): another program's, read
    /// from a suite. It is kept exactly, so a commit writes both keys back as they were; a typed
    /// read of it is a mismatch, since no `[String: Value]` can hold both.
    struct ExactDictionary {
        let entries: [DefaultsStoredKey: Any]

        init(_ entries: [DefaultsStoredKey: Any]) {
            self.entries = entries
        }

        init(_ pairs: [(key: String, value: Any)]) {
            var entries: [DefaultsStoredKey: Any] = [:]
            for (key, value) in pairs { entries[DefaultsStoredKey(key)] = value }
            self.entries = entries
        }
    }

    /// Stands in for a hole in a stored collection.
    struct Missing: CustomStringConvertible {
        var description: String { "nothing" }
    }

    /// A short description of a stored object for error messages, such as `String "abc"`.
    static func describe(_ object: Any) -> String {
        if let string = object as? String {
            let shown = string.count > 40 ? String(string.prefix(40)) + "…" : string
            return "String \(String(reflecting: shown))"
        }
        if let number = number(object) {
            switch number {
            case .bool(let value): return "Bool \(value)"
            case .signed(let value): return "integer \(value)"
            case .unsigned(let value): return "integer \(value)"
            case .floating(let value): return "floating-point \(value)"
            }
        }
        if let data = object as? Data { return "Data (\(data.count) bytes)" }
        if let date = object as? Date { return "Date \(date)" }
        if let elements = array(object) { return "Array (\(elements.count) elements)" }
        if let entries = dictionary(object) { return "Dictionary (\(entries.count) entries)" }
        if let exact = object as? ExactDictionary {
            return "Dictionary (\(exact.entries.count) entries, some keys equal as Swift strings)"
        }
        if object is Missing { return "nothing" }
        return String(describing: type(of: object))
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
