extension Setting {
    /// The values a setting may take, in the order it steps through them.
    struct Options: Sendable {
        let values: [Value]
        /// Where a value is among `values`; `nil` when it is none of them.
        let position: @Sendable (Value) -> Int?

        /// Every case of a `CaseIterable & Equatable` value type, in declaration order; `nil`
        /// for any other type, and for a type with no cases.
        static func everyCase(of type: Value.Type) -> Options? {
            guard let enumerable = type as? any (CaseIterable & Equatable).Type else { return nil }
            return cases(of: enumerable)
        }

        private static func cases<Cases: CaseIterable & Equatable>(of _: Cases.Type) -> Options? {
            // `Cases` is `Value`: the casts only tell the compiler so.
            let values = Cases.allCases.compactMap { $0 as? Value }
            guard !values.isEmpty else { return nil }
            return Options(values: values) { value in
                values.firstIndex { ($0 as? Cases) == (value as? Cases) }
            }
        }

        /// The value `upward` or downward of `value`: at an end, it stays, or with `wrapping`
        /// goes round to the other end. A value that is none of the options (which the rules
        /// keep from being read) moves to the first option up, or the last down.
        func moved(_ value: Value, upward: Bool, wrapping: Bool) -> Value {
            guard let last = values.indices.last else { return value }
            guard let index = position(value) else { return values[upward ? 0 : last] }
            if upward { return index < last ? values[index + 1] : (wrapping ? values[0] : value) }
            return index > 0 ? values[index - 1] : (wrapping ? values[last] : value)
        }

        func isAtStart(_ value: Value) -> Bool { position(value) == 0 }
        func isAtEnd(_ value: Value) -> Bool { position(value) == values.count - 1 }

        /// A rule that replaces a value that is none of the options: a number by the nearest
        /// option, anything else by the default, or by the first option when the default is
        /// none of them either.
        var rule: DefaultsRule<Value> {
            guard let first = values.first else { return DefaultsRule { value, _ in value } }
            if let numbers = Value.self as? any DefaultsSteppable.Type, let nearest = Self.nearestRule(numbers, values)
            {
                return nearest
            }
            let position = self.position
            return DefaultsRule { value, defaultValue in
                if position(value) != nil { return value }
                return position(defaultValue) != nil ? defaultValue : first
            }
        }

        /// The rule for numbers: the nearest option (the lower of two equally near); NaN, near
        /// no option, the default or, when the default is none of the options, the first. Made
        /// for `Number`, which is `Value`, so that a read runs it with no cast.
        private static func nearestRule<Number: DefaultsSteppable>(_: Number.Type, _ values: [Value])
            -> DefaultsRule<Value>?
        {
            guard let numbers = values as? [Number], let first = numbers.first else { return nil }
            let sorted = numbers.sorted()
            let rule = DefaultsRule<Number> { value, defaultValue in
                // NaN is the only value not equal to itself.
                guard value == value else { return numbers.contains(defaultValue) ? defaultValue : first }
                // The first option at or above the value, found by halving.
                var (low, high) = (0, sorted.count)
                while low < high {
                    let middle = (low + high) / 2
                    if sorted[middle] < value { low = middle + 1 } else { high = middle }
                }
                if low == sorted.count { return sorted[low - 1] }
                if sorted[low] == value || low == 0 { return sorted[low] }
                let (below, above) = (sorted[low - 1], sorted[low])
                return Number.valueIsNearerToLower(value, between: below, and: above) ? below : above
            }
            return rule as? DefaultsRule<Value>
        }

        /// Whether a value of the type can be none of the options. Not for an enum without
        /// payloads, whose every value is one of its cases: a read needs no rule to check it.
        /// A struct that lists its allowed values as `allCases` needs one.
        var admitsOtherValues: Bool {
            !values.allSatisfy { value in
                let mirror = Mirror(reflecting: value)
                return mirror.displayStyle == .enum && mirror.children.isEmpty
            }
        }
    }
}

