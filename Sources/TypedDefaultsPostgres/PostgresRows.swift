import TypedDefaults
import TypedDefaultsSchema

/// A suite's rows as the PostgreSQL backend stores them: `(key text, value text)`, each value
/// the JSON form of `DefaultsStoredValue.json(pretty:)`. Compiled without the `Postgres` trait
/// too, apart from the connection and PostgresNIO, so that a fuzz target can decode any rows
/// without building a server client.
package enum PostgresRows {
    /// The text a row holds for `value`: its compact JSON form, which reads back exactly.
    package static func text(_ value: DefaultsStoredValue) -> String {
        value.json()
    }

    /// The values of a suite's rows, each key exactly as stored: PostgreSQL compares `text` byte
    /// for byte, so two keys that differ only in their Unicode normalization are two rows.
    ///
    /// - Throws: why the first row whose value is not the JSON form does not read, naming its key.
    package static func values(
        _ rows: some Sequence<(key: String, value: String)>
    ) throws(RowError) -> [DefaultsStoredKey: DefaultsStoredValue] {
        var values: [DefaultsStoredKey: DefaultsStoredValue] = [:]
        for (key, text) in rows {
            do {
                values[DefaultsStoredKey(key)] = try DefaultsStoredValue(json: text)
            } catch {
                throw RowError(key: key, reason: error.description)
            }
        }
        return values
    }
}

/// A row whose value does not read as the JSON form.
package struct RowError: Error, CustomStringConvertible, Sendable {
    package let key: String
    package let reason: String

    package var description: String { "the row of \(DefaultsStoredKey(key).debugDescription): \(reason)" }
}
