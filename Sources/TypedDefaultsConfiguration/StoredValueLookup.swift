#if Configuration
    public import Configuration
    import Foundation
    import TypedDefaults
    import TypedDefaultsSchema

    /// A configuration value read from a suite that is not of the type asked for: never converted
    /// silently, never a crash.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    public struct DefaultsProviderTypeMismatch: Error, CustomStringConvertible, Sendable {
        /// The suite's key (the configuration key's components joined with ".").
        public let key: String
        /// What is stored there: `integer`, `string`, `date`, `array of float`, `dictionary`…
        public let stored: String
        /// The type asked for.
        public let requested: ConfigType

        public var description: String {
            "\(key) holds \(stored), which is not \(requested.rawValue)"
        }
    }

    /// How a suite's stored values read as configuration values.
    ///
    /// - A key's components joined with "." name the suite's key: `http.timeout` is the key
    ///   `"http.timeout"`. When no such key is stored, a dictionary stored under a shorter prefix
    ///   answers with its members: `http` holding `["timeout": 30]` gives `http.timeout` 30.
    /// - Strings, integers, floats, booleans and data read as themselves; arrays whose elements all
    ///   do read as the matching array type (an empty array as any of them).
    /// - An integer asked for as a double reads as that double when a `Double` holds it exactly
    ///   (up to 2^53): a tool writing `timeout 3` means 3.0. A float is never read as an integer.
    /// - A date reads as a string, in ISO 8601 (`2026-11-23T10:00:00Z`, with its fraction of a
    ///   second when it has one). On Linux a `Date` that TypedDefaults stores is seconds since 2001,
    ///   a float: declare it a double, or store its text.
    /// - An explicit `nil` (an optional stored as "no value") reads as absent.
    /// - Anything else (a dictionary asked for as a value, a string asked for as an integer) is a
    ///   ``DefaultsProviderTypeMismatch``, thrown, and reported to `DefaultsError.handler` once for
    ///   each stored value.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    enum StoredValueLookup {
        /// The value under the configuration key `components` in `values`, as `type`.
        /// - Parameters:
        ///   - components: the configuration key's components.
        ///   - type: the type asked for.
        ///   - values: the suite's stored values.
        static func content(
            of components: [String], as type: ConfigType, in values: [DefaultsStoredKey: DefaultsStoredValue]
        ) throws(DefaultsProviderTypeMismatch) -> ConfigContent? {
            let key = components.joined(separator: ".")
            guard let stored = find(components, in: values) else { return nil }
            if case .explicitNil = stored.encoding { return nil }
            guard let content = convert(stored, to: type) else {
                throw DefaultsProviderTypeMismatch(key: key, stored: describe(stored), requested: type)
            }
            return content
        }

        /// The stored value the key names: the whole key, else the member of a dictionary stored
        /// under the longest prefix of its components.
        static func find(
            _ components: [String], in values: [DefaultsStoredKey: DefaultsStoredValue]
        ) -> DefaultsStoredValue? {
            if let exact = values[DefaultsStoredKey(components.joined(separator: "."))] { return exact }
            for split in stride(from: components.count - 1, through: 1, by: -1) {
                guard let container = values[DefaultsStoredKey(components[..<split].joined(separator: "."))] else {
                    continue
                }
                var current: DefaultsStoredValue? = container
                for member in components[split...] {
                    guard case .dictionary(let entries)? = current else {
                        current = nil
                        break
                    }
                    current = entries[DefaultsStoredKey(member)]
                }
                if let current { return current }
            }
            return nil
        }

        /// The value as the configuration type it reads as most plainly (a string, an integer, …,
        /// an array of one of them), for a secrets specifier that looks at values; `nil` for one
        /// that no type reads as (a dictionary, a mixed array, an integer above `Int.max`).
        static func plainContent(of value: DefaultsStoredValue) -> ConfigContent? {
            let types: [ConfigType] =
                switch value {
                case .string, .date: [.string]
                case .integer, .unsignedInteger: [.int]
                case .real: [.double]
                case .boolean: [.bool]
                case .data: [.bytes]
                case .array: [.stringArray, .intArray, .doubleArray, .boolArray, .byteChunkArray]
                case .dictionary: []
                }
            return types.lazy.compactMap { convert(value, to: $0) }.first
        }

        private static func convert(_ value: DefaultsStoredValue, to type: ConfigType) -> ConfigContent? {
            switch type {
            case .string: string(value).map(ConfigContent.string)
            case .int: int(value).map(ConfigContent.int)
            case .double: double(value).map(ConfigContent.double)
            case .bool: bool(value).map(ConfigContent.bool)
            case .bytes: data(value).map { .bytes(Array($0)) }
            case .stringArray: elements(value, string).map(ConfigContent.stringArray)
            case .intArray: elements(value, int).map(ConfigContent.intArray)
            case .doubleArray: elements(value, double).map(ConfigContent.doubleArray)
            case .boolArray: elements(value, bool).map(ConfigContent.boolArray)
            case .byteChunkArray: elements(value, { data($0).map { Array($0) } }).map(ConfigContent.byteChunkArray)
            }
        }

        private static func string(_ value: DefaultsStoredValue) -> String? {
            switch value {
            case .string(let text): text
            case .date(let date): isoText(date)
            default: nil
            }
        }

        private static func int(_ value: DefaultsStoredValue) -> Int? {
            switch value {
            case .integer(let number): Int(exactly: number)
            case .unsignedInteger(let number): Int(exactly: number)
            default: nil
            }
        }

        private static func bool(_ value: DefaultsStoredValue) -> Bool? {
            if case .boolean(let flag) = value { flag } else { nil }
        }

        private static func data(_ value: DefaultsStoredValue) -> Data? {
            if case .data(let bytes) = value { bytes } else { nil }
        }

        private static func double(_ value: DefaultsStoredValue) -> Double? {
            switch value {
            case .real(let number): number
            case .integer(let number): Double(exactly: number)
            case .unsignedInteger(let number): Double(exactly: number)
            default: nil
            }
        }

        /// Every element of an array converted, or `nil` when the value is no array or one element
        /// does not convert.
        private static func elements<Element>(
            _ value: DefaultsStoredValue, _ convert: (DefaultsStoredValue) -> Element?
        ) -> [Element]? {
            guard case .array(let values) = value else { return nil }
            var converted: [Element] = []
            converted.reserveCapacity(values.count)
            for element in values {
                guard let element = convert(element) else { return nil }
                converted.append(element)
            }
            return converted
        }

        private static func isoText(_ date: Date) -> String {
            let whole = date.timeIntervalSince1970.rounded(.down)
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions =
                whole == date.timeIntervalSince1970
                ? [.withInternetDateTime] : [.withInternetDateTime, .withFractionalSeconds]
            return formatter.string(from: date)
        }

        /// What a stored value is, for an error.
        static func describe(_ value: DefaultsStoredValue) -> String {
            switch value {
            case .array(let elements):
                let kinds = Set(elements.map(\.kind.rawValue))
                return kinds.count == 1 ? "an array of \(kinds.first ?? "")" : "an array of mixed values"
            case .integer, .unsignedInteger: return "an integer"
            case .data: return "data"
            default: return "a \(value.kind.rawValue)"
            }
        }
    }
#endif
