import Foundation

/// The size a suite takes as Apple platforms store it, a binary property list, estimated on the
/// high side: what ``DefaultsSizeLimit`` is measured in. Each object counts its own bytes as the
/// format writes them, plus 8 for its entry in the offset table and the reference to it (at most
/// 4 each); strings and data are not counted once for all their copies, as a writer may.
extension StoredObject {
    /// The header, the trailer and the top dictionary's marker and offset: the marker at its
    /// largest (a count of 15 entries or more follows it as an integer of up to 8 bytes), so
    /// that the suite's size can change by entries without its marker counted again.
    static let emptySuiteSize = 8 + 32 + 10 + 4

    /// What an entry of a suite adds to it: its key and its value.
    static func entrySize(_ key: DefaultsStoredKey, _ object: StoredObject?) -> Int {
        guard let object else { return 0 }
        return keySize(key) + size(of: object.object)
    }

    /// How much a suite's size changes when `key` goes from `old` to `new`: a key kept costs
    /// nothing more, so only a key added or removed counts its own bytes.
    static func sizeChange(_ key: DefaultsStoredKey, from old: StoredObject?, to new: StoredObject?) -> Int {
        sizeChange(key, from: old.map { size(of: $0.object) }, to: new.map { size(of: $0.object) })
    }

    /// ``sizeChange(_:from:to:)`` from the sizes of the values, `nil` for none.
    static func sizeChange(_ key: DefaultsStoredKey, from old: Int?, to new: Int?) -> Int {
        switch (old, new) {
        case (nil, nil): 0
        case (let old?, let new?): new - old
        case (nil, let new?): keySize(key) + new
        case (let old?, nil): -(keySize(key) + old)
        }
    }

    /// A key's bytes, as a string object of the suite.
    private static func keySize(_ key: DefaultsStoredKey) -> Int {
        8 + stringBytes(key.name)
    }

    /// The estimated size of a suite holding `contents`.
    static func suiteSize(_ contents: [DefaultsStoredKey: StoredObject]) -> Int {
        contents.reduce(emptySuiteSize) { $0 + entrySize($1.key, $1.value) }
    }

    /// The bytes `object` takes, with everything in it.
    static func size(of object: Any) -> Int {
        size(of: object, seen: nil)
    }

    /// ``size(of:)`` of an object whose type is known where it is made: no existential is
    /// opened, which a write of a scalar paid for with a dynamic cast.
    static func size<Object>(ofTyped object: Object) -> Int {
        size(ofOpened: object, seen: nil)
    }

    /// Whether a value of `type` is its own property-list object, valid whatever its value:
    /// the library's `Int`, `Bool`, `Double`, `String` and `Data`, whose `_propertyListObject`
    /// is the value itself. A write of one needs no walk over the object to check it.
    static func isOwnObject<Object>(_ type: Object.Type) -> Bool {
        type == Int.self || type == Bool.self || type == Double.self || type == String.self || type == Data.self
    }

    private static func size(of object: Any, seen: SeenStorage?) -> Int {
        func opened<Object>(_ object: Object) -> Int { size(ofOpened: object, seen: seen) }
        return _openExistential(object, do: opened)
    }

    /// The text and data buffers met so far in one value: a file may hold one string thousands
    /// of times (a reader shares it, and a binary writer writes it once), and counting every copy
    /// would take a 35 KB file for 64 MB, and as long to count.
    private final class SeenStorage {
        var addresses = Set<UnsafeRawPointer>()

        /// Whether a buffer of `count` bytes at `address` is met for the first time. Small ones
        /// are not told apart: their bytes may sit in a temporary copy, at any address.
        func isFirst(_ address: UnsafeRawPointer?, count: Int) -> Bool {
            guard count >= 64, let address else { return true }
            return addresses.insert(address).inserted
        }
    }

