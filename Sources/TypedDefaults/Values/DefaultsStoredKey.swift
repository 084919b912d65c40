import Foundation

/// The name of a key as a suite stores it: an exact sequence of Unicode scalars.
///
/// Swift's `String` compares by canonical equivalence, so `"caf\u{E9}" == "cafe\u{301}"` and a
/// `[String: …]` dictionary holds only one of the two. A suite compares its keys scalar by
/// scalar, as `UserDefaults`, CoreFoundation and PostgreSQL do, so another program may well
/// store both, each with its own value. Stored values are keyed by this type, which compares
/// and hashes the scalars themselves, so both keys survive every read and write:
///
/// ```swift
/// let values = try store.storedValues()
/// values["caf\u{E9}"]          // the value stored under the precomposed é
/// values["cafe\u{301}"]        // the one stored under e and a combining acute accent
/// ```
///
/// Keys sort by their scalars (the order of their UTF-8 bytes), so a listing has one order
/// whatever the keys' normalization.
public struct DefaultsStoredKey: Hashable, Comparable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible,
    CustomDebugStringConvertible
{
    /// The key's name, scalar for scalar as it is stored.
    public let name: String

    /// The key named exactly `name`: no normalization is applied.
    public init(_ name: String) {
        var name = name
        // Contiguous UTF-8, so comparing and hashing read the bytes in place.
        name.makeContiguousUTF8()
        self.name = name
    }

    public init(stringLiteral name: String) {
        self.init(name)
    }

    public static func == (first: DefaultsStoredKey, second: DefaultsStoredKey) -> Bool {
        let compared = first.name.utf8.withContiguousStorageIfAvailable { firstBytes in
            second.name.utf8.withContiguousStorageIfAvailable { secondBytes in
                guard firstBytes.count == secondBytes.count else { return false }
                guard let firstStart = firstBytes.baseAddress, let secondStart = secondBytes.baseAddress else {
                    return true
                }
                return memcmp(firstStart, secondStart, firstBytes.count) == 0
            }
        }
        if let compared = compared.flatMap({ $0 }) { return compared }
        return first.name.utf8.elementsEqual(second.name.utf8)
    }

    public func hash(into hasher: inout Hasher) {
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
    public static func < (first: DefaultsStoredKey, second: DefaultsStoredKey) -> Bool {
        let compared = first.name.utf8.withContiguousStorageIfAvailable { firstBytes in
            second.name.utf8.withContiguousStorageIfAvailable { secondBytes in
                guard let firstStart = firstBytes.baseAddress, let secondStart = secondBytes.baseAddress else {
                    return firstBytes.count < secondBytes.count
                }
                let order = memcmp(firstStart, secondStart, min(firstBytes.count, secondBytes.count))
                return order != 0 ? order < 0 : firstBytes.count < secondBytes.count
            }
        }
        if let compared = compared.flatMap({ $0 }) { return compared }
        return first.name.utf8.lexicographicallyPrecedes(second.name.utf8)
    }

    public var description: String { name }

    /// The name quoted, every scalar beyond printable ASCII written as `\u{…}`, so that two
    /// keys that look alike can be told apart: `"cafe\u{301}"`.
    public var debugDescription: String {
        var text = "\""
        for scalar in name.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case " "..."~": text.unicodeScalars.append(scalar)
            default: text += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            }
        }
        return text + "\""
    }
}
