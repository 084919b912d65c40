import Foundation

/// Reads an XML property list, as plain `UserDefaults` on Linux, macOS's `defaults export`,
/// Python's `plistlib` and libplist write them.
///
/// It reads what those writers write, including what corelibs writes that stricter XML parsers
/// refuse (control characters and NUL as raw bytes), and the leniencies CoreFoundation allows
/// (hexadecimal and signed integers, `nan`/`inf` reals, attributes, a missing `<plist>`). It
/// never expands an entity other than XML's five and character references, so no document can
/// grow while it is read; each byte is looked at a bounded number of times. Only UTF-8 text is
/// read. Dates may carry a fraction of a second, which no writer of XML loses on purpose.
struct XMLPropertyListReader {
    private let bytes: [UInt8]
    private var position: Int

    init(bytes: [UInt8], start: Int) {
        self.bytes = bytes
        position = start
    }

    /// Whether text that starts with `<` is XML — a declaration, comment, doctype or a property
    /// list element — rather than OpenStep data (`<0fbd77>`).
    static func looksLikeXML(_ bytes: ArraySlice<UInt8>) -> Bool {
        let text = bytes.drop { PropertyListReader.isWhitespace($0) }.dropFirst()
        guard let second = text.first else { return false }
        if second == UInt8(ascii: "?") || second == UInt8(ascii: "!") { return true }
        let name = text.prefix { $0.isASCIILetter }
        guard let after = text.dropFirst(name.count).first,
            after == UInt8(ascii: ">") || after == UInt8(ascii: "/") || PropertyListReader.isWhitespace(after)
        else { return false }
        return elementNames.contains(String(decoding: name, as: UTF8.self))
    }

    private static let elementNames: Set<String> = [
        "plist", "dict", "array", "key", "string", "data", "date", "integer", "real", "true", "false",
    ]

    mutating func read() throws(PropertyListFormatError) -> Any {
        try skipProlog()
        let root: Any
        let tag = try openTag()
        if tag.name == "plist" {
            guard !tag.isEmpty else { throw fail("the plist element is empty") }
            try skipSpaceAndComments()
            root = try element(try openTag(), depth: 1)
            try skipSpaceAndComments()
            try closeTag("plist")
        } else {
            root = try element(tag, depth: 1)
        }
        try skipSpaceAndComments()
        guard position == bytes.count else { throw fail("text follows the property list") }
        return root
    }

    private func fail(_ reason: String) -> PropertyListFormatError {
        PropertyListFormatError("XML property list: \(reason) (at byte \(position))")
    }

    // MARK: Elements

    private struct Tag {
        let name: String
        /// `<name/>`.
        let isEmpty: Bool
    }

    private mutating func element(_ tag: Tag, depth: Int) throws(PropertyListFormatError) -> Any {
        let limit = PropertyListReader.Limits.maximumDepth
        switch tag.name {
        case "dict":
            guard depth < limit else { throw fail("it nests deeper than \(limit) levels") }
            var builder = DictionaryBuilder(capacity: 8)
            if tag.isEmpty { return builder.build() }
            while true {
                try skipSpaceAndComments()
                if try atCloseTag("dict") { return builder.build() }
                let keyTag = try openTag()
                guard keyTag.name == "key" else {
                    throw fail("a dictionary holds <\(keyTag.name)> where a <key> belongs")
                }
                let key = keyTag.isEmpty ? "" : try text(closing: "key")
                try skipSpaceAndComments()
                if try atCloseTag("dict") { throw fail("the key \(String(reflecting: key)) has no value") }
                builder.add(key, try element(try openTag(), depth: depth + 1))
            }
        case "array":
            guard depth < limit else { throw fail("it nests deeper than \(limit) levels") }
            var elements: [Any] = []
            if tag.isEmpty { return elements }
            while true {
                try skipSpaceAndComments()
                if try atCloseTag("array") { return elements }
                elements.append(try element(try openTag(), depth: depth + 1))
            }
        case "true", "false":
            if !tag.isEmpty { try closeTag(tag.name) }
            return tag.name == "true"
        case "string", "key":
            // CoreFoundation reads a <key> outside a dictionary as a string.
            return tag.isEmpty ? "" : try text(closing: tag.name)
        case "data":
            let content = tag.isEmpty ? "" : try text(closing: "data")
            guard let data = Self.base64(content) else { throw fail("<data> holds text that is not Base64") }
            return data
        case "date":
            let content = tag.isEmpty ? "" : try text(closing: "date")
            guard let date = Self.date(content) else { throw fail("<date> holds \(String(reflecting: content))") }
            return date
        case "integer":
            let content = tag.isEmpty ? "" : try text(closing: "integer")
            guard let value = Self.integer(content) else {
                throw fail("<integer> holds \(String(reflecting: content))")
            }
            return value
        case "real":
            let content = tag.isEmpty ? "" : try text(closing: "real")
            guard let value = Self.real(content) else { throw fail("<real> holds \(String(reflecting: content))") }
            return value
        default:
            throw fail("<\(tag.name)> is no property-list element")
        }
    }

