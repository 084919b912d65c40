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
    public init(
        wrappedValue defaultValue: Value, _ key: String, title: String? = nil, info: String = "",
        range: ClosedRange<Value>, step: Value = 1, format: (@Sendable (Value) -> String)? = nil,
        store: DefaultsStore = .standard
    ) {
        self.init(
            property: UserDefault(wrappedValue: defaultValue, key, store: store).clamped(to: range), title: title,
            info: info, format: format, stepping: Stepping(min: range.lowerBound, max: range.upperBound, step: step))
    }

    /// The lowest value: the lower bound of the range, or the type's lowest value.
    public var min: Value { stepping?.min ?? Value._steppingRange.lowerBound }

    /// The highest value: the upper bound of the range, or the type's highest value.
    public var max: Value { stepping?.max ?? Value._steppingRange.upperBound }

    /// How far ``increase()`` and ``decrease()`` move; 1 unless declared otherwise.
    public var step: Value { stepping?.step ?? 1 }

    /// Whether the value is at its lowest, so ``decrease()`` would not change it.
    public var isAtMin: Bool { wrappedValue <= min }

    /// Whether the value is at its highest, so ``increase()`` would not change it.
    public var isAtMax: Bool { wrappedValue >= max }

    /// Moves the value one step up, or to ``max`` when a step would pass it, atomically.
    ///
    /// ```swift
    /// settings.$volume.increase()    // 0.5 → 0.6
    /// ```
    public func increase() {
        move(upward: true)
    }

    /// Moves the value one step down, or to ``min`` when a step would pass it, atomically.
    public func decrease() {
        move(upward: false)
    }

    private func move(upward: Bool) {
        let (step, range) = (step, min...max)
        property.update { $0 = Value._stepped($0, by: step, upward: upward, within: range) }
    }
}
