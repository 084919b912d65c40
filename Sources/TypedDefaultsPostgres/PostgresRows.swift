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

    /// The layer a suite's rows of the administrator's table give, `source` naming it: each
    /// row's value (JSON, as above) the key's default, each locked row a lock, and a locked row
    /// whose key ends in `*` a lock of every key beginning with the rest (its value is not
    /// read). `nil` for no rows.
    ///
    /// - Throws: why the first row whose value is not the JSON form does not read, naming its key.
    package static func administration(
        _ rows: some Sequence<(key: String, value: String?, locked: Bool)>, source: String
    ) throws(RowError) -> DefaultsBackendAdministration? {
        var administration = DefaultsBackendAdministration(source: source)
        var isEmpty = true
        for (key, text, locked) in rows {
            isEmpty = false
            if locked, let prefix = lockedPrefix(key) {
                administration.lockedPrefixes.append(prefix)
                continue
            }
            if locked { administration.lockedKeys.insert(DefaultsStoredKey(key)) }
            guard let text else { continue }
            do {
                administration.defaults[DefaultsStoredKey(key)] = try DefaultsStoredValue(json: text)
            } catch {
                throw RowError(key: key, reason: error.description)
            }
        }
        // In one order, so that two reads of the same rows give equal layers.
        administration.lockedPrefixes.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        return isEmpty ? nil : administration
    }

    /// What a locked row's key locks every key beginning with, when it ends in `*` (`net.*`,
    /// `*` alone for every key), as a locks file's line does; `nil` for a key locked alone.
    package static func lockedPrefix(_ key: String) -> String? {
        guard key.unicodeScalars.last == "*" else { return nil }
        return String(String.UnicodeScalarView(key.unicodeScalars.dropLast()))
    }
}

/// A row whose value does not read as the JSON form.
package struct RowError: Error, CustomStringConvertible, Sendable {
    package let key: String
    package let reason: String

    package var description: String { "the row of \(DefaultsStoredKey(key).debugDescription): \(reason)" }
}
