import Foundation
import TypedDefaults

/// What the backend refuses to store, checked as values are written and again at commit.
extension PostgresBackend {
    /// Refuses a key longer than ``maximumNameBytes`` and a value larger than
    /// ``maximumValueBytes``, as it is written.
    public func check(_ value: DefaultsStoredValue, forKey key: String) throws(DefaultsError) {
        try checkKey(key)
        // Only a value that might be too large is encoded to be measured: a write of a small one
        // stays cheap.
        if Self.jsonBytesAtMost(value) > maximumValueBytes { try checkValue(value.json(), forKey: key) }
    }

    /// More bytes than the JSON form of `value` takes: each byte of text escaped as `\u0000`,
    /// data in base 64 with its `$data` wrapping, 64 bytes for any number or date.
    static func jsonBytesAtMost(_ value: DefaultsStoredValue) -> Int {
        switch value {
        case .string(let text): text.utf8.count * 6 + 2
        case .data(let data): (data.count + 2) / 3 * 4 + 24
        case .integer, .unsignedInteger, .real, .boolean, .date: 64
        case .array(let elements): elements.reduce(2) { $0 + jsonBytesAtMost($1) + 1 }
        case .dictionary(let members):
            members.reduce(16) { $0 + $1.key.utf8.count * 6 + 3 + jsonBytesAtMost($1.value) + 1 }
        }
    }

    func checkKey(_ key: String) throws(DefaultsError) {
        guard key.utf8.count > Self.maximumNameBytes else { return }
        throw .encodingFailed(
            key: Self.shown(key), underlying: TooLarge(what: "key", bytes: key.utf8.count, limit: Self.maximumNameBytes)
        )
    }

    func checkValue(_ json: String, forKey key: String) throws(DefaultsError) {
        guard json.utf8.count > maximumValueBytes else { return }
        throw .encodingFailed(
            key: Self.shown(key), underlying: TooLarge(what: "value", bytes: json.utf8.count, limit: maximumValueBytes))
    }

    /// A key as an error names it: its first 60 characters.
    static func shown(_ key: String) -> String {
        key.count > 60 ? String(key.prefix(60)) + "…" : key
    }
}

/// A key or value beyond what the backend stores.
struct TooLarge: Error, CustomStringConvertible {
    let what: String
    let bytes: Int
    let limit: Int

    var description: String {
        "the \(what) is \(bytes.formatted()) bytes, more than the \(limit.formatted()) the PostgreSQL backend stores"
    }
}
