import Foundation

@testable import TypedDefaults
@testable import TypedDefaultsStorage

/// A property-list value compared exactly, for round-trip properties: strings and keys by
/// their scalars (Swift's `==` compares strings by canonical equivalence, so `"é"` would equal
/// `"e\u{301}"`), reals by their bits (so `-0.0` is not `0.0`), dates as instants, integers by
/// value whatever type holds them.
public indirect enum ExactValue: Hashable, CustomStringConvertible, Sendable {
    case string([UInt8])
    case integer(Int64)
    /// Above `Int64.max` only.
    case unsigned(UInt64)
    case real(UInt64)
    case boolean(Bool)
    case date(UInt64)
    case data(Data)
    case array([ExactValue])
    /// Sorted by key.
    case dictionary([Entry])
    /// A keyed archive's reference.
    case uid(UInt64)

    public struct Entry: Hashable, Sendable {
        public let key: [UInt8]
        public let value: ExactValue

        public init(key: [UInt8], value: ExactValue) {
            self.key = key
            self.value = value
        }
    }

    /// How NaNs compare: bit for bit (a binary property list keeps their payload), or all as one
    /// (JSON writes every NaN as `"nan"`).
    public enum NaNs: Sendable {
        case bits, alike
    }

    /// The value of an object as the library's readers return it, `nil` for any other object.
    public init?(object: Any, nans: NaNs = .bits) {
        switch object {
        case let value as String: self = .string(Array(value.utf8))
        case let value as Bool: self = .boolean(value)
        case let value as Int: self = .integer(Int64(value))
        case let value as Int64: self = .integer(value)
        case let value as UInt64:
            self = value <= UInt64(Int64.max) ? .integer(Int64(value)) : .unsigned(value)
        case let value as Double: self = .real(Self.bits(value, nans))
        case let value as Date: self = .date(Self.instant(value, nans))
        case let value as Data: self = .data(value)
        case let value as ArchiveUID: self = .uid(value.value)
        case let elements as [Any]:
            var values: [ExactValue] = []
            for element in elements {
                guard let value = ExactValue(object: element, nans: nans) else { return nil }
                values.append(value)
            }
            self = .array(values)
        case let entries as [String: Any]:
            guard let built = Self.dictionary(entries.map { (Array($0.key.utf8), $0.value) }, nans) else { return nil }
            self = built
        case let exact as StoredObject.ExactDictionary:
            guard let built = Self.dictionary(exact.entries.map { (Array($0.key.name.utf8), $0.value) }, nans) else {
                return nil
            }
            self = built
        default:
            return nil
        }
    }

    /// The value of a stored value.
    public init(_ value: DefaultsStoredValue, nans: NaNs = .bits) {
        switch value {
        case .string(let text): self = .string(Array(text.utf8))
        case .integer(let number): self = .integer(number)
        case .unsignedInteger(let number):
            self = number <= UInt64(Int64.max) ? .integer(Int64(number)) : .unsigned(number)
        case .real(let number): self = .real(Self.bits(number, nans))
        case .boolean(let flag): self = .boolean(flag)
        case .date(let date): self = .date(Self.instant(date, nans))
        case .data(let bytes): self = .data(bytes)
        case .array(let values): self = .array(values.map { ExactValue($0, nans: nans) })
        case .dictionary(let entries):
            self = .dictionary(
                entries.map { Entry(key: Array($0.key.name.utf8), value: ExactValue($0.value, nans: nans)) }
                    .sorted { $0.key.lexicographicallyPrecedes($1.key) })
        }
    }

    /// A suite's or an import's values, as one dictionary.
    public init(_ values: [DefaultsStoredKey: DefaultsStoredValue], nans: NaNs = .bits) {
        self.init(.dictionary(values), nans: nans)
    }

    private static func dictionary(_ entries: [([UInt8], Any)], _ nans: NaNs) -> ExactValue? {
        var built: [Entry] = []
        built.reserveCapacity(entries.count)
        for (key, object) in entries {
            guard let value = ExactValue(object: object, nans: nans) else { return nil }
            built.append(Entry(key: key, value: value))
        }
        return .dictionary(built.sorted { $0.key.lexicographicallyPrecedes($1.key) })
    }

    /// A date is an instant: `-0.0` seconds is `0.0` (the text form writes both as
    /// `2001-01-01T00:00:00Z`).
    private static func instant(_ date: Date, _ nans: NaNs) -> UInt64 {
        let seconds = date.timeIntervalSinceReferenceDate
        return bits(seconds == 0 ? 0 : seconds, nans)
    }

    private static func bits(_ number: Double, _ nans: NaNs) -> UInt64 {
        number.isNaN && nans == .alike ? Double.nan.bitPattern : number.bitPattern
    }

    public var description: String {
        var text = ""
        write(to: &text, budget: 2_000)
        return text
    }

    private func write(to text: inout String, budget: Int) {
        guard text.utf8.count < budget else { return }
        switch self {
        case .string(let bytes): text += "string(\(String(reflecting: String(decoding: bytes, as: UTF8.self))))"
        case .integer(let number): text += "integer(\(number))"
        case .unsigned(let number): text += "unsigned(\(number))"
        case .real(let bits): text += "real(\(Double(bitPattern: bits)), bits \(String(bits, radix: 16)))"
        case .boolean(let flag): text += "boolean(\(flag))"
        case .date(let bits): text += "date(\(Double(bitPattern: bits)), bits \(String(bits, radix: 16)))"
        case .data(let bytes): text += "data(\(bytes.count) bytes)"
        case .uid(let number): text += "uid(\(number))"
        case .array(let values):
            text += "["
            for value in values {
                value.write(to: &text, budget: budget)
                text += ", "
            }
            text += "]"
        case .dictionary(let entries):
            text += "{"
            for entry in entries {
                text += String(reflecting: String(decoding: entry.key, as: UTF8.self)) + ": "
                entry.value.write(to: &text, budget: budget)
                text += ", "
            }
            text += "}"
        }
    }
}

extension ExactValue {
    /// A suite's contents as the file readers return them, as one dictionary.
    public init?(suite contents: [DefaultsStoredKey: StoredObject]) {
        var entries: [(key: String, value: Any)] = []
        for (key, value) in contents { entries.append((key.name, value.object)) }
        self.init(object: StoredObject.ExactDictionary(entries))
    }
}
