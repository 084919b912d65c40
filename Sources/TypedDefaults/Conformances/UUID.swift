import Foundation

/// UUIDs are stored as their string form (`"E621E1F8-C36C-495A-93FC-0C247A3E6E5F"`).
///
/// Plain `UserDefaults` on Linux crashes when handed a `UUID`.
///
/// ```swift
/// @UserDefault("installID") var installID = UUID()
/// ```
extension UUID: DefaultsValueConvertible {
    public init(defaultsRepresentation: String) throws {
        guard let uuid = UUID(uuidString: defaultsRepresentation) else {
            throw DefaultsTypeMismatch(expected: UUID.self, found: defaultsRepresentation)
        }
        self = uuid
    }

    public func defaultsRepresentation() -> String {
        hyphenatedUppercaseString
    }

    /// The same string as `uuidString`, formatted here in one pass: corelibs' `uuidString`
    /// took some 400 ns, twice the rest of a write.
    var hyphenatedUppercaseString: String {
        withUnsafeBytes(of: uuid) { bytes in
            String(unsafeUninitializedCapacity: 36) { text in
                var end = 0
                for (index, byte) in bytes.enumerated() {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        text[end] = UInt8(ascii: "-")
                        end += 1
                    }
                    text[end] = Self.hexDigit(byte >> 4)
                    text[end + 1] = Self.hexDigit(byte & 0x0F)
                    end += 2
                }
                return end
            }
        }
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "A") + nibble - 10
    }
}
