import Foundation

/// Reads an OpenStep (old-style, NeXT) property list, as CoreFoundation does: `{ key = value; }`
/// dictionaries, `( a, b )` arrays, `<0fbd77>` data and strings, quoted or bare; a top level of
/// `key = value;` pairs without braces (a strings file) is a dictionary. Everything else is a
/// string: the format has no numbers, booleans or dates. Comments (`//`, `/* */`) are skipped.
struct OpenStepPropertyListReader {
    private let bytes: [UInt8]
    private var position: Int

    init(bytes: [UInt8], start: Int) {
        self.bytes = bytes
        position = start
    }

    mutating func read() throws(PropertyListFormatError) -> Any {
        try skipSpace()
        let start = position
        let root = try object(depth: 1)
        try skipSpace()
        if root is String, peek() == UInt8(ascii: "=") {
            // A strings file: the whole text is the entries of a dictionary.
            position = start
            let entries = try dictionaryEntries(until: nil, depth: 1)
            return entries
        }
        guard position == bytes.count else { throw fail("text follows the property list") }
        return root
    }

    private func fail(_ reason: String) -> PropertyListFormatError {
        PropertyListFormatError("OpenStep property list: \(reason) (at byte \(position))")
    }

    private func peek() -> UInt8? {
        position < bytes.count ? bytes[position] : nil
    }

    private mutating func object(depth: Int) throws(PropertyListFormatError) -> Any {
        let limit = PropertyListReader.Limits.maximumDepth
        guard let first = peek() else { throw fail("a value was expected, and the text ends") }
        switch first {
        case UInt8(ascii: "{"):
            guard depth < limit else { throw fail("it nests deeper than \(limit) levels") }
            position += 1
            return try dictionaryEntries(until: UInt8(ascii: "}"), depth: depth)
        case UInt8(ascii: "("):
            guard depth < limit else { throw fail("it nests deeper than \(limit) levels") }
            position += 1
            var elements: [Any] = []
            while true {
                try skipSpace()
                if peek() == UInt8(ascii: ")") {
                    position += 1
                    return elements
                }
                elements.append(try object(depth: depth + 1))
                try skipSpace()
                if peek() == UInt8(ascii: ",") {
                    position += 1
                } else if peek() != UInt8(ascii: ")") {
                    throw fail("an array's elements are separated by commas")
                }
            }
        case UInt8(ascii: "<"):
            position += 1
            return try data()
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
            position += 1
            return try quoted(until: first)
        default:
            let start = position
            while let byte = peek(), Self.isBare(byte) { position += 1 }
            guard position > start else { throw fail("\(Self.describe(first)) starts no value") }
            return String(decoding: bytes[start..<position], as: UTF8.self)
        }
    }

    /// `key = value;` entries up to `end` (`nil`: the end of the text).
    private mutating func dictionaryEntries(until end: UInt8?, depth: Int) throws(PropertyListFormatError) -> Any {
        var builder = DictionaryBuilder(capacity: 8)
        while true {
            try skipSpace()
            if let end, peek() == end {
                position += 1
                return builder.build()
            }
            if end == nil, peek() == nil { return builder.build() }
            guard let key = try object(depth: depth + 1) as? String else { throw fail("a key must be a string") }
            try skipSpace()
            guard peek() == UInt8(ascii: "=") else { throw fail("the key \(String(reflecting: key)) has no = value") }
            position += 1
            try skipSpace()
            builder.add(key, try object(depth: depth + 1))
            try skipSpace()
            guard peek() == UInt8(ascii: ";") else { throw fail("an entry ends with ;") }
            position += 1
        }
    }

    /// Hexadecimal digits up to `>`, spaces between them allowed.
    private mutating func data() throws(PropertyListFormatError) -> Data {
        var result: [UInt8] = []
        var high: UInt8?
        while let byte = peek() {
            position += 1
            if byte == UInt8(ascii: ">") {
                guard high == nil else { throw fail("data has an odd number of digits") }
                return Data(result)
            }
            if PropertyListReader.isWhitespace(byte) { continue }
            guard let digit = Self.hexDigit(byte) else { throw fail("data holds \(Self.describe(byte))") }
            if let first = high {
                result.append(first << 4 | digit)
                high = nil
            } else {
                high = digit
            }
        }
        throw fail("data is not closed with >")
    }

    /// A quoted string's text, escapes decoded: `\n` and the other C escapes, `\ooo` octal (a byte
    /// of the NeXTSTEP character set) and `\Uxxxx` UTF-16 units (a surrogate pair in two escapes;
    /// a lone one refused).
    private mutating func quoted(until quote: UInt8) throws(PropertyListFormatError) -> String {
        var units: [UInt16] = []
        var runStart = position
        func flush(_ end: Int) throws(PropertyListFormatError) {
            guard let run = PropertyListReader.utf8String(bytes[runStart..<end]) else {
                throw fail("a string is not UTF-8")
            }
            units.append(contentsOf: run.utf16)
        }
        while let byte = peek() {
            if byte == quote {
                try flush(position)
                position += 1
                guard let string = PropertyListReader.utf16String(units) else {
                    throw fail("a string holds a lone surrogate")
                }
                return string
            }
            guard byte == UInt8(ascii: "\\") else {
                position += 1
                continue
            }
            try flush(position)
            position += 1
            units.append(contentsOf: try escape())
            runStart = position
        }
        throw fail("a string is not closed")
    }

