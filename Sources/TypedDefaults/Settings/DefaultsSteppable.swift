/// A number a ``Setting`` can step through: every integer type, `Double` and `Float`.
///
/// Steps follow a grid that starts at the lower bound (at zero for a floating-point setting with
/// no finite bound): with bounds `0...10` and a step of 3,
/// the values are 0, 3, 6, 9 and then 10, because a step that would overshoot lands on the
/// bound. A value off the grid (set directly, or by another process) steps to the next grid
/// value up or down. Integer steps never overflow, even at `Int.max`. Floating-point steps do
/// not drift: each lands on the decimal the step and bound describe, so ten steps of 0.1 from
/// 0 land on exactly 1.0, and three on exactly 0.3.
///
/// ```swift
/// @Setting("fontSize", title: "Font size", range: 8...72, step: 2) var fontSize = 12
/// @Setting("volume", title: "Volume", range: 0...1, step: 0.1) var volume = 0.5
/// ```
///
/// The library's integer types, `Double` and `Float` step as described above. A numeric type of
/// your own can conform too (`extension Decimal: @retroactive DefaultsSteppable {}`): it steps by
/// adding and subtracting the step, kept within the setting's range, so declare it with one.
public protocol DefaultsSteppable: DefaultsValueConvertible, Comparable, Numeric, Sendable {}

extension DefaultsSteppable {
    /// The bounds of a numeric setting declared without any: all the values of the type, for
    /// the library's numbers; `nil` for a type of the app's own.
    static var fullRange: ClosedRange<Self>? {
        guard let arithmetic = Self.self as? any SteppingArithmetic.Type else { return nil }
        func range<Number: SteppingArithmetic>(_: Number.Type) -> ClosedRange<Self>? {
            let range = Number.steppingRange
            guard let lower = range.lowerBound as? Self, let upper = range.upperBound as? Self else { return nil }
            return lower...upper
        }
        return range(arithmetic)
    }

    /// The value one step up (or down) from `value` on the grid of `step`s that starts at the
    /// lower bound of `range`, kept within `range`.
    static func steppedValue(_ value: Self, by step: Self, upward: Bool, within range: ClosedRange<Self>) -> Self {
        guard let arithmetic = Self.self as? any SteppingArithmetic.Type else {
            let moved = upward ? value + step : value - step
            return Swift.min(Swift.max(moved, range.lowerBound), range.upperBound)
        }
        func stepped<Number: SteppingArithmetic>(_: Number.Type) -> Self? {
            guard let value = value as? Number, let step = step as? Number,
                let lower = range.lowerBound as? Number, let upper = range.upperBound as? Number
            else { return nil }
            return Number.stepped(value, by: step, upward: upward, within: lower...upper) as? Self
        }
        return stepped(arithmetic) ?? value
    }

    /// Whether `value`, which lies between `lower` and `upper`, is at least as near to `lower`
    /// as to `upper`: how a number declared with options finds the nearest one.
    static func valueIsNearerToLower(_ value: Self, between lower: Self, and upper: Self) -> Bool {
        guard let arithmetic = Self.self as? any SteppingArithmetic.Type else {
            return value - lower <= upper - value
        }
        func isNearer<Number: SteppingArithmetic>(_: Number.Type) -> Bool {
            guard let value = value as? Number, let lower = lower as? Number, let upper = upper as? Number else {
                return true
            }
            return Number.isNearerToLower(value, between: lower, and: upper)
        }
        return isNearer(arithmetic)
    }
}

/// The stepping of the library's numbers: exact for integers at their limits, free of drift for
/// floating point.
protocol SteppingArithmetic: Comparable {
    /// All the values of the type.
    static var steppingRange: ClosedRange<Self> { get }

    /// The value one step up (or down) from `value` on the grid of `step`s that starts at the
    /// lower bound of `range`, kept within `range`. A negative step counts as its magnitude; a
    /// zero step goes straight to the bound.
    static func stepped(_ value: Self, by step: Self, upward: Bool, within range: ClosedRange<Self>) -> Self

    /// Whether `value`, which lies between `lower` and `upper`, is at least as near to `lower`
    /// as to `upper`.
    static func isNearerToLower(_ value: Self, between lower: Self, and upper: Self) -> Bool
}

extension SteppingArithmetic where Self: FixedWidthInteger {
    static var steppingRange: ClosedRange<Self> { .min ... .max }

