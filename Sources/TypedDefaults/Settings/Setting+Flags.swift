extension Setting where Value == Bool {
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
