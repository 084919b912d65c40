import Foundation

/// A `Decimal` is stored as its exact decimal text (`"19.99"`), never through `Double`, so
/// `0.1 + 0.2` stays `0.3` across a restart. `Decimal.nan` is stored as `"NaN"`.
///
/// ```swift
/// @UserDefault("price") var price = Decimal(string: "19.99")!
/// ```
///
/// A number another program stored (plain `UserDefaults` stores an `NSDecimalNumber` as a
/// floating-point number) reads as the decimal its shortest description shows: `0.1`, not
/// `0.1000000000000000055511151231257827`. Text that is not a whole decimal number (`"1abc"`,
/// `"1,5"`, `" 1"`) or lies outside `Decimal`'s range is a type mismatch, where
/// `Decimal(string:)` would read the `1` and drop the rest.
extension Decimal: DefaultsValueConvertible {
    public init(defaultsRepresentation stored: DefaultsStoredValue) throws {
        let number: Decimal?
        switch stored {
        case .string(let text):
            guard let value = DecimalText.parse(text) else {
                throw DefaultsTypeMismatch(expected: Decimal.self, found: text)
            }
            number = value
        case .integer(let value): number = Decimal(value)
        case .unsignedInteger(let value): number = Decimal(value)
        case .real(let value): number = value.isFinite ? DecimalText.parse("\(value)") : nil
        default: number = nil
        }
        guard let number else { throw DefaultsTypeMismatch(expected: Decimal.self, found: stored.plistObject) }
        self = number
    }

    public func defaultsRepresentation() -> DefaultsStoredValue {
        .string(isNaN ? "NaN" : description)
    }
}

/// Reading a `Decimal` from text strictly: the whole text, in the POSIX format it is written in.
enum DecimalText {
    private static let posix = Locale(identifier: "en_US_POSIX")

    static func parse(_ text: String) -> Decimal? {
        if text == "NaN" { return .nan }
        guard isDecimalNumber(text.utf8) else { return nil }
        return Decimal(string: text, locale: posix)
    }

    /// `[+-]digits[.digits][e[+-]digits]`, with digits on at least one side of the point.
    private static func isDecimalNumber(_ text: String.UTF8View) -> Bool {
        var bytes = text[...]
        func digits() -> Int {
            let count = bytes.prefix { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }.count
            bytes = bytes.dropFirst(count)
            return count
        }
        func skip(_ characters: String) -> Bool {
            guard let first = bytes.first, characters.utf8.contains(first) else { return false }
            bytes = bytes.dropFirst()
            return true
        }
        _ = skip("+-")
        var mantissa = digits()
        if skip(".") { mantissa += digits() }
        guard mantissa > 0 else { return false }
        if skip("eE") {
            _ = skip("+-")
            guard digits() > 0 else { return false }
        }
        return bytes.isEmpty
    }
}
