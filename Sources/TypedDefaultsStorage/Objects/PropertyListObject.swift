import Foundation

/// Reading the loosely typed objects that property lists and `UserDefaults` hold, whether boxed
/// or not.
///
/// corelibs Foundation hands back arrays as `[Any?]` and dictionaries as `[AnyHashable: Any?]`,
/// numbers as `Int`, `Int64`, `UInt64`, `Double` or `NSNumber` depending on how they were
/// written and whether the file was re-read, and booleans as numbers. These helpers turn that
/// into exact answers, for the format readers and writers here and for the engine's typed reads.
package enum PropertyListObject {
    /// A number as it was stored, without lossy conversion.
    package enum Number {
        case bool(Bool)
        case signed(Int64)
        case unsigned(UInt64)
        case floating(Double)
    }

    /// The number stored in `object`, or `nil` when it is not a number. Inlinable: every write
    /// and typed read asks it, and a call into this module would cost more than the answer.
    @inlinable
    package static func number(_ object: Any) -> Number? {
        // Swift's own number types first, by exact type: `as? NSNumber` would box each one.
        let kind = type(of: object)
        if kind == Int.self, let value = object as? Int { return .signed(Int64(value)) }
        if kind == Double.self, let value = object as? Double { return .floating(value) }
        if kind == Bool.self, let value = object as? Bool { return .bool(value) }
        if kind == Int64.self, let value = object as? Int64 { return .signed(value) }
        if kind == UInt64.self, let value = object as? UInt64 { return .unsigned(value) }
        if kind == Float.self, let value = object as? Float { return .floating(Double(value)) }
        guard let number = object as? NSNumber else { return nil }
        return foundationNumber(number)
    }

    /// The number an `NSNumber` holds, by the type it was made with.
    @usableFromInline
    package static func foundationNumber(_ number: NSNumber) -> Number {
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
    package static func array(_ object: Any) -> [Any]? {
        guard let elements = object as? [Any?] else { return nil }
        // A nil element cannot come from a property list; keep it so the element read fails.
        return elements.map { $0 ?? Missing() }
    }

    /// The entries of a stored dictionary, or `nil` when `object` is not a `String`-keyed one, or
    /// is an ``ExactDictionary``, which no Swift dictionary can hold (a typed read of it is a
    /// mismatch, its bytes left as they are).
    package static func dictionary(_ object: Any) -> [String: Any]? {
        guard let entries = object as? [String: Any?] else { return nil }
        return entries.mapValues { $0 ?? Missing() }
    }

    /// The entries of a stored dictionary with their keys exactly as stored, an
    /// ``ExactDictionary``'s included; `nil` when `object` is no dictionary.
    package static func exactEntries(_ object: Any) -> [PropertyListKey: Any]? {
        if let exact = object as? ExactDictionary { return exact.entries }
        guard let entries = dictionary(object) else { return nil }
        var exact: [PropertyListKey: Any] = [:]
        exact.reserveCapacity(entries.count)
        for (key, value) in entries { exact[PropertyListKey(key)] = value }
        return exact
    }

    /// A stored dictionary with keys that differ in their Unicode scalars but that Swift's
    /// `String` sees as equal (`"caf\u{E9}"` and `"cafe\u{301}"`): another program's, read
    /// from a suite. It is kept exactly, so a commit writes both keys back as they were; a typed
    /// read of it is a mismatch, since no `[String: Value]` can hold both.
    package struct ExactDictionary {
        package let entries: [PropertyListKey: Any]

        package init(_ entries: [PropertyListKey: Any]) {
            self.entries = entries
        }

        package init(_ pairs: [(key: String, value: Any)]) {
            var entries: [PropertyListKey: Any] = [:]
            for (key, value) in pairs { entries[PropertyListKey(key)] = value }
            self.entries = entries
        }
    }

    /// Stands in for a hole in a stored collection.
    package struct Missing: CustomStringConvertible {
        package var description: String { "nothing" }
    }

    /// A short description of a stored object for error messages, such as `String "abc"`.
    package static func describe(_ object: Any) -> String {
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
}
