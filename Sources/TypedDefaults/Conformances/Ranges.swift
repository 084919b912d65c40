/// `Range` and `ClosedRange` are stored as an array of their two bounds, lower first, each as
/// its own type is stored: `0..<10` as `[0, 10]`. It is the layout sindresorhus/Defaults uses.
///
/// ```swift
/// @UserDefault("visibleRows") var visibleRows = 0..<50
/// @UserDefault("comfortable") var comfortable = 19.5...23.0
/// ```
///
/// An array of another length, or a lower bound above the upper one (which `Range` cannot
/// hold), is a type mismatch rather than a crash.
extension Range: DefaultsValueConvertible where Bound: DefaultsValueConvertible {
    public init(defaultsRepresentation stored: [Bound.DefaultsRepresentation]) throws {
        let (lower, upper): (Bound, Bound) = try StoredBounds.read(stored, as: Self.self)
        self = lower..<upper
    }

    public func defaultsRepresentation() throws -> [Bound.DefaultsRepresentation] {
        [try lowerBound.defaultsRepresentation(), try upperBound.defaultsRepresentation()]
    }
}

extension ClosedRange: DefaultsValueConvertible where Bound: DefaultsValueConvertible {
    public init(defaultsRepresentation stored: [Bound.DefaultsRepresentation]) throws {
        let (lower, upper): (Bound, Bound) = try StoredBounds.read(stored, as: Self.self)
        self = lower...upper
    }

    public func defaultsRepresentation() throws -> [Bound.DefaultsRepresentation] {
        [try lowerBound.defaultsRepresentation(), try upperBound.defaultsRepresentation()]
    }
}

/// The two bounds of a stored range, checked before a range is made of them.
enum StoredBounds {
    static func read<Bound: DefaultsValueConvertible & Comparable>(
        _ stored: [Bound.DefaultsRepresentation], as range: Any.Type
    ) throws -> (Bound, Bound) {
        guard stored.count == 2 else {
            throw DefaultsTypeMismatch(expected: String(describing: range), found: "an array of \(stored.count) bounds")
        }
        let bounds = try Located.map(stored, Bound.init(defaultsRepresentation:))
        guard bounds[0] <= bounds[1] else {
            throw DefaultsTypeMismatch(
                expected: String(describing: range), found: "lower bound \(bounds[0]) above upper bound \(bounds[1])")
        }
        return (bounds[0], bounds[1])
    }
}
