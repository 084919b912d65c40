/// A rule a value must satisfy, applied on every read and write of a key or property.
///
/// Rules apply in the order they were added: on reads, to what is stored (or the default); on
/// writes, to what is assigned, before it is stored. A value that a rule rejects is replaced,
/// never stored as it is, and a stored value that breaks a rule (written by an older version
/// of your program, or by another one) is corrected on read, while the stored data stays as it
/// is until you write. Since a value written is read back through the rules again, make each
/// rule give the same result when applied twice, as the built-in ones do.
///
/// ```swift
/// extension DefaultsKeys {
///     static let volume = DefaultsKey<Int>("volume", default: 5)
///         .clamped(to: 0...10)
///         .ensure(when: { $0 == 7 }, use: 8)
///     static let nickname = DefaultsKey<String?>("nickname").whenNil(use: "friend")
///     static let port = DefaultsKey<Int>("port", default: 8080).validate { (1...65535).contains($0) }
/// }
///
/// struct Downloads {
///     @UserDefault var retries: Int
///     init() { _retries = UserDefault(wrappedValue: 3, "retries").clamped(to: 0...5) }
/// }
/// ```
public struct DefaultsRule<Value>: Sendable {
    /// Returns the value to use in place of `value`; `defaultValue` is the key's default.
    let apply: @Sendable (_ value: Value, _ defaultValue: Value) -> Value

    /// A rule from a function of the value and the key's default.
    ///
    /// ```swift
    /// let even = DefaultsRule<Int> { value, _ in value - value % 2 }
    /// ```
    public init(_ apply: @escaping @Sendable (_ value: Value, _ defaultValue: Value) -> Value) {
        self.apply = apply
    }
}

extension DefaultsRule where Value: Sendable {
    /// The rules the chained methods of ``DefaultsRuleChaining`` add.
    static func replacing(when condition: @escaping @Sendable (Value) -> Bool, with replacement: Value) -> Self {
        Self { value, _ in condition(value) ? replacement : value }
    }

    static func defaultUnless(_ isValid: @escaping @Sendable (Value) -> Bool) -> Self {
        Self { value, defaultValue in isValid(value) ? value : defaultValue }
    }

    /// A floating-point NaN, which lies outside every range, becomes the lower bound.
    static func nearestBound(in range: ClosedRange<Value>) -> Self where Value: Comparable {
        Self { value, _ in
            guard range.contains(value) else { return value > range.upperBound ? range.upperBound : range.lowerBound }
            return value
        }
    }

    static func replacingNil<Wrapped: Sendable>(with replacement: Wrapped) -> Self where Value == Wrapped? {
        Self { value, _ in value ?? replacement }
    }
}

extension Array {
    /// Applies rules in order.
    func applied<Value>(to value: Value, defaultValue: @autoclosure () -> Value) -> Value
    where Element == DefaultsRule<Value> {
        guard !isEmpty else { return value }
        let defaultValue = defaultValue()
        return reduce(value) { value, rule in rule.apply(value, defaultValue) }
    }
}

/// Keys and properties that take rules, chained: `.clamped(to:)`, `.validate(_:)`,
/// `.ensure(when:use:)`, `.whenNil(use:)`, or any ``DefaultsRule`` with `adding(_:)`.
///
/// ```swift
/// static let volume = DefaultsKey<Int>("volume", default: 5).clamped(to: 0...10)
/// ```
public protocol DefaultsRuleChaining {
    /// The type of the value the rules apply to.
    associatedtype Value

    /// The same key or property with `rule` applied after the existing rules.
    func adding(_ rule: DefaultsRule<Value>) -> Self
}

extension DefaultsRuleChaining where Value: Sendable {
    /// Adds a rule: a value for which `condition` holds becomes `replacement`.
    ///
    /// ```swift
    /// static let volume = DefaultsKey<Int>("volume", default: 5).ensure(when: { $0 == 7 }, use: 8)
    /// ```
    public func ensure(when condition: @escaping @Sendable (Value) -> Bool, use replacement: Value) -> Self {
        adding(.replacing(when: condition, with: replacement))
    }

    /// Adds a rule: a value `isValid` rejects becomes the default.
    ///
    /// ```swift
    /// static let port = DefaultsKey<Int>("port", default: 8080).validate { (1...65535).contains($0) }
    /// ```
    public func validate(_ isValid: @escaping @Sendable (Value) -> Bool) -> Self {
        adding(.defaultUnless(isValid))
    }

    /// Adds a rule: a value outside `range` becomes the nearer bound, and a floating-point NaN,
    /// which lies outside every range, the lower bound.
    ///
    /// ```swift
    /// static let volume = DefaultsKey<Double>("volume", default: 0.5).clamped(to: 0...1)
    /// ```
    public func clamped(to range: ClosedRange<Value>) -> Self where Value: Comparable {
        adding(.nearestBound(in: range))
    }

    /// Adds a rule: `nil` becomes `replacement`.
    ///
    /// ```swift
    /// static let nickname = DefaultsKey<String?>("nickname").whenNil(use: "friend")
    /// ```
    public func whenNil<Wrapped: Sendable>(use replacement: Wrapped) -> Self where Value == Wrapped? {
        adding(.replacingNil(with: replacement))
    }
}
