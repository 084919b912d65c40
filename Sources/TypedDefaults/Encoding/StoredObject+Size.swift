import Foundation

/// The size a suite takes as Apple platforms store it, a binary property list, estimated on the
/// high side: what ``DefaultsSizeLimit`` is measured in. Each object counts its own bytes as the
/// format writes them, plus 8 for its entry in the offset table and the reference to it (at most
/// 4 each); strings and data are not counted once for all their copies, as a writer may.
extension StoredObject {
    /// The header, the trailer and the top dictionary's marker and offset of an empty suite.
    static let emptySuiteSize = 8 + 32 + 1 + 4

    /// What an entry of a suite adds to it: its key and its value.
    static func entrySize(_ key: DefaultsStoredKey, _ object: StoredObject?) -> Int {
        guard let object else { return 0 }
        return 8 + stringBytes(key.name) + size(of: object.object)
    }

    /// The estimated size of a suite holding `contents`.
    static func suiteSize(_ contents: [DefaultsStoredKey: StoredObject]) -> Int {
        contents.reduce(emptySuiteSize) { $0 + entrySize($1.key, $1.value) }
    }

    /// The bytes `object` takes, with everything in it. The value's type is compared first, as a
    /// cast of a Swift value to a Foundation type bridges it.
    static func size(of object: Any) -> Int {
        let overhead = 8
        let kind = type(of: object)
        if kind == Int.self || kind == Int64.self, let value = object as? Int64 ?? (object as? Int).map(Int64.init) {
            return overhead + 1 + (value < 0 ? 8 : byteCount(UInt64(value)))
        }
        if kind == Bool.self { return overhead + 1 }
        if kind == Double.self || kind == Float.self || kind == Date.self { return overhead + 9 }
        if kind == UInt64.self { return overhead + 17 }
        if kind == String.self, let string = object as? String { return overhead + stringBytes(string) }
        if let data = object as? Data { return overhead + marker(data.count) + data.count }
        if let number = StoredObject.number(object) {
            switch number {
            case .bool: return overhead + 1
            case .signed(let value): return overhead + 1 + (value < 0 ? 8 : byteCount(UInt64(value)))
            case .unsigned: return overhead + 17
            case .floating: return overhead + 9
            }
        }
        if let string = object as? String { return overhead + stringBytes(string) }
        if object is Date { return overhead + 9 }
        if let entries = exactEntries(object) {
            return entries.reduce(overhead + marker(entries.count)) { total, entry in
                total + 8 + stringBytes(entry.key.name) + size(of: entry.value)
            }
        }
        if let elements = array(object) {
            return elements.reduce(overhead + marker(elements.count)) { $0 + size(of: $1) }
        }
        // Not a property-list object: the engine never stores one; count it as an empty one.
        return overhead + 1
    }

    /// A string's bytes with their marker, without the overhead: ASCII takes a byte a
    /// character, anything else UTF-16.
    private static func stringBytes(_ string: String) -> Int {
        let utf8 = string.utf8
        if utf8.allSatisfy({ $0 < 0x80 }) { return marker(utf8.count) + utf8.count }
        let units = string.utf16.count
        return marker(units) + 2 * units
    }

    /// A marker with a count: the count in the marker's byte up to 14, else an integer after it.
    private static func marker(_ count: Int) -> Int {
        count < 15 ? 1 : 2 + byteCount(UInt64(count))
    }

    private static func byteCount(_ value: UInt64) -> Int {
        value <= 0xFF ? 1 : value <= 0xFFFF ? 2 : value <= 0xFFFF_FFFF ? 4 : 8
    }
}
