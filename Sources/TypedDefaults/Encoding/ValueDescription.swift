/// Values as a person would read them in a listing.
enum ValueDescription {
    /// `Ada` rather than `Optional("Ada")`, and `nil` for `nil`.
    static func describe(_ value: Any) -> String {
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .optional else { return String(describing: value) }
        return mirror.children.first.map { describe($0.value) } ?? "nil"
    }
}
