extension Setting where Value == Bool {
    /// Whether the flag is on.
    ///
    /// ```swift
    /// if settings.$shuffle.isOn { tracks.shuffle() }
    /// ```
    ///
    /// Not to be confused with ``hasStoredValue``, which tells whether any value is stored.
    public var isOn: Bool { wrappedValue }

    /// Turns the flag off if it is on and on if it is off, atomically: two toggles from two
    /// threads or processes leave it as it was.
    ///
    /// ```swift
    /// settings.$shuffle.toggle()
    /// ```
    public func toggle() {
        property.update { $0.toggle() }
    }
}
