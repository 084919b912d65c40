import Foundation
import TypedDefaults
import TypedDefaultsSchema

// Untyped values: `DefaultsStoredValue` and Foundation's property-list
// classes, with the JSON text `DefaultsStoredValue(json:)` reads.

extension DefaultsStoredValue: RoundTripValue {
    static func generate(_ draw: inout Draw) -> DefaultsStoredValue {
        let scalarsOnly = draw.depth >= 3
        switch draw.int(0...(scalarsOnly ? 6 : 9)) {
        case 0: return .string(String.generate(&draw))
        case 1:
            let value = Int64.generate(&draw)
            return .integer(value)
        case 2: return .unsignedInteger(UInt64(Int64.max) + UInt64.generate(&draw) / 2 + 1)
        case 3: return .real(Double.generate(&draw))
        case 4: return .boolean(Bool.generate(&draw))
        case 5: return .date(Date.generate(&draw))
        case 6: return .data(draw.nested { Data.generate(&$0) })
        case 7, 8: return .array([DefaultsStoredValue].generate(&draw))
        default:
            return .dictionary(members(&draw))
        }
    }

    var fingerprint: String {
        switch self {
        case .string(let text): Fingerprint.text(text)
        case .integer(let value): "\(value)"
        case .unsignedInteger(let value): "u\(value)"
        case .real(let value): "r" + Fingerprint.real(value)
        case .boolean(let flag): "\(flag)"
        case .date(let date): date.fingerprint
        case .data(let data): Fingerprint.data(data)
        case .array(let values): values.fingerprint
        case .dictionary(let members):
            "["
                + members.map { "\(Fingerprint.text($0.key.name)): \($0.value.fingerprint)" }.sorted()
                .joined(separator: ", ") + "]"
        }
    }

    /// A dictionary's members, keyed exactly: now and then both spellings of a canonical twin
    /// (`"é"`, `"e\u{301}"`), two keys of a suite, each with its own value.
    static func members(_ draw: inout Draw) -> [DefaultsStoredKey: DefaultsStoredValue] {
        let count = draw.count()
        var members = draw.nested { draw in
            var members: [DefaultsStoredKey: DefaultsStoredValue] = [:]
            for _ in 0..<count {
                if draw.twinKeys, draw.chance(0.1) {
                    let (first, second) = draw.pick(RoundTripText.twins)
                    members[DefaultsStoredKey(first)] = generate(&draw)
                    members[DefaultsStoredKey(second)] = generate(&draw)
                } else {
                    let name = String.generate(&draw)
                    // Two keys drawn apart can still be twins ("n\u{303}" and "\u{F1}"): where
                    // none may be, a key equal as a Swift string to one drawn before is left out.
                    let value = generate(&draw)
                    if !draw.twinKeys, members.keys.contains(where: { $0.name == name }) { continue }
                    members[DefaultsStoredKey(name)] = value
                }
            }
            return members
        }
        // A dictionary whose only key is the nil marker is an explicit nil; the Semantics article
        // says not to store one.
        if members.count == 1, members.keys.first == "__TypedDefaults.nil" { members["another"] = .boolean(true) }
        return members
    }

    /// The fingerprint of any property-list object, through the value it holds.
    static func objectFingerprint(_ object: Any) -> String {
        DefaultsStoredValue(propertyListObject: object)?.fingerprint ?? "<not a property list: \(type(of: object))>"
    }
}

/// What an `NSArray` or `NSDictionary` is made of: a stored value's objects. The run draws the
/// value and makes the object of it.
enum RoundTripObjects {
    /// Foundation's collections hold one key of two canonical twins: none are drawn for them.
    static func array(_ draw: inout Draw) -> NSArray {
        draw.twinKeys = false
        defer { draw.twinKeys = true }
        return NSArray(array: [DefaultsStoredValue].generate(&draw).map(\.propertyListObject))
    }

    static func dictionary(_ draw: inout Draw) -> NSDictionary {
        draw.twinKeys = false
        defer { draw.twinKeys = true }
        var objects: [String: Any] = [:]
        for (key, value) in DefaultsStoredValue.members(&draw).sorted(by: { $0.key < $1.key }) {
            objects[key.name] = value.propertyListObject
        }
        return NSDictionary(dictionary: objects)
    }

    static func number(_ draw: inout Draw) -> NSNumber {
        switch draw.int(0...3) {
        case 0: NSNumber(value: Bool.generate(&draw))
        case 1: NSNumber(value: Int64.generate(&draw))
        case 2: NSNumber(value: UInt64.generate(&draw))
        default: NSNumber(value: Double.generate(&draw))
        }
    }
}

