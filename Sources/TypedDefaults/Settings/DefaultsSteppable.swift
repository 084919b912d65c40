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
/// Any integer or floating-point type of your own steps so too when it conforms
/// (`extension Int128: @retroactive DefaultsSteppable {}`). Another numeric type of your own,
/// such as `Decimal`, steps by adding and subtracting the step, landing on the bound a step
/// would pass, with no grid; a zero step goes straight to the bound, a negative one counts as
/// its magnitude. Declare such a setting with a range: without one it has no bounds to step
/// within, and does not step.
public protocol DefaultsSteppable: DefaultsValueConvertible, Comparable, Numeric, Sendable {}

extension DefaultsSteppable {
    // Each type opened below is `Self`, as the cast that found it proved: the casts of values
    // between the two only tell the compiler so.

    /// The bounds of a numeric setting declared without any: all the values of an integer or
    /// floating-point type; `nil` for another type, which then has none.
    static var fullRange: ClosedRange<Self>? {
        func integers<Integer: FixedWidthInteger>(_: Integer.Type) -> ClosedRange<Self>? {
            guard let lower = Integer.min as? Self, let upper = Integer.max as? Self else { return nil }
            return lower...upper
        }
        func floatingPoints<Number: BinaryFloatingPoint>(_: Number.Type) -> ClosedRange<Self>? {
            guard let lower = -Number.infinity as? Self, let upper = Number.infinity as? Self else { return nil }
            return lower...upper
        }
        if let type = Self.self as? any FixedWidthInteger.Type { return integers(type) }
        if let type = Self.self as? any BinaryFloatingPoint.Type { return floatingPoints(type) }
        return nil
    }

    /// The value one step up (or down) from `value`, kept within `range`: on the grid of `step`s
    /// that starts at the lower bound for an integer or floating-point type.
    static func steppedValue(_ value: Self, by step: Self, upward: Bool, within range: ClosedRange<Self>) -> Self {
        func integer<Integer: FixedWidthInteger>(_: Integer.Type) -> Self? {
            guard let value = value as? Integer, let step = step as? Integer,
                let lower = range.lowerBound as? Integer, let upper = range.upperBound as? Integer
            else { return nil }
            return Integer.steppedOnGrid(value, by: step, upward: upward, within: lower...upper) as? Self
        }
        func floatingPoint<Number: BinaryFloatingPoint & CustomStringConvertible>(_: Number.Type) -> Self? {
            guard let value = value as? Number, let step = step as? Number,
                let lower = range.lowerBound as? Number, let upper = range.upperBound as? Number
            else { return nil }
            return Number.steppedOnGrid(value, by: step, upward: upward, within: lower...upper) as? Self
        }
        if let type = Self.self as? any FixedWidthInteger.Type, let stepped = integer(type) { return stepped }
        if let type = Self.self as? any (BinaryFloatingPoint & CustomStringConvertible).Type,
            let stepped = floatingPoint(type)
        {
            return stepped
        }
        return plainlyStepped(value, by: step, upward: upward, within: range)
    }

    /// A step by adding or subtracting, for a numeric type that is neither an integer nor a
    /// floating-point type: no grid, and never past a bound. It computes only the next value,
    /// never a distance, so a type whose arithmetic traps traps only where the step itself
    /// leaves the type.
    private static func plainlyStepped(
        _ value: Self, by step: Self, upward: Bool, within range: ClosedRange<Self>
    ) -> Self {
        let (lower, upper) = (range.lowerBound, range.upperBound)
        guard step != .zero else { return upward ? upper : lower }
        let value = Swift.min(Swift.max(value, lower), upper)
        if upward {
            guard value < upper else { return upper }
            return Swift.min(step > .zero ? value + step : value - step, upper)
        }
        guard value > lower else { return lower }
        return Swift.max(step > .zero ? value - step : value + step, lower)
    }

    /// Whether `value`, which lies between `lower` and `upper`, is at least as near to `lower`
    /// as to `upper`: how a number declared with options finds the nearest one.
    static func valueIsNearerToLower(_ value: Self, between lower: Self, and upper: Self) -> Bool {
        func integer<Integer: FixedWidthInteger>(_: Integer.Type) -> Bool? {
            guard let value = value as? Integer, let lower = lower as? Integer, let upper = upper as? Integer else {
                return nil
            }
            // Distances as magnitudes: exact even between Int.min and Int.max.
            return Integer.Magnitude(truncatingIfNeeded: value &- lower)
                <= Integer.Magnitude(truncatingIfNeeded: upper &- value)
        }
        if let type = Self.self as? any FixedWidthInteger.Type, let nearer = integer(type) { return nearer }
        return value - lower <= upper - value
    }
}

extension FixedWidthInteger {
    /// The value one step up (or down) from `value` on the grid of `step`s that starts at the
    /// lower bound of `range`, kept within `range`. A negative step counts as its magnitude; a
    /// zero step goes straight to the bound. Never overflows.
    static func steppedOnGrid(_ value: Self, by step: Self, upward: Bool, within range: ClosedRange<Self>) -> Self {
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
}

extension BinaryFloatingPoint where Self: CustomStringConvertible {
    /// The value one step up (or down) from `value` on the grid of `step`s that starts at the
    /// lower bound of `range` (at zero when no bound is finite), kept within `range`, landing on
    /// the decimal the step and bound describe.
    static func steppedOnGrid(_ value: Self, by step: Self, upward: Bool, within range: ClosedRange<Self>) -> Self {
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

extension Int: DefaultsSteppable {}
extension Int8: DefaultsSteppable {}
extension Int16: DefaultsSteppable {}
extension Int32: DefaultsSteppable {}
extension Int64: DefaultsSteppable {}
extension UInt: DefaultsSteppable {}
extension UInt8: DefaultsSteppable {}
extension UInt16: DefaultsSteppable {}
extension UInt32: DefaultsSteppable {}
extension UInt64: DefaultsSteppable {}
extension Double: DefaultsSteppable {}
extension Float: DefaultsSteppable {}
