#if Postgres
    import Foundation
    import TypedDefaults

    /// What the backend refuses to store, checked as values are written and again at commit.
    extension PostgresBackend {
        /// Refuses, as it is written, what the server could never store, so that it cannot hold back
        /// the changes committed with it: a key longer than ``maximumNameBytes`` or holding U+0000
        /// (PostgreSQL's `text` refuses that character), and a value larger than
        /// ``maximumValueBytes``. A value is stored as its JSON, which writes U+0000 as `\u0000`: a
        /// string or a nested dictionary's key holding it is stored.
        public func check(_ value: DefaultsStoredValue, forKey key: DefaultsStoredKey) throws(DefaultsError) {
            try checkKey(key.name)
            // Only a value that might be too large is encoded to be measured: a write of a small one
            // stays cheap.
            if Self.jsonBytesAtMost(value) > maximumValueBytes { try checkValue(value.json(), forKey: key.name) }
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
                members.reduce(16) { total, member in
                    let keyBytes: Int = member.key.name.utf8.count * 6 + 3
                    return total + keyBytes + jsonBytesAtMost(member.value) + 1
                }
            }
        }

        func checkKey(_ key: String) throws(DefaultsError) {
            if key.utf8.count > Self.maximumNameBytes {
                throw .encodingFailed(
                    key: Self.shown(key),
                    underlying: TooLarge(what: "key", bytes: key.utf8.count, limit: Self.maximumNameBytes))
            }
            if key.utf8.contains(0) { throw .encodingFailed(key: Self.shown(key), underlying: HoldsNUL(what: "key")) }
        }

        /// Refuses a suite name the server cannot store: longer than ``maximumNameBytes``, or
        /// holding U+0000. Every query names the suite, so none would succeed.
        static func checkSuite(_ suite: String) throws(DefaultsError) {
            if suite.utf8.count > maximumNameBytes {
                throw .invalidSuiteName(shown(suite), reason: "longer than \(maximumNameBytes) bytes in UTF-8")
            }
            if suite.utf8.contains(0) {
                throw .invalidSuiteName(shown(suite), reason: "\(HoldsNUL(what: "suite name"))")
            }
        }

        func checkValue(_ json: String, forKey key: String) throws(DefaultsError) {
            guard json.utf8.count > maximumValueBytes else { return }
            throw .encodingFailed(
                key: Self.shown(key),
                underlying: TooLarge(what: "value", bytes: json.utf8.count, limit: maximumValueBytes))
        }

        /// A key or suite name as an error names it: its first 60 characters, U+0000 written
        /// `\u{0}`.
        static func shown(_ name: String) -> String {
            let cut = name.count > 60 ? String(name.prefix(60)) + "…" : name
            guard cut.utf8.contains(0) else { return cut }
            return cut.unicodeScalars.map { $0 == "\u{0}" ? "\\u{0}" : String($0) }.joined()
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

    /// A key or suite name holding U+0000, which PostgreSQL's `text` cannot store (the server
    /// refuses it: `invalid byte sequence for encoding "UTF8": 0x00`).
    struct HoldsNUL: Error, CustomStringConvertible {
        let what: String

        var description: String { "the \(what) holds U+0000 (NUL), which PostgreSQL text cannot store" }
    }
#endif
