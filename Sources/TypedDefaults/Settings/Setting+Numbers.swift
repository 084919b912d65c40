extension Setting where Value: DefaultsSteppable {
    /// A number kept within `range`, stepped by `step`, for a typed key.
    ///
    /// ```swift
    /// extension DefaultsKeys {
    ///     static let volume = DefaultsKey<Double>("volume", default: 0.5)
    /// }
    /// @Setting(.volume, title: "Volume", range: 0...1, step: 0.1) var volume
    /// ```
    ///
    /// The value stays within `range` however it is set: a value assigned, or written by
    /// another process, outside it reads as the nearer bound (a rule added after the key's).
    ///
    /// - Parameters:
    ///   - key: the typed key, with its default, rules and callbacks.
    ///   - title: the short name a settings screen shows; the key's name unless given.
    ///   - info: a longer explanation; empty unless given.
    ///   - range: the bounds the value is kept within.
    ///   - step: how far ``increase(wrapping:)`` and ``decrease(wrapping:)`` move the value, on a
    ///     grid that starts at the lower bound of `range`; 1 unless given.
    ///   - format: formats a value for people; unless given, a value shows as its description.
    ///   - store: the store the value lives in; if `nil` (the default), the key's store, else `.standard`.
    public init(
        _ key: DefaultsKey<Value>, title: String? = nil, info: String = "", range: ClosedRange<Value>,
        step: Value = 1, format: (@Sendable (Value) -> String)? = nil, store: DefaultsStore? = nil
    ) {
        self.init(
            property: UserDefault(key, store: store).clamped(to: range), title: title, info: info, format: format,
            stepping: Stepping(min: range.lowerBound, max: range.upperBound, step: step))
    }

    /// A number kept within `range`, stepped by `step`, stored under `key`.
    ///
    /// ```swift
    /// @Setting("fontSize", title: "Font size", range: 8...72, step: 2) var fontSize = 12
    /// ```
    ///
    /// - Parameters:
    ///   - defaultValue: the value read while nothing is stored; it is never written.
    ///   - key: the name the value is stored under.
    ///   - title: the short name a settings screen shows; the key's name unless given.
    ///   - info: a longer explanation; empty unless given.
    ///   - range: the bounds the value is kept within.
    ///   - step: how far ``increase(wrapping:)`` and ``decrease(wrapping:)`` move the value, on a
    ///     grid that starts at the lower bound of `range`; 1 unless given.
    ///   - format: formats a value for people; unless given, a value shows as its description.
    ///   - store: the store the value lives in; `.standard` unless given.
    public init(
        wrappedValue defaultValue: Value, _ key: String, title: String? = nil, info: String = "",
        range: ClosedRange<Value>, step: Value = 1, format: (@Sendable (Value) -> String)? = nil,
        store: DefaultsStore = .standard
    ) {
        self.init(
            property: UserDefault(wrappedValue: defaultValue, key, store: store).clamped(to: range), title: title,
            info: info, format: format, stepping: Stepping(min: range.lowerBound, max: range.upperBound, step: step))
    }

    /// The lowest value: the first option of a number declared with options, the lower bound
    /// of the range, or the type's lowest value (for a type of your own declared without a
    /// range, the value itself: such a setting does not step).
    public var min: Value {
        declaredOptions?.values.first ?? stepping?.min ?? Value.fullRange?.lowerBound ?? wrappedValue
    }

    /// The highest value: the last option of a number declared with options, the upper bound
    /// of the range, or the type's highest value (the value itself for a type of your own
    /// declared without a range).
    public var max: Value {
        declaredOptions?.values.last ?? stepping?.max ?? Value.fullRange?.upperBound ?? wrappedValue
    }

    /// How far ``increase(wrapping:)`` and ``decrease(wrapping:)`` move; 1 unless declared
    /// otherwise. A number declared with options moves from option to option instead.
    public var step: Value { stepping?.step ?? 1 }
}

/// A setting whose value is a number: what ``Setting/increase(wrapping:)`` and its kin call when
/// the value type is only known to be `Equatable`.
protocol NumberSetting {
    var isNumberAtMin: Bool { get }
    var isNumberAtMax: Bool { get }
    func stepNumber(upward: Bool, wrapping: Bool)
}

extension Setting: NumberSetting where Value: DefaultsSteppable {
    var isNumberAtMin: Bool { wrappedValue <= min }
    var isNumberAtMax: Bool { wrappedValue >= max }

    func stepNumber(upward: Bool, wrapping: Bool) {
        // Bounds that do not depend on the value, which another thread may change meanwhile:
        // a setting with none does not step.
        guard let range = stepping.map({ $0.min...$0.max }) ?? Value.fullRange else { return }
        let step = step
        property.update { value in
            if wrapping && value == (upward ? range.upperBound : range.lowerBound) {
                value = upward ? range.lowerBound : range.upperBound
            } else {
                value = Value.steppedValue(value, by: step, upward: upward, within: range)
            }
        }
    }
}