    /// ``size(of:)`` with the object's own type: the common scalars are told by their type alone,
    /// with no dynamic cast (each one, from `Any`, costs hundreds of instructions on every
    /// write: a cast looks for a bridging conformance).
    private static func size<Object>(ofOpened object: Object, seen: SeenStorage?) -> Int {
        let overhead = 8
        // Each bit cast is of a value whose type was just found to be the target's.
        if Object.self == Int.self {
            return overhead + 1 + ScalarSize.integerBytes(Int64(unsafeBitCast(object, to: Int.self)))
        }
        if Object.self == Bool.self { return overhead + 1 }
        if Object.self == Double.self || Object.self == Float.self || Object.self == Date.self { return overhead + 9 }
        if Object.self == String.self { return overhead + stringBytes(unsafeBitCast(object, to: String.self), seen) }
        if Object.self == Data.self { return overhead + dataBytes(unsafeBitCast(object, to: Data.self), seen) }
        if let number = StoredObject.number(object) {
            switch number {
            case .bool: return overhead + 1
            case .signed(let value): return overhead + 1 + ScalarSize.integerBytes(value)
            case .unsigned: return overhead + 17
            case .floating: return overhead + 9
            }
        }
        if let string = object as? String { return overhead + stringBytes(string, seen) }
        if let data = object as? Data { return overhead + dataBytes(data, seen) }
        if object is Date { return overhead + 9 }
        let seen = seen ?? SeenStorage()
        if let entries = exactEntries(object) {
            return entries.reduce(overhead + marker(entries.count)) { total, entry in
                total + 8 + stringBytes(entry.key.name, seen) + size(of: entry.value, seen: seen)
            }
        }
        if let elements = array(object) {
            return elements.reduce(overhead + marker(elements.count)) { $0 + size(of: $1, seen: seen) }
        }
        // Not a property-list object: the engine never stores one; count it as an empty one.
        return overhead + 1
    }

    /// Data's bytes with their marker; none for a buffer met before in the same value.
    private static func dataBytes(_ data: Data, _ seen: SeenStorage?) -> Int {
        if let seen, !seen.isFirst(data.withUnsafeBytes { $0.baseAddress }, count: data.count) { return 0 }
        return marker(data.count) + data.count
    }

    /// A string's bytes with their marker, without the overhead: ASCII takes a byte a
    /// character, anything else UTF-16; none for a buffer met before in the same value.
    private static func stringBytes(_ string: String, _ seen: SeenStorage? = nil) -> Int {
        let utf8 = string.utf8
        if let seen,
            !seen.isFirst(
                utf8.withContiguousStorageIfAvailable { $0.baseAddress.map(UnsafeRawPointer.init) } ?? nil,
                count: utf8.count)
        {
            return 0
        }
        let isASCII = utf8.withContiguousStorageIfAvailable(isASCII) ?? utf8.allSatisfy { $0 < 0x80 }
        if isASCII { return marker(utf8.count) + utf8.count }
        let units = string.utf16.count
        return marker(units) + 2 * units
    }

    /// Whether every byte is below 0x80, eight at a time: a write measures the text it stores,
    /// and a byte at a time cost more than the rest of a `Codable` value's write.
    private static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let raw = UnsafeRawBufferPointer(bytes)
        var offset = 0
        var seen: UInt64 = 0
        while offset + 8 <= raw.count {
            seen |= raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            offset += 8
        }
        while offset < raw.count {
            seen |= UInt64(raw[offset])
            offset += 1
        }
        return seen & 0x8080_8080_8080_8080 == 0
    }

    /// A marker with a count: the count in the marker's byte up to 14, else an integer after it.
    private static func marker(_ count: Int) -> Int {
        count < 15 ? 1 : 2 + ScalarSize.byteCount(UInt64(count))
    }
}

/// ``StoredObject/size(ofTyped:)`` of an `Int`, `Bool` or `Double`, inlined where the type is
/// known, so that a write of one measures it without a call.
@usableFromInline enum ScalarSize {
    /// The size, or `nil` for any other type.
    @inlinable
    static func of<Object>(_ object: Object) -> Int? {
        if Object.self == Int.self { return 9 + integerBytes(Int64(unsafeBitCast(object, to: Int.self))) }
        if Object.self == Bool.self { return 9 }
        if Object.self == Double.self { return 17 }
        return nil
    }

    /// An integer's bytes after its marker: 8 for a negative one, as readers expect.
    @inlinable
    static func integerBytes(_ value: Int64) -> Int {
        value < 0 ? 8 : byteCount(UInt64(value))
    }

    /// The bytes of an unsigned integer as a property-list writer sizes it: 1, 2, 4 or 8.
    @inlinable
    static func byteCount(_ value: UInt64) -> Int {
        value <= 0xFF ? 1 : value <= 0xFFFF ? 2 : value <= 0xFFFF_FFFF ? 4 : 8
    }
}
