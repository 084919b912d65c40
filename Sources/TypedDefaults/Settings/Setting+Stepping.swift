extension Setting where Value: Equatable {
    /// Whether the value is at its lowest, so ``decrease(wrapping:)`` would not change it: the
    /// first option of a setting with options, or ``min`` for a number.
    ///
    /// ```swift
    /// decreaseButton.isEnabled = !settings.$fontSize.isAtMin
    /// ```
    ///
    /// A setting with neither options nor a numeric value is at both ends: it has nowhere to step.
    public var isAtMin: Bool {
        if let options = declaredOptions { return options.isAtStart(wrappedValue) }
        return (self as? any NumberSetting)?.isNumberAtMin ?? true
    }

    /// Whether the value is at its highest, so ``increase(wrapping:)`` would not change it: the
    /// last option of a setting with options, or ``max`` for a number.
    public var isAtMax: Bool {
        if let options = declaredOptions { return options.isAtEnd(wrappedValue) }
        return (self as? any NumberSetting)?.isNumberAtMax ?? true
    }

    /// Moves the value up, atomically: to the next option of a setting with options, or one
    /// ``step`` up for a number, to ``max`` when a step would pass it. At the end it stays, or
    /// with `wrapping` goes round to the start (the first option, or ``min``).
    ///
    /// ```swift
    /// settings.$volume.increase()                 // 0.5 → 0.6
    /// settings.$theme.increase()                  // .light → .dark
    /// settings.$theme.increase(wrapping: true)    // .system → .light
    /// ```
    ///
    /// Two threads or processes increasing at once move it two steps on. A setting with
    /// neither options nor a numeric value does not change.
    public func increase(wrapping: Bool = false) {
        move(upward: true, wrapping: wrapping)
    }

    /// Moves the value down, atomically: to the previous option, or one ``step`` down for a
    /// number, to ``min`` when a step would pass it. At the start it stays, or with `wrapping`
    /// goes round to the end (the last option, or ``max``).
    ///
    /// ```swift
    /// settings.$fontSize.decrease()    // 12 → 10
    /// ```
    public func decrease(wrapping: Bool = false) {
        move(upward: false, wrapping: wrapping)
    }

    private func move(upward: Bool, wrapping: Bool) {
        if let options = declaredOptions {
            property.update { $0 = options.moved($0, upward: upward, wrapping: wrapping) }
        } else if let number = self as? any NumberSetting {
            number.stepNumber(upward: upward, wrapping: wrapping)
        }
    }
}
