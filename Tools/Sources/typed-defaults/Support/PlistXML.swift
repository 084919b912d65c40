import Foundation
import TypedDefaults

/// A suite as an XML property list, as macOS `defaults export` writes one.
///
/// XML holds less than a suite can: a date only to the whole second, and no control character
/// but tab, line feed and carriage return. A date is written rounded down, with a warning
/// naming the key; a string XML cannot hold refuses the export. The JSON export keeps both.
enum PlistXML {
    static func document(_ values: [String: DefaultsStoredValue], warn: (String) -> Void) throws -> String {
        var text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">

            """
        try append(.dictionary(values), path: "", indent: "", to: &text, warn: warn)
        return text + "\n</plist>\n"
    }

    private static func append(
        _ value: DefaultsStoredValue, path: String, indent: String, to text: inout String, warn: (String) -> Void
    ) throws {
        let inner = indent + "\t"
        switch value {
        case .string(let string): text += "<string>\(try escaped(string, at: path))</string>"
        case .integer(let number): text += "<integer>\(number)</integer>"
        case .unsignedInteger(let number): text += "<integer>\(number)</integer>"
        case .real(let number):
            let written =
                number.isNaN ? "nan" : number.isInfinite ? (number > 0 ? "+infinity" : "-infinity") : "\(number)"
            text += "<real>\(written)</real>"
        case .boolean(let flag): text += flag ? "<true/>" : "<false/>"
        case .date(let date):
            let seconds = date.timeIntervalSince1970
            guard seconds.isFinite,
                let year = Calendar(identifier: .gregorian).dateComponents(in: utc, from: date).year,
                (1...9999).contains(year)
            else { throw ToolError("\(path): the date \(date) has no XML form; export as --format json") }
            if seconds != seconds.rounded(.down) {
                warn(
                    "\(path): the date \(ValueDisplay.dateText(date)) loses its fraction of a second in XML; --format json keeps it"
                )
            }
            text += "<date>\(xmlDate.string(from: Date(timeIntervalSince1970: seconds.rounded(.down))))</date>"
        case .data(let bytes): text += "<data>\(bytes.base64EncodedString())</data>"
        case .array(let elements):
            guard !elements.isEmpty else {
                text += "<array/>"
                return
            }
            text += "<array>\n"
            for (index, element) in elements.enumerated() {
                text += inner
                try append(element, path: "\(path)[\(index)]", indent: inner, to: &text, warn: warn)
                text += "\n"
            }
            text += "\(indent)</array>"
        case .dictionary(let entries):
            guard !entries.isEmpty else {
                text += "<dict/>"
                return
            }
            text += "<dict>\n"
            for (key, entry) in entries.sorted(by: { $0.key < $1.key }) {
                let entryPath = path.isEmpty ? key : "\(path).\(key)"
                text += "\(inner)<key>\(try escaped(key, at: entryPath))</key>\n\(inner)"
                try append(entry, path: entryPath, indent: inner, to: &text, warn: warn)
                text += "\n"
            }
            text += "\(indent)</dict>"
        }
    }

    /// Text escaped for XML; a carriage return as a reference, which parsers keep (a bare one
    /// they turn into a line feed).
    private static func escaped(_ string: String, at path: String) throws -> String {
        var result = ""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\r": result += "&#13;"
            case "\t", "\n": result.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF:
                throw ToolError(
                    "\(path): U+\(String(format: "%04X", scalar.value)) cannot be written in XML; export as --format json"
                )
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static let utc = TimeZone(identifier: "UTC") ?? .current

    private static var xmlDate: DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = utc
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss'Z'"
        return formatter
    }
}