    /// A date as corelibs writes one, its year as it comes (`-028-12-03T06:13:20Z` for the year
    /// −28, `10101-01-01T06:00:00Z`), read as the ISO 8601 text it stands for (`-0028`, `+10101`).
    private static func date(_ text: String) -> Date? {
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
    private static func integer(_ text: String) -> Any? {
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
    private static func real(_ text: String) -> Double? {
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

    /// Base64 with whitespace anywhere and padding optional.
    private static func base64(_ text: String) -> Data? {
        var compact = text.filter { !$0.isWhitespace }
        if compact.count % 4 == 1 { return nil }
        while compact.count % 4 != 0 { compact += "=" }
        return Data(base64Encoded: compact)
    }

    // MARK: Tags and text

    /// `<name attributes…>` or `<name …/>`.
    private mutating func openTag() throws(PropertyListFormatError) -> Tag {
        guard take("<") else { throw fail("an element was expected") }
        let name = self.name()
        guard !name.isEmpty else { throw fail("an element was expected") }
        // Attributes are skipped, quoted values included.
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: ">"):
                position += 1
                return Tag(name: name, isEmpty: false)
            case UInt8(ascii: "/"):
                guard position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: ">") else { break }
                position += 2
                return Tag(name: name, isEmpty: true)
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                let quote = bytes[position]
                guard let end = bytes[(position + 1)...].firstIndex(of: quote) else { break }
                position = end
            case UInt8(ascii: "<"):
                throw fail("<\(name) is not closed")
            default:
                break
            }
            position += 1
        }
        throw fail("<\(name) is not closed")
    }

    private mutating func name() -> String {
        let start = position
        while position < bytes.count, bytes[position].isASCIILetter || bytes[position] == UInt8(ascii: "-") {
            position += 1
        }
        return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    /// `</name>`, spaces allowed before `>`.
    private mutating func closeTag(_ name: String) throws(PropertyListFormatError) {
        guard try atCloseTag(name) else { throw fail("</\(name)> was expected") }
    }

    /// Takes `</name>` if it is next.
    private mutating func atCloseTag(_ name: String) throws(PropertyListFormatError) -> Bool {
        let start = position
        guard take("</"), self.name() == name else {
            position = start
            return false
        }
        while position < bytes.count, PropertyListReader.isWhitespace(bytes[position]) { position += 1 }
        guard take(">") else { throw fail("</\(name) is not closed") }
        return true
    }

    /// The text up to `</name>`: references decoded, CDATA taken as it is, bytes checked as UTF-8.
    private mutating func text(closing name: String) throws(PropertyListFormatError) -> String {
        var scalars = String.UnicodeScalarView()
        var runStart = position
        func flush(_ end: Int) throws(PropertyListFormatError) {
            guard let run = PropertyListReader.utf8String(bytes[runStart..<end]) else {
                throw fail("the text is not UTF-8")
            }
            scalars.append(contentsOf: run.unicodeScalars)
        }
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: "<"):
                try flush(position)
                if take("<![CDATA[") {
                    guard let end = find("]]>") else { throw fail("a CDATA section is not closed") }
                    runStart = position
                    try flush(end)
                    position = end + 3
                    runStart = position
                    continue
                }
                try closeTag(name)
                return String(scalars)
            case UInt8(ascii: "&"):
                try flush(position)
                scalars.append(try reference())
                runStart = position
            default:
                position += 1
            }
        }
        throw fail("<\(name)> is not closed")
    }

    /// `&lt;`, `&gt;`, `&amp;`, `&quot;`, `&apos;`, `&#N;` or `&#xN;`; nothing else expands.
    private mutating func reference() throws(PropertyListFormatError) -> Unicode.Scalar {
        guard let end = bytes[position...].prefix(12).firstIndex(of: UInt8(ascii: ";")) else {
            throw fail("an & starts no reference")
        }
        let body = String(decoding: bytes[(position + 1)..<end], as: UTF8.self)
        position = end + 1
        switch body {
        case "lt": return "<"
        case "gt": return ">"
        case "amp": return "&"
        case "quot": return "\""
        case "apos": return "'"
        default: break
        }
        let number: UInt32? =
            if body.hasPrefix("#x") || body.hasPrefix("#X") {
                UInt32(body.dropFirst(2), radix: 16)
            } else if body.hasPrefix("#") {
                UInt32(body.dropFirst(), radix: 10)
            } else {
                nil
            }
        guard let number, let scalar = Unicode.Scalar(number) else {
            throw fail("&\(body); is no character this reader expands")
        }
        return scalar
    }

    // MARK: Between elements

    /// The declaration, comments, processing instructions and a doctype (its internal subset
    /// skipped: entities declared there are never expanded).
    private mutating func skipProlog() throws(PropertyListFormatError) {
        while true {
            try skipSpaceAndComments()
            if take("<?") {
                guard let end = find("?>") else { throw fail("a processing instruction is not closed") }
                let declaration = String(decoding: bytes[position..<end], as: UTF8.self).lowercased()
                if declaration.hasPrefix("xml"), let range = declaration.range(of: "encoding") {
                    let value = declaration[range.upperBound...].drop { "= \"'".contains($0) }.prefix {
                        $0 != "\"" && $0 != "'"
                    }
                    guard value == "utf-8" || value == "utf8" else { throw fail("the text is in \(value), not UTF-8") }
                }
                position = end + 2
            } else if take("<!DOCTYPE") {
                var depth = 0
                while position < bytes.count, !(bytes[position] == UInt8(ascii: ">") && depth == 0) {
                    if bytes[position] == UInt8(ascii: "[") { depth += 1 }
                    if bytes[position] == UInt8(ascii: "]") { depth -= 1 }
                    position += 1
                }
                guard take(">") else { throw fail("the doctype is not closed") }
            } else {
                return
            }
        }
    }

    private mutating func skipSpaceAndComments() throws(PropertyListFormatError) {
        while position < bytes.count {
            if PropertyListReader.isWhitespace(bytes[position]) {
                position += 1
            } else if take("<!--") {
                guard let end = find("-->") else { throw fail("a comment is not closed") }
                position = end + 3
            } else {
                return
            }
        }
    }

    /// Takes `literal` if the text continues with it.
    private mutating func take(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard bytes.count - position >= count else { return false }
        let matches = literal.withUTF8Buffer { literalBytes in
            literalBytes.indices.allSatisfy { bytes[position + $0] == literalBytes[$0] }
        }
        if matches { position += count }
        return matches
    }

    /// Where `literal` next starts, from the position on.
    private func find(_ literal: StaticString) -> Int? {
        literal.withUTF8Buffer { literalBytes -> Int? in
            guard let first = literalBytes.first, bytes.count - position >= literalBytes.count else { return nil }
            var index = position
            while index <= bytes.count - literalBytes.count {
                if bytes[index] == first, literalBytes.indices.allSatisfy({ bytes[index + $0] == literalBytes[$0] }) {
                    return index
                }
                index += 1
            }
            return nil
        }
    }
}

extension UInt8 {
    fileprivate var isASCIILetter: Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(self) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(self)
    }
}