/// JSON text written by someone else: any escape RFC 8259 allows, where the library's own
/// writer would use few.
enum RoundTripJSON {
    /// `value` as JSON, with strings escaped at random and members in any order.
    static func write(_ value: DefaultsStoredValue, _ draw: inout Draw) -> String {
        let space = draw.chance(0.3) ? draw.pick([" ", "\n", "\t", "\r\n  "]) : ""
        switch value {
        case .string(let text): return quote(text, &draw)
        case .integer(let number): return "\(number)"
        case .unsignedInteger(let number): return "\(number)"
        case .real(let number):
            guard number.isFinite else {
                return #"{"$real": "# + quote(number.isNaN ? "nan" : number > 0 ? "inf" : "-inf", &draw) + "}"
            }
            return "\(number)"  // always with a point or an exponent: "1.0", "5e-324"
        case .boolean(let flag): return "\(flag)"
        case .date(let date):
            return "{" + quote("$date", &draw) + ":" + space + write(.real(date.timeIntervalSinceReferenceDate), &draw)
                + "}"
        case .data(let data): return "{" + quote("$data", &draw) + ":" + quote(data.base64EncodedString(), &draw) + "}"
        case .array(let values):
            return "[" + space + values.map { write($0, &draw) }.joined(separator: "," + space) + "]"
        case .dictionary(let members):
            // Keys in an order of their own, drawn independently of how Swift hashes them.
            let keys = members.keys.sorted()
            let shuffled = keys.shuffled(using: &draw.random)
            let body = shuffled.compactMap { key in
                members[key].map { quote(key.name, &draw) + space + ":" + write($0, &draw) }
            }.joined(separator: "," + space)
            if members.count == 1, keys.first?.name.hasPrefix("$") == true {
                return "{" + quote("$dictionary", &draw) + ":{" + body + "}}"
            }
            return "{" + space + body + space + "}"
        }
    }

    /// `text` as a JSON string literal: the escapes JSON requires, and others at random
    /// (`\/`, `\u00e9`, surrogate pairs for astral scalars, upper- or lower-case hex).
    static func quote(_ text: String, _ draw: inout Draw) -> String {
        let escapeAll = draw.chance(0.1)
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n" where draw.chance(0.5): result += "\\n"
            case "\r" where draw.chance(0.5): result += "\\r"
            case "\t" where draw.chance(0.5): result += "\\t"
            case "\u{8}" where draw.chance(0.5): result += "\\b"
            case "\u{C}" where draw.chance(0.5): result += "\\f"
            case "/" where draw.chance(0.5): result += "\\/"
            case _ where scalar.value < 0x20 || escapeAll || draw.chance(0.15):
                result += escaped(scalar, uppercase: draw.chance(0.5))
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// `\uXXXX`, or a surrogate pair of them for a scalar beyond the basic plane.
    static func escaped(_ scalar: Unicode.Scalar, uppercase: Bool) -> String {
        func hex(_ unit: UInt16) -> String {
            let digits = String(unit, radix: 16, uppercase: uppercase)
            return "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
        }
        return String(scalar).utf16.map(hex).joined()
    }

    /// Valid JSON with every string literal (keys too) escaped again at random.
    static func reescape(_ json: String, _ draw: inout Draw) -> String {
        var output = ""
        var scalars = json.unicodeScalars[...]
        while let scalar = scalars.popFirst() {
            guard scalar == "\"" else {
                output.unicodeScalars.append(scalar)
                continue
            }
            output += quote(readLiteral(&scalars), &draw)
        }
        return output
    }

    /// The text of a string literal whose opening quote was just read, up to its closing quote.
    private static func readLiteral(_ scalars: inout Substring.UnicodeScalarView) -> String {
        var text = String.UnicodeScalarView()
        var pendingHigh: UInt32?
        while let scalar = scalars.popFirst(), scalar != "\"" {
            guard scalar == "\\", let escape = scalars.popFirst() else {
                text.append(scalar)
                continue
            }
            switch escape {
            case "n": text.append("\n")
            case "r": text.append("\r")
            case "t": text.append("\t")
            case "b": text.append("\u{8}")
            case "f": text.append("\u{C}")
            case "u":
                let digits = String(String.UnicodeScalarView(scalars.prefix(4)))
                scalars = scalars.dropFirst(4)
                let unit = UInt32(digits, radix: 16) ?? 0xFFFD
                if (0xD800..<0xDC00).contains(unit) {
                    pendingHigh = unit
                } else if let high = pendingHigh, (0xDC00..<0xE000).contains(unit) {
                    pendingHigh = nil
                    text.append(Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (unit - 0xDC00)) ?? "\u{FFFD}")
                } else {
                    text.append(Unicode.Scalar(unit) ?? "\u{FFFD}")
                }
            default: text.append(escape)  // \" \\ \/
            }
        }
        return String(text)
    }

    /// The same JSON with a lone surrogate escape (or a broken pair) put into one of its string
    /// literals, which no Swift string can hold: a reader must refuse the text.
    static func withLoneSurrogate(_ json: String, _ draw: inout Draw) -> String {
        let broken = draw.pick([
            #"\ud800"#, #"\uDBFF"#, #"\udc00"#, #"\uDFFF"#, #"\ud800\u0041"#, #"\ud83dx"#, #"\ude00\ud83d"#,
            #"\ud83d\ud83d"#, #"\uD834\uD834\uDD1E"#,
        ])
        // Right after an opening quote: inside the literal, between two whole scalars.
        var openings: [String.UnicodeScalarView.Index] = []
        var (inLiteral, escaping) = (false, false)
        for index in json.unicodeScalars.indices {
            let scalar = json.unicodeScalars[index]
            if escaping {
                escaping = false
            } else if inLiteral && scalar == "\\" {
                escaping = true
            } else if scalar == "\"" {
                inLiteral.toggle()
                if inLiteral { openings.append(json.unicodeScalars.index(after: index)) }
            }
        }
        guard !openings.isEmpty else { return "\"" + broken + "\"" }
        var scalars = json.unicodeScalars
        scalars.insert(contentsOf: broken.unicodeScalars, at: draw.pick(openings))
        return String(scalars)
    }
}
