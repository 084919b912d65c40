import Foundation

/// The values of an XML property list's elements, read from their text as CoreFoundation reads
/// them.
extension XMLPropertyListReader {
    /// A date as corelibs writes one, its year as it comes (`-028-12-03T06:13:20Z` for the year
    /// −28, `10101-01-01T06:00:00Z`), read as the ISO 8601 text it stands for (`-0028`, `+10101`).
    static func date(_ text: String) -> Date? {
        var rest = Substring(text)
        var sign = ""
        if let first = rest.first, first == "-" || first == "+" {
            sign = String(first)
            rest = rest.dropFirst()
        }
        let digits = rest.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty else { return nil }
        let year = String(repeating: "0", count: max(0, 4 - digits.count)) + digits
        if sign.isEmpty, year.count > 4 { sign = "+" }
        return DateText.parse(sign + year + rest.dropFirst(digits.count))
    }

    /// `Int`, or `UInt64` above `Int64.max`: decimal or `0x` hexadecimal, with an optional sign.
    static func integer(_ text: String) -> Any? {
        var digits = Substring(text)
        var negative = false
        if let sign = digits.first, sign == "-" || sign == "+" {
            negative = sign == "-"
            digits = digits.dropFirst()
        }
        var radix = 10
        if digits.hasPrefix("0x") || digits.hasPrefix("0X") {
            radix = 16
            digits = digits.dropFirst(2)
        }
        guard !digits.isEmpty, digits.allSatisfy({ $0.isHexDigit && (radix == 16 || $0.isNumber) }),
            let magnitude = UInt64(digits, radix: radix)
        else { return nil }
        if negative {
            if magnitude == 0 { return 0 }
            guard magnitude <= UInt64(Int64.max) + 1 else { return nil }
            return Int(truncatingIfNeeded: 0 &- magnitude)
        }
        return magnitude <= UInt64(Int64.max) ? Int(magnitude) as Any : magnitude as Any
    }

    /// A decimal real, or `nan`, `inf`, `infinity` with an optional sign, in any case.
    static func real(_ text: String) -> Double? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        switch trimmed.lowercased() {
        case "nan": return .nan
        case "inf", "+inf", "infinity", "+infinity": return .infinity
        case "-inf", "-infinity": return -.infinity
        default: break
        }
        guard !trimmed.isEmpty,
            trimmed.allSatisfy({ $0.isNumber && $0.isASCII || "+-.eE".contains($0) }),
            let value = Double(trimmed)
        else { return nil }
        return value
    }

    /// A Base64 digit's value; `=` is 0, as CoreFoundation counts it.
    static func base64Value(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): UInt32(byte - UInt8(ascii: "A"))
        case UInt8(ascii: "a")...UInt8(ascii: "z"): UInt32(byte - UInt8(ascii: "a")) + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0")) + 52
        case UInt8(ascii: "+"): 62
        case UInt8(ascii: "/"): 63
        case UInt8(ascii: "="): 0
        default: nil
        }
    }
}
