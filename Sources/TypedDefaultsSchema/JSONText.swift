import Foundation
import TypedDefaults

/// A strict JSON reader and writer (RFC 8259) that keeps what Foundation's loses: whether a
/// number was written as an integer (`1`) or a real (`1.0`), integers beyond `Int64` exactly,
/// the order of an object's members, and the exact text of every number. Nesting is bounded
/// (``maximumDepth``), so hostile input cannot exhaust the stack.
enum JSONText {
    /// The deepest nesting of arrays and objects a JSON text may have: what bounds the parser's
    /// stack, not what a stored value may hold (`StoredObject.maximumNestingDepth`, checked on
    /// the value read). The JSON form writes a level of a value as up to two of the text (a
    /// dictionary whose only member's name starts with `$` is `{"$dictionary": {…}}`), a scalar
    /// inside the deepest as up to two (`{"$date": {"$real": "inf"}}`), and a suite around its
    /// values and an object of suites around those (`read --json`) as up to two each: 506.
    static let maximumDepth = 2 * StoredObject.maximumNestingDepth + 6

    enum Value {
        case object([Member])
        case array([Value])
        case string(String)
        /// A number as written; `isInteger` when it has no fraction and no exponent.
        case number(text: String, isInteger: Bool)
        case bool(Bool)
        case null
    }

    /// A member of an object: a name and its value, in the order written.
    struct Member {
        let key: String
        let value: Value

        init(_ key: String, _ value: Value) {
            self.key = key
            self.value = value
        }
    }

    struct SyntaxError: Error, CustomStringConvertible {
        let message: String
        let offset: Int

        var description: String { "\(message) at byte \(offset + 1)" }
    }

    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// Parses one JSON text; anything after it but whitespace is an error.
    static func parse(_ text: String) throws(SyntaxError) -> Value {
        var parser = Parser(bytes: Array(text.utf8))
        let value = try parser.value(depth: 0)
        parser.skipWhitespace()
        guard parser.position == parser.bytes.count else { throw parser.error("unexpected text after the value") }
        return value
    }

    /// `text` as a JSON string literal, escaped as RFC 8259 requires and no more.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20:
                result +=
                    "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                    + String(scalar.value, radix: 16)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// `value` as JSON text: compact, or indented by four spaces.
    static func write(_ value: Value, pretty: Bool) -> String {
        var text = ""
        write(value, pretty: pretty, indent: "", to: &text)
        return text
    }

