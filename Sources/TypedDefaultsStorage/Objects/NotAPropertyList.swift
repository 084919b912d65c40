import Foundation

/// An object that is no property list, and where it is: a custom ``DefaultsValue`` produced one
/// (`UserDefaults` would crash on it), a Foundation collection holds one, or the file writer met
/// one. Says so in the program's terms: the type it wrote, the path inside the value, and what
/// is there.
package struct NotAPropertyList: Error, CustomStringConvertible {
    /// The type of the value the program wrote (`NSDictionary`, `[String: DefaultsStoredValue]`),
    /// when known.
    package var valueType: String?
    /// Where in the value: `["prefs"][2]`; empty for the value itself.
    package var path: String = ""
    /// What is there: `UUID`, `NSNull`, `a Date as a dictionary key`.
    package var found: String

    package init(valueType: String? = nil, path: String = "", found: String) {
        self.valueType = valueType
        self.path = path
        self.found = found
    }

    /// For an object met without its context.
    package init(type: Any.Type) {
        self.init(found: String(describing: type))
    }

    package var description: String {
        let whole = valueType.map { "the \($0)" } ?? "the value"
        let problem =
            path.isEmpty ? "\(whole) is stored as \(found)" : "\(whole) holds \(found) at \(path)"
        return problem + ", which a property list cannot hold (strings, numbers, booleans, dates, data, "
            + "and arrays and dictionaries of them, with string keys)"
    }
}
