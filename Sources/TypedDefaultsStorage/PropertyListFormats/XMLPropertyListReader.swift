import Foundation

/// Reads an XML property list, as plain `UserDefaults` on Linux, macOS's `defaults export`,
/// Python's `plistlib` and libplist write them.
///
/// It reads what those writers write, including what corelibs writes that stricter XML parsers
/// refuse (control characters and NUL as raw bytes), and the leniencies CoreFoundation allows
/// (hexadecimal and signed integers, `nan`/`inf` reals, attributes, a missing `<plist>`). It
/// never expands an entity other than XML's five and character references, so no document can
/// grow while it is read; each byte is looked at a bounded number of times. The text is UTF-8,
/// or declared US-ASCII or ISO-8859-1 (Python's `ElementTree` declares `us-ascii`; corelibs
/// converts both); processing instructions may stand between any elements. Dates may carry a
/// fraction of a second, which no writer of XML loses on purpose.
struct XMLPropertyListReader {
    private var bytes: [UInt8]
    private var position: Int
    /// Whether an XML declaration may still name the encoding: only before the first element.
    private var inProlog = true

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
        inProlog = false
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
            if tag.isEmpty { return Data() }
            let data = base64()
            try closeTag("data")
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

    /// The Base64 up to the next `<`, decoded as CoreFoundation decodes it (measured on this
    /// toolchain): bytes outside the alphabet are skipped, `=` counts as a digit of value 0, each
    /// group of four digits gives three bytes less one for each `=` that ends it, and a last
    /// group of fewer than four gives none. So `A@AE=` is `00 01` and `AA==AA==` is `00 00`.
    private mutating func base64() -> Data {
        var data = Data()
        var (digits, accumulated, padding) = (0, UInt32(0), 0)
        while position < bytes.count, bytes[position] != UInt8(ascii: "<") {
            let byte = bytes[position]
            position += 1
            if byte == UInt8(ascii: "=") {
                padding += 1
            } else if byte != 0x20, !(0x09...0x0D).contains(byte) {
                padding = 0
            }
            guard let value = Self.base64Value(byte) else { continue }
            digits += 1
            accumulated = accumulated << 6 | value
            if digits % 4 == 0 {
                data.append(UInt8(truncatingIfNeeded: accumulated >> 16))
                if padding < 2 { data.append(UInt8(truncatingIfNeeded: accumulated >> 8)) }
                if padding < 1 { data.append(UInt8(truncatingIfNeeded: accumulated)) }
            }
        }
        return data
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
            guard take("<!DOCTYPE") else { return }
            var depth = 0
            while position < bytes.count, !(bytes[position] == UInt8(ascii: ">") && depth == 0) {
                if bytes[position] == UInt8(ascii: "[") { depth += 1 }
                if bytes[position] == UInt8(ascii: "]") { depth -= 1 }
                position += 1
            }
            guard take(">") else { throw fail("the doctype is not closed") }
        }
    }

    /// Whitespace, comments and processing instructions.
    private mutating func skipSpaceAndComments() throws(PropertyListFormatError) {
        while position < bytes.count {
            if PropertyListReader.isWhitespace(bytes[position]) {
                position += 1
            } else if take("<!--") {
                guard let end = find("-->") else { throw fail("a comment is not closed") }
                position = end + 3
            } else if take("<?") {
                guard let end = find("?>") else { throw fail("a processing instruction is not closed") }
                let body = String(decoding: bytes[position..<end], as: UTF8.self).lowercased()
                position = end + 2
                if body.hasPrefix("xml"), body.dropFirst(3).first?.isWhitespace == true {
                    try declare(body)
                }
            } else {
                return
            }
        }
    }

    /// Reads the text in the encoding an XML declaration names: UTF-8 as it is, US-ASCII as
    /// UTF-8 (of which it is part), ISO-8859-1 converted to UTF-8 here, every other refused.
    private mutating func declare(_ declaration: String) throws(PropertyListFormatError) {
        guard inProlog, let range = declaration.range(of: "encoding") else { return }
        inProlog = false
        let value = declaration[range.upperBound...].drop { "= \"'".contains($0) }.prefix {
            $0 != "\"" && $0 != "'" && !$0.isWhitespace
        }
        switch value {
        case "utf-8", "utf8", "us-ascii", "ascii":
            return
        case "iso-8859-1", "iso_8859-1", "latin1", "latin-1", "l1":
            // Each byte is the scalar of its value; the bytes read so far are ASCII but may hold
            // a comment's, so the position moves by the bytes that grew before it.
            let grownBefore = bytes[..<position].count { $0 >= 0x80 }
            var converted: [UInt8] = []
            converted.reserveCapacity(bytes.count + bytes.count / 8)
            for byte in bytes {
                if byte < 0x80 {
                    converted.append(byte)
                } else {
                    converted += [0xC0 | byte >> 6, 0x80 | byte & 0x3F]
                }
            }
            bytes = converted
            position += grownBefore
        default:
            throw fail("the text is in \(value), which this reader does not read (UTF-8, US-ASCII, ISO-8859-1)")
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
