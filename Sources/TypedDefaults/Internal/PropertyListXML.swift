import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes a suite's contents as an XML property list, the format corelibs Foundation reads.
///
/// `PropertyListSerialization` on Linux bridges every value to a Foundation object and back into
/// Swift for each callback, which made it two thirds of a flush: 6.6 ms of 10.1 at 1,000 keys.
/// Writing the text directly takes a small fraction of that. The output follows
/// CoreFoundation's writer: keys sorted, only `&`, `<` and `>` escaped (other characters, control
/// characters included, are written as they are, and CoreFoundation's parser reads them back),
/// dates in whole UTC seconds. Unlike it, `-0.0` keeps its sign.
enum PropertyListXML {
    /// A value that is not a property list; ``Conversion`` refuses those before they are stored.
    struct NotAPropertyList: Error, CustomStringConvertible {
        let type: Any.Type
        var description: String { "\(type) is not a property-list type" }
    }

    static func data(_ contents: [String: PropertyList]) throws -> Data {
        var text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">

            """
        text.reserveCapacity(text.utf8.count + contents.count * 64)
        try appendDictionary(contents.mapValues(\.object), depth: 0, to: &text)
        text += "</plist>\n"
        return Data(text.utf8)
    }

    private static func append(_ object: Any, depth: Int, to text: inout String) throws {
        let indent = String(repeating: "\t", count: depth)
        if let number = number(object) {
            text += indent + number + "\n"
            return
        }
        switch object {
        case let string as String:
            text += indent + "<string>" + escaped(string) + "</string>\n"
        case let data as Data:
            let lines = data.base64EncodedString(options: [.lineLength76Characters, .endLineWithLineFeed])
                .split(separator: "\n")
            text += indent + "<data>\n"
            for line in lines { text += indent + line + "\n" }
            text += indent + "</data>\n"
        case let date as Date:
            text += indent + "<date>" + iso8601(date) + "</date>\n"
        case let entries as [String: Any]:
            try appendDictionary(entries, depth: depth, to: &text)
        case let elements as [Any]:
            guard !elements.isEmpty else {
                text += indent + "<array/>\n"
                return
            }
            text += indent + "<array>\n"
            for element in elements { try append(element, depth: depth + 1, to: &text) }
            text += indent + "</array>\n"
        default:
            throw NotAPropertyList(type: type(of: object))
        }
    }

    private static func appendDictionary(_ entries: [String: Any], depth: Int, to text: inout String) throws {
        let indent = String(repeating: "\t", count: depth)
        guard !entries.isEmpty else {
            text += indent + "<dict/>\n"
            return
        }
        text += indent + "<dict>\n"
        for key in entries.keys.sorted() {
            text += indent + "\t<key>" + escaped(key) + "</key>\n"
            // `[String: Any?]` from corelibs can hold a nil, which no property list can.
            guard let value = entries[key] as Any?, !(value is StoredObject.Missing) else {
                throw NotAPropertyList(type: Optional<Any>.self)
            }
            try append(value, depth: depth + 1, to: &text)
        }
        text += indent + "</dict>\n"
    }

    /// The element for a number or boolean, or `nil` when `object` is neither. The value's type
    /// is compared first: a cast such as `as? Bool` on a parsed `NSNumber`, or `as? NSNumber` on
    /// a Swift `String`, bridges, and bridging was most of the cost of writing a file.
    private static func number(_ object: Any) -> String? {
        let kind = type(of: object)
        let isSwiftNumber = [Int.self, Double.self, Bool.self, Int64.self, UInt64.self, Float.self].contains {
            $0 == kind
        }
        guard isSwiftNumber || kind is NSNumber.Type else { return nil }
        switch StoredObject.number(object) {
        case .bool(let value): return value ? "<true/>" : "<false/>"
        case .signed(let value): return "<integer>\(value)</integer>"
        case .unsigned(let value): return "<integer>\(value)</integer>"
        case .floating(let value): return real(value)
        case nil: return nil
        }
    }

    /// The shortest text that reads back as exactly `value`, `-0.0` included.
    private static func real(_ value: Double) -> String {
        let text =
            if value.isNaN { "nan" } else if value == .infinity { "+infinity" } else if value == -.infinity {
                "-infinity"
            } else { value.description }
        return "<real>" + text + "</real>"
    }

    private static func escaped(_ string: String) -> String {
        guard
            string.utf8.contains(where: {
                $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">")
            })
        else { return string }
        var result = ""
        result.reserveCapacity(string.utf8.count + 16)
        for character in string.unicodeScalars {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            default: result.unicodeScalars.append(character)
            }
        }
        return result
    }

    /// `2001-01-01T00:00:12Z`: whole seconds in UTC, rounded down, as CoreFoundation writes.
    private static func iso8601(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let year = String(parts.tm_year + 1900)
        return String(repeating: "0", count: max(0, 4 - year.count)) + year + "-" + two(parts.tm_mon + 1) + "-"
            + two(parts.tm_mday) + "T" + two(parts.tm_hour) + ":" + two(parts.tm_min) + ":" + two(parts.tm_sec) + "Z"
    }
}
