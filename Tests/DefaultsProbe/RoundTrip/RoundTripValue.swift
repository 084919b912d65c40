import Foundation
import TypedDefaults

/// A storable type whose values the round-trip run can make from a seed and compare exactly.
protocol RoundTripValue: DefaultsValueConvertible {
    /// A value drawn from `draw`: the same draw gives the same value in every process.
    static func generate(_ draw: inout Draw) -> Self

    /// Every detail the library promises to keep, as ASCII text: equal fingerprints mean an
    /// exact round trip. (ASCII, because Swift compares other strings by canonical equivalence,
    /// which would let `"é"` and `"e\u{301}"` pass as one.)
    var fingerprint: String { get }
}

/// A bound of a generated range: never NaN, so that two bounds can always be ordered.
protocol RoundTripBound: RoundTripValue, Comparable {
    static func generateBound(_ draw: inout Draw) -> Self
}

extension RoundTripBound {
    static func generateBound(_ draw: inout Draw) -> Self { generate(&draw) }
}

/// Lets the run know that a top-level value is `nil` (whose write removes the key when the
/// default is `nil` too).
protocol RoundTripOptional {
    var isNone: Bool { get }
}

extension Optional: RoundTripOptional {
    var isNone: Bool { self == nil }
}

/// Fingerprints of the building blocks.
enum Fingerprint {
    /// `text` quoted, with every scalar outside printable ASCII written as `\u{HEX}`.
    static func text(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x22, 0x5C: result += "\\" + String(scalar)
            case 0x20...0x7E: result.unicodeScalars.append(scalar)
            default: result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            }
        }
        return result + "\""
    }

    /// The shortest text that reads back as `value`: unique for every value but NaN, and
    /// `-0.0` apart from `0.0`. NaNs are all one (the library promises NaN, not its payload).
    static func real<Real: BinaryFloatingPoint & LosslessStringConvertible>(_ value: Real) -> String {
        value.isNaN ? "nan" : value.description
    }

    static func data(_ data: Data) -> String {
        "<\(data.count) bytes " + data.map { String($0, radix: 16, uppercase: true) }.joined(separator: " ") + ">"
    }
}

// MARK: - Collections, optionals and ranges

extension Array: RoundTripValue where Element: RoundTripValue {
    static func generate(_ draw: inout Draw) -> [Element] {
        let count = draw.count()
        return draw.nested { draw in (0..<count).map { _ in Element.generate(&draw) } }
    }

    var fingerprint: String { "[" + map(\.fingerprint).joined(separator: ", ") + "]" }
}

extension Set: RoundTripValue where Element: RoundTripValue {
    /// Elements that Swift finds equal collapse to the first drawn, in every process alike.
    static func generate(_ draw: inout Draw) -> Set<Element> {
        Set([Element].generate(&draw))
    }

    var fingerprint: String { "{" + map(\.fingerprint).sorted().joined(separator: ", ") + "}" }
}

extension Dictionary: RoundTripValue
where Key: RoundTripValue, Key.DefaultsRepresentation: LosslessStringConvertible, Value: RoundTripValue {
    /// Keys that Swift finds equal keep the first key drawn and the last value. At most one
    /// key is unequal to itself (a NaN): two would both be stored as "nan", which the library
    /// refuses (see the refusals).
    static func generate(_ draw: inout Draw) -> [Key: Value] {
        let count = draw.count()
        return draw.nested { draw in
            var result: [Key: Value] = [:]
            var hasNaN = false
            for _ in 0..<count {
                let key = Key.generate(&draw)
                let value = Value.generate(&draw)
                if key != key {
                    if hasNaN { continue }
                    hasNaN = true
                }
                result[key] = value
            }
            return result
        }
    }

    var fingerprint: String {
        "[" + map { "\($0.key.fingerprint): \($0.value.fingerprint)" }.sorted().joined(separator: ", ") + "]"
    }
}

extension Optional: RoundTripValue where Wrapped: RoundTripValue {
    static func generate(_ draw: inout Draw) -> Wrapped? {
        draw.chance(0.25) ? nil : Wrapped.generate(&draw)
    }

    var fingerprint: String { map { "?\($0.fingerprint)" } ?? "nil" }
}

extension Range: RoundTripValue where Bound: RoundTripBound {
    static func generate(_ draw: inout Draw) -> Range<Bound> {
        let (first, second) = (Bound.generateBound(&draw), Bound.generateBound(&draw))
        return Swift.min(first, second)..<Swift.max(first, second)
    }

    var fingerprint: String { "\(lowerBound.fingerprint)..<\(upperBound.fingerprint)" }
}

extension ClosedRange: RoundTripValue where Bound: RoundTripBound {
    static func generate(_ draw: inout Draw) -> ClosedRange<Bound> {
        let (first, second) = (Bound.generateBound(&draw), Bound.generateBound(&draw))
        return Swift.min(first, second)...Swift.max(first, second)
    }

    var fingerprint: String { "\(lowerBound.fingerprint)...\(upperBound.fingerprint)" }
}
