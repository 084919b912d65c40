import Foundation
import TypedDefaults

/// A suite as an XML property list, as macOS `defaults export` writes one.
///
/// XML holds less than a suite can: a date only to the whole second and in the years 0001 to
/// 9999, and no control character but tab, line feed and carriage return. A date is written
/// rounded down, with a warning naming the key; a string or date XML cannot hold refuses the
/// export. The JSON export keeps them all.
enum PlistXML {
    static func document(_ values: [DefaultsStoredKey: DefaultsStoredValue], warn: (String) -> Void) throws -> String {
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
            let seconds = date.timeIntervalSinceReferenceDate
            // Whole seconds, years 0001 to 9999: no sign, not year 0.
            guard let whole = ValueDisplay.isoText(Date(timeIntervalSinceReferenceDate: seconds.rounded(.down))),
                whole.first?.isNumber == true, !whole.hasPrefix("0000")
            else {
                let shown = ValueDisplay.dateText(date) ?? value.json()
                throw ToolError("\(path): the date \(shown) has no XML form; export as --format json")
            }
            if seconds != seconds.rounded(.down) {
                let shown = ValueDisplay.dateText(date) ?? value.json()
                warn("\(path): the date \(shown) loses its fraction of a second in XML; --format json keeps it")
            }
            text += "<date>\(whole)</date>"
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
                let entryPath = path.isEmpty ? key.name : "\(path).\(key.name)"
                text += "\(inner)<key>\(try escaped(key.name, at: entryPath))</key>\n\(inner)"
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
}