    /// Appends `value` to `text`. One string is grown for the whole value: building each
    /// container's text from its children's copied every level's text into the level above, so
    /// pretty text of the deepest value a suite holds (250 levels) took about a second.
    private static func write(_ value: Value, pretty: Bool, indent: String, to text: inout String) {
        switch value {
        case .object(let members):
            guard !members.isEmpty else { return text += "{}" }
            let inner = indent + "    "
            text += "{"
            for (index, member) in members.enumerated() {
                if index > 0 { text += "," }
                if pretty { text += "\n" + inner }
                text += quoted(member.key)
                text += pretty ? ": " : ":"
                write(member.value, pretty: pretty, indent: inner, to: &text)
            }
            if pretty { text += "\n" + indent }
            text += "}"
        case .array(let elements):
            guard !elements.isEmpty else { return text += "[]" }
            let inner = indent + "    "
            text += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { text += "," }
                if pretty { text += "\n" + inner }
                write(element, pretty: pretty, indent: inner, to: &text)
            }
            if pretty { text += "\n" + indent }
            text += "]"
        case .string(let string): text += quoted(string)
        case .number(let number, _): text += number
        case .bool(let flag): text += flag ? "true" : "false"
        case .null: text += "null"
        }
    }

    private struct Parser {
        let bytes: [UInt8]
        var position = 0

        func error(_ message: String) -> SyntaxError {
            SyntaxError(message: message, offset: position)
        }

        mutating func skipWhitespace() {
            while position < bytes.count, JSONText.isWhitespace(bytes[position]) { position += 1 }
        }

        mutating func value(depth: Int) throws(SyntaxError) -> Value {
            skipWhitespace()
            guard position < bytes.count else { throw error("expected a value, found the end") }
            switch bytes[position] {
            case UInt8(ascii: "{"):
                guard depth < JSONText.maximumDepth else { throw error("nested too deeply") }
                return try object(depth: depth)
            case UInt8(ascii: "["):
                guard depth < JSONText.maximumDepth else { throw error("nested too deeply") }
                return try array(depth: depth)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): return try literal("true", .bool(true))
            case UInt8(ascii: "f"): return try literal("false", .bool(false))
            case UInt8(ascii: "n"): return try literal("null", .null)
            default: return try number()
            }
        }

        private mutating func literal(_ word: String, _ value: Value) throws(SyntaxError) -> Value {
            let expected = Array(word.utf8)
            guard bytes.count - position >= expected.count,
                Array(bytes[position..<position + expected.count]) == expected
            else { throw error("unexpected character") }
            position += expected.count
            return value
        }

        private mutating func object(depth: Int) throws(SyntaxError) -> Value {
            position += 1
            var members: [Member] = []
            skipWhitespace()
            if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
                position += 1
                return .object(members)
            }
            while true {
                skipWhitespace()
                guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
                    throw error("expected a member name in quotes")
                }
                let key = try string()
                skipWhitespace()
                guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { throw error("expected ':'") }
                position += 1
                members.append(Member(key, try value(depth: depth + 1)))
                skipWhitespace()
                guard position < bytes.count else { throw error("unterminated object") }
                if bytes[position] == UInt8(ascii: ",") {
                    position += 1
                } else if bytes[position] == UInt8(ascii: "}") {
                    position += 1
                    return .object(members)
                } else {
                    throw error("expected ',' or '}'")
                }
            }
        }

        private mutating func array(depth: Int) throws(SyntaxError) -> Value {
            position += 1
            var elements: [Value] = []
            skipWhitespace()
            if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
                position += 1
                return .array(elements)
            }
            while true {
                elements.append(try value(depth: depth + 1))
                skipWhitespace()
                guard position < bytes.count else { throw error("unterminated array") }
                if bytes[position] == UInt8(ascii: ",") {
                    position += 1
                } else if bytes[position] == UInt8(ascii: "]") {
                    position += 1
                    return .array(elements)
                } else {
                    throw error("expected ',' or ']'")
                }
            }
        }

        private mutating func string() throws(SyntaxError) -> String {
            position += 1
            var scalars = String.UnicodeScalarView()
            var runStart = position
            func flushRun(_ parser: Parser, upTo end: Int) throws(SyntaxError) {
                guard runStart < end else { return }
                // Not Foundation's String(bytes:encoding:), which drops a U+FEFF that starts the
                // run as a byte order mark. Invalid UTF-8 would decode to U+FFFD: other bytes.
                let bytes = parser.bytes[runStart..<end]
                let run = String(decoding: bytes, as: UTF8.self)
                guard run.utf8.elementsEqual(bytes) else {
                    throw SyntaxError(message: "invalid UTF-8", offset: runStart)
                }
                scalars.append(contentsOf: run.unicodeScalars)
            }
            while position < bytes.count {
                let byte = bytes[position]
                if byte == UInt8(ascii: "\"") {
                    try flushRun(self, upTo: position)
                    position += 1
                    return String(scalars)
                }
                if byte < 0x20 { throw error("unescaped control character in a string") }
                if byte == UInt8(ascii: "\\") {
                    try flushRun(self, upTo: position)
                    scalars.append(try escape())
                    runStart = position
                    continue
                }
                position += 1
            }
            throw error("unterminated string")
        }

        private mutating func escape() throws(SyntaxError) -> Unicode.Scalar {
            position += 1
            guard position < bytes.count else { throw error("unterminated escape") }
            let byte = bytes[position]
            position += 1
            switch byte {
            case UInt8(ascii: "\""): return "\""
            case UInt8(ascii: "\\"): return "\\"
            case UInt8(ascii: "/"): return "/"
            case UInt8(ascii: "b"): return "\u{8}"
            case UInt8(ascii: "f"): return "\u{C}"
            case UInt8(ascii: "n"): return "\n"
            case UInt8(ascii: "r"): return "\r"
            case UInt8(ascii: "t"): return "\t"
            case UInt8(ascii: "u"):
                let first = try hex4()
                if (0xD800..<0xDC00).contains(first) {
                    guard bytes.count - position >= 6, bytes[position] == UInt8(ascii: "\\"),
                        bytes[position + 1] == UInt8(ascii: "u")
                    else { throw error("a lone surrogate") }
                    position += 2
                    let second = try hex4()
                    guard (0xDC00..<0xE000).contains(second),
                        let scalar = Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))
                    else { throw error("a lone surrogate") }
                    return scalar
                }
                guard let scalar = Unicode.Scalar(first) else { throw error("a lone surrogate") }
                return scalar
            default:
                throw error("unknown escape")
            }
        }

        private mutating func hex4() throws(SyntaxError) -> UInt32 {
            guard bytes.count - position >= 4,
                let value = UInt32(String(decoding: bytes[position..<position + 4], as: UTF8.self), radix: 16)
            else { throw error("expected four hex digits") }
            position += 4
            return value
        }

        private mutating func number() throws(SyntaxError) -> Value {
            let start = position
            var isInteger = true
            func digits(_ parser: inout Parser) -> Int {
                let first = parser.position
                while parser.position < parser.bytes.count,
                    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(parser.bytes[parser.position])
                {
                    parser.position += 1
                }
                return parser.position - first
            }
            if position < bytes.count, bytes[position] == UInt8(ascii: "-") { position += 1 }
            let integerStart = position
            let integerDigits = digits(&self)
            guard integerDigits > 0 else { throw error("unexpected character") }
            if integerDigits > 1, bytes[integerStart] == UInt8(ascii: "0") {
                throw SyntaxError(message: "a number with a leading zero", offset: integerStart)
            }
            if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
                position += 1
                isInteger = false
                guard digits(&self) > 0 else { throw error("expected a digit after '.'") }
            }
            if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
                position += 1
                isInteger = false
                if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-")
                {
                    position += 1
                }
                guard digits(&self) > 0 else { throw error("expected a digit in the exponent") }
            }
            return .number(text: String(decoding: bytes[start..<position], as: UTF8.self), isInteger: isInteger)
        }
    }
}