    private mutating func escape() throws(PropertyListFormatError) -> [UInt16] {
        guard let byte = peek() else { throw fail("a string ends in a backslash") }
        position += 1
        switch byte {
        case UInt8(ascii: "a"): return [0x07]
        case UInt8(ascii: "b"): return [0x08]
        case UInt8(ascii: "f"): return [0x0C]
        case UInt8(ascii: "n"): return [0x0A]
        case UInt8(ascii: "r"): return [0x0D]
        case UInt8(ascii: "t"): return [0x09]
        case UInt8(ascii: "v"): return [0x0B]
        case UInt8(ascii: "U"), UInt8(ascii: "u"):
            var value: UInt16 = 0
            for _ in 0..<4 {
                guard let next = peek(), let digit = Self.hexDigit(next) else { break }
                value = value << 4 | UInt16(digit)
                position += 1
            }
            return [value]
        case UInt8(ascii: "0")...UInt8(ascii: "7"):
            // One byte, as CoreFoundation reads it: three digits past `\377` keep their low eight
            // bits, and a byte past ASCII is a character of the NeXTSTEP set.
            var value = byte - UInt8(ascii: "0")
            for _ in 0..<2 {
                guard let next = peek(), (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(next) else { break }
                value = value &<< 3 | (next - UInt8(ascii: "0"))
                position += 1
            }
            return [value < 0x80 ? UInt16(value) : Self.nextStep[Int(value) - 0x80]]
        default:
            // `\"`, `\\` and any other character stand for themselves.
            position -= 1
            let start = position
            repeat { position += 1 } while position < bytes.count && bytes[position] & 0xC0 == 0x80
            guard let character = PropertyListReader.utf8String(bytes[start..<position]) else {
                throw fail("a string is not UTF-8")
            }
            return Array(character.utf16)
        }
    }

    /// Spaces, line breaks and comments.
    private mutating func skipSpace() throws(PropertyListFormatError) {
        while let byte = peek() {
            if PropertyListReader.isWhitespace(byte) {
                position += 1
            } else if byte == UInt8(ascii: "/"), position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: "/") {
                while let next = peek(), next != 0x0A, next != 0x0D { position += 1 }
            } else if byte == UInt8(ascii: "/"), position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: "*") {
                position += 2
                while position + 1 < bytes.count,
                    !(bytes[position] == UInt8(ascii: "*") && bytes[position + 1] == UInt8(ascii: "/"))
                {
                    position += 1
                }
                guard position + 1 < bytes.count else { throw fail("a comment is not closed") }
                position += 2
            } else {
                return
            }
        }
    }

    /// What a bare string may hold, as CoreFoundation allows.
    private static func isBare(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            "_$+/:.-".utf8.contains(byte)
        }
    }

    private static func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private static func describe(_ byte: UInt8) -> String {
        (0x21..<0x7F).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "the byte \(byte)"
    }
}

extension OpenStepPropertyListReader {
    /// The characters of the NeXTSTEP set's bytes 0x80 to 0xFF, as corelibs reads them in an
    /// octal escape (measured on this toolchain, `"\200"` to `"\377"`); the two it has none for
    /// read as U+0000, as there.
    fileprivate static let nextStep: [UInt16] = [
        0x00A0, 0x00C0, 0x00C1, 0x00C2, 0x00C3, 0x00C4, 0x00C5, 0x00C7,
        0x00C8, 0x00C9, 0x00CA, 0x00CB, 0x00CC, 0x00CD, 0x00CE, 0x00CF,
        0x00D0, 0x00D1, 0x00D2, 0x00D3, 0x00D4, 0x00D5, 0x00D6, 0x00D9,
        0x00DA, 0x00DB, 0x00DC, 0x00DD, 0x00DE, 0x00B5, 0x00D7, 0x00F7,
        0x00A9, 0x00A1, 0x00A2, 0x00A3, 0x2044, 0x00A5, 0x0192, 0x00A7,
        0x00A4, 0x2019, 0x201C, 0x00AB, 0x2039, 0x203A, 0xFB01, 0xFB02,
        0x00AE, 0x2013, 0x2020, 0x2021, 0x00B7, 0x00A6, 0x00B6, 0x2022,
        0x201A, 0x201E, 0x201D, 0x00BB, 0x2026, 0x2030, 0x00AC, 0x00BF,
        0x00B9, 0x02CB, 0x00B4, 0x02C6, 0x02DC, 0x00AF, 0x02D8, 0x02D9,
        0x00A8, 0x00B2, 0x02DA, 0x00B8, 0x00B3, 0x02DD, 0x02DB, 0x02C7,
        0x2014, 0x00B1, 0x00BC, 0x00BD, 0x00BE, 0x00E0, 0x00E1, 0x00E2,
        0x00E3, 0x00E4, 0x00E5, 0x00E7, 0x00E8, 0x00E9, 0x00EA, 0x00EB,
        0x00EC, 0x00C6, 0x00ED, 0x00AA, 0x00EE, 0x00EF, 0x00F0, 0x00F1,
        0x0141, 0x00D8, 0x0152, 0x00BA, 0x00F2, 0x00F3, 0x00F4, 0x00F5,
        0x00F6, 0x00E6, 0x00F9, 0x00FA, 0x00FB, 0x0131, 0x00FC, 0x00FD,
        0x0142, 0x00F8, 0x0153, 0x00DF, 0x00FE, 0x00FF, 0x0000, 0x0000,
    ]
}
