import TypedDefaults
import TypedDefaultsSchema

/// Suites as JSON, in the exact form of ``DefaultsStoredValue/json(pretty:)``, as
/// `read --json` and `export --format json` write them and ``ImportFile`` reads them back.
public enum ExportFile {
    /// A suite's values as one JSON object, which ``ImportFile/values(in:)`` and
    /// `DefaultsStoredValue(json:)` read back as exactly these values.
    ///
    /// The form writes a dictionary that is an explicit `nil`'s marker as `null`; a suite whose
    /// only key is the marker's is written as the object it is, as a file of keys must be one.
    public static func json(_ values: [DefaultsStoredKey: DefaultsStoredValue], pretty: Bool = false) -> String {
        let value = DefaultsStoredValue.dictionary(values)
        guard case .explicitNil(depth: 0) = value.encoding, let marker = values.first else {
            return value.json(pretty: pretty)
        }
        return object([(marker.key.name, marker.value.json())])
    }

    /// Several suites as one JSON object, each member the suite's ``json(_:pretty:)``: the JSON
    /// form of a dictionary whose values are the suites' dictionaries.
    public static func json(suites: [(name: String, values: [DefaultsStoredKey: DefaultsStoredValue])]) -> String {
        object(suites.map { ($0.name, json($0.values)) })
    }

    /// An object of members already written, sorted by name; a lone member whose name starts
    /// with `$` inside `{"$dictionary": …}`, as the form writes it, so it is no value's marker.
    private static func object(_ members: [(name: String, json: String)]) -> String {
        let written = members.sorted { $0.name < $1.name }.map {
            DefaultsStoredValue.string($0.name).json() + ":" + $0.json
        }
        let body = "{" + written.joined(separator: ",") + "}"
        guard members.count == 1, members[0].name.hasPrefix("$") else { return body }
        return #"{"$dictionary":"# + body + "}"
    }
}
