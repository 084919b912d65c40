import Foundation

/// A dictionary key in a property list, exactly as stored: its Unicode scalars, compared and
/// hashed byte for byte. Swift's `String` sees `"caf\u{E9}"` and `"cafe\u{301}"` as one key; a
/// file may hold both, and reading and writing it keeps both. The engine's own key,
/// `DefaultsStoredKey`, compares the same way; this is the storage side's, which cannot see it.
package struct PropertyListKey: Hashable, Comparable, Sendable {
    /// The key's name, scalar for scalar.
    package let name: String

    package init(_ name: String) {
        var name = name
        // Contiguous UTF-8, so comparing and hashing read the bytes in place.
        name.makeContiguousUTF8()
        self.name = name
    }

    package static func == (first: PropertyListKey, second: PropertyListKey) -> Bool {
        first.name.utf8.elementsEqual(second.name.utf8)
    }

    package func hash(into hasher: inout Hasher) {
        let hashed: Void? = name.utf8.withContiguousStorageIfAvailable { bytes in
            hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
        }
        if hashed == nil {
            for byte in name.utf8 { hasher.combine(byte) }
        }
        // 0xFF never occurs in UTF-8: it ends the key.
        hasher.combine(UInt8(0xFF))
    }

    /// Scalar order, which is the order of the keys' UTF-8 bytes.
    package static func < (first: PropertyListKey, second: PropertyListKey) -> Bool {
        first.name.utf8.lexicographicallyPrecedes(second.name.utf8)
    }
}