extension Setting.Options where Value: Equatable {
    /// `values` without repeats, first occurrence kept; an empty list allows only `defaultValue`.
    init(declared values: [Value], defaultValue: Value) {
        var unique: [Value] = []
        // NaN, never equal to itself, could never be selected: it is left out.
        for value in values where value == value && !unique.contains(value) { unique.append(value) }
        let options = unique.isEmpty ? [defaultValue] : unique
        self.init(values: options) { value in options.firstIndex(of: value) }
    }
}

extension Setting where Value: Equatable {
    /// A setting for a typed key that only takes one of `options`.
    ///
    /// ```swift
    /// extension DefaultsKeys {
    ///     static let language = DefaultsKey<String>("language", default: "en")
    /// }
    /// @Setting(.language, title: "Language", options: ["en", "fr", "de"], format: { $0.uppercased() })
    /// var language
    /// ```
    ///
    /// A value assigned, or stored by another handle or process, that is none of the options
    /// reads as the key's default (or, if the default is none of them either, the first
    /// option). A number reads as the nearest option (the lower of two equally near: with
    /// `[240, 480, 720, 1080]`, 600 reads as 480), as a number outside a range reads as the
    /// nearer bound; NaN reads as the default. What is stored is never outside the list, and a
    /// stored value outside it stays as it is until the setting is written. Repeated options
    /// are listed once; an empty list allows only the default. ``min`` and ``max`` of a number
    /// with options are its first and last options.
    ///
    /// - Parameters:
    ///   - key: the typed key, with its default, rules and callbacks.
    ///   - title: the short name a settings screen shows; the key's name unless given.
    ///   - info: a longer explanation; empty unless given.
    ///   - options: the values the setting takes, in the order it steps through them.
    ///   - format: formats a value for people; unless given, a value shows as its description.
    ///   - store: the store the value lives in; if `nil` (the default), the key's store, else `.standard`.
    public init(
        _ key: DefaultsKey<Value>, title: String? = nil, info: String = "", options: [Value],
        format: (@Sendable (Value) -> String)? = nil, store: DefaultsStore? = nil
    ) {
        let options = Options(declared: options, defaultValue: key.declaredDefaultValue)
        self.init(
            property: UserDefault(key, store: store).adding(options.rule), title: title, info: info, format: format,
            options: options)
    }

    /// A setting stored under `key` that only takes one of `options`.
    ///
    /// ```swift
    /// @Setting("language", title: "Language", options: ["en", "fr", "de"]) var language = "en"
    /// @Setting("quality", title: "Quality", options: [240, 480, 720, 1080]) var quality = 720
    /// ```
    ///
    /// A value that is none of the options reads as the default (or, if the default is none
    /// of them either, the first option), a number as the nearest option, as for a setting on
    /// a typed key.
    ///
    /// - Parameters:
    ///   - defaultValue: the value read while nothing is stored; it is never written.
    ///   - key: the name the value is stored under.
    ///   - title: the short name a settings screen shows; the key's name unless given.
    ///   - info: a longer explanation; empty unless given.
    ///   - options: the values the setting takes, in the order it steps through them.
    ///   - format: formats a value for people; unless given, a value shows as its description.
    ///   - store: the store the value lives in; `.standard` unless given.
    public init(
        wrappedValue defaultValue: Value, _ key: String, title: String? = nil, info: String = "",
        options: [Value], format: (@Sendable (Value) -> String)? = nil, store: DefaultsStore = .standard
    ) {
        let options = Options(declared: options, defaultValue: defaultValue)
        self.init(
            property: UserDefault(wrappedValue: defaultValue, key, store: store).adding(options.rule), title: title,
            info: info, format: format, options: options)
    }

    /// The values the setting takes, in the order ``increase(wrapping:)`` steps through them:
    /// those it was declared with, or every case of a `CaseIterable` enum in declaration order.
    /// Empty for a setting that may hold any value.
    ///
    /// ```swift
    /// for theme in settings.$theme.options {
    ///     print(settings.$theme.formatted(theme), theme == settings.theme ? "✓" : "")
    /// }
    /// ```
    public var options: [Value] { declaredOptions?.values ?? [] }
}