    static func stepped(_ value: Self, by step: Self, upward: Bool, within range: ClosedRange<Self>) -> Self {
        let (lower, upper) = (range.lowerBound, range.upperBound)
        let stride = step.magnitude
        guard stride != 0 else { return upward ? upper : lower }
        let value = Swift.min(Swift.max(value, lower), upper)
        // Distances from the lower bound as magnitudes: exact even from Int.min to Int.max.
        let offset = Magnitude(truncatingIfNeeded: value &- lower)
        let span = Magnitude(truncatingIfNeeded: upper &- lower)
        let (index, remainder) = offset.quotientAndRemainder(dividingBy: stride)
        let below = index * stride  // the grid value at or below `value`; never past `span`
        if upward {
            guard span - below > stride else { return upper }
            return lower &+ Self(truncatingIfNeeded: below + stride)
        }
        if remainder != 0 { return lower &+ Self(truncatingIfNeeded: below) }
        return below == 0 ? lower : lower &+ Self(truncatingIfNeeded: below - stride)
    }

    static func isNearerToLower(_ value: Self, between lower: Self, and upper: Self) -> Bool {
        // Distances as magnitudes: exact even between Int.min and Int.max.
        Magnitude(truncatingIfNeeded: value &- lower) <= Magnitude(truncatingIfNeeded: upper &- value)
    }
}

extension SteppingArithmetic where Self: BinaryFloatingPoint & LosslessStringConvertible {
    static var steppingRange: ClosedRange<Self> { -.infinity ... .infinity }

    static func stepped(_ value: Self, by step: Self, upward: Bool, within range: ClosedRange<Self>) -> Self {
        let (lower, upper) = (range.lowerBound, range.upperBound)
        let stride = step.magnitude
        guard stride > 0, stride.isFinite else { return upward ? upper : lower }
        let value = value.isNaN ? lower : Swift.min(Swift.max(value, lower), upper)
        // The grid starts at a finite bound, or at zero when both are infinite.
        let origin = lower.isFinite ? lower : (upper.isFinite ? upper : 0)
        let position = (value - origin) / stride
        let nearest = position.rounded()
        // A value within rounding error of a grid value is on it. The error grows with the
        // magnitudes subtracted, relative to the step.
        let roundingError = 16 * Self.ulpOfOne * Swift.max(1, (value.magnitude + origin.magnitude) / stride)
        let onGrid = (position - nearest).magnitude <= Swift.min(roundingError, 0.01)
        let index = onGrid ? nearest : (upward ? position.rounded(.down) : position.rounded(.up))
        let target = origin + (upward ? index + 1 : index - 1) * stride
        let decimal = target.roundedToDecimals(Swift.max(step.decimalPlaces, origin.decimalPlaces))
        return Swift.min(Swift.max(decimal, lower), upper)
    }

    static func isNearerToLower(_ value: Self, between lower: Self, and upper: Self) -> Bool {
        value - lower <= upper - value
    }

    /// How many decimals the shortest description of the number has: 1 for 0.1, 5 for 1e-05.
    var decimalPlaces: Int {
        let text = description.lowercased()
        let parts = text.split(separator: "e", maxSplits: 1)
        let mantissa = parts.first.map(String.init) ?? text
        let exponent = parts.count == 2 ? Int(parts[1]) ?? 0 : 0
        let fraction = mantissa.split(separator: ".", maxSplits: 1).dropFirst().first ?? ""
        let digits = fraction == "0" ? 0 : fraction.count
        return Swift.max(0, digits - exponent)
    }

    /// The number rounded to `places` decimals, the nearest representable value to that
    /// decimal; unchanged when `places` is beyond what the type can hold.
    func roundedToDecimals(_ places: Int) -> Self {
        guard places > 0, places <= 15, isFinite else { return self }
        var scale: Self = 1
        for _ in 0..<places { scale *= 10 }
        let scaled = self * scale
        guard scaled.isFinite else { return self }
        return scaled.rounded() / scale
    }
}

extension Int: DefaultsSteppable, SteppingArithmetic {}
extension Int8: DefaultsSteppable, SteppingArithmetic {}
extension Int16: DefaultsSteppable, SteppingArithmetic {}
extension Int32: DefaultsSteppable, SteppingArithmetic {}
extension Int64: DefaultsSteppable, SteppingArithmetic {}
extension UInt: DefaultsSteppable, SteppingArithmetic {}
extension UInt8: DefaultsSteppable, SteppingArithmetic {}
extension UInt16: DefaultsSteppable, SteppingArithmetic {}
extension UInt32: DefaultsSteppable, SteppingArithmetic {}
extension UInt64: DefaultsSteppable, SteppingArithmetic {}
extension Double: DefaultsSteppable, SteppingArithmetic {}
extension Float: DefaultsSteppable, SteppingArithmetic {}
