#if canImport(SwiftUI)
    import SwiftUI

    // Never run in this repository: CI runs on Linux, where it is compiled against a stand-in
    // for SwiftUI (TestPackages/AppleBranches/). Everything it relies on is tested there: `ObservableDefault`
    // and the observation of `@UserDefault` properties (ObservableModelTests).

    /// A stored value in a SwiftUI view, as `@AppStorage` is, sharing the store and cache of
    /// every other handle of the key.
    ///
    /// ```swift
    /// struct VolumeSlider: View {
    ///     @UserDefaultState(.volume) var volume
    ///     var body: some View { Slider(value: $volume, in: 0...1) }
    /// }
    /// ```
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @MainActor @propertyWrapper
    public struct UserDefaultState<Value: DefaultsValueConvertible & Sendable>: DynamicProperty {
        @State private var model: ObservableDefault<Value>

        /// A value stored under a typed key, in `store` (or the key's store, or the standard one).
        ///
        /// - Parameters:
        ///   - key: the typed key, with its default, rules and callbacks.
        ///   - store: the store the value lives in; if `nil` (the default), the key's store, else `.standard`.
        public init(_ key: DefaultsKey<Value>, store: DefaultsStore? = nil) {
            _model = State(initialValue: ObservableDefault(key, store: store))
        }

        /// A value stored under `key`, with a default.
        ///
        /// - Parameters:
        ///   - defaultValue: the value read while nothing is stored; it is never written.
        ///   - key: the name the value is stored under.
        ///   - store: the store the value lives in; `.standard` unless given.
        public init(wrappedValue defaultValue: Value, _ key: String, store: DefaultsStore = .standard) {
            _model = State(initialValue: ObservableDefault(UserDefault(wrappedValue: defaultValue, key, store: store)))
        }

        /// The stored value, or the default.
        public var wrappedValue: Value {
            get { model.value }
            nonmutating set { model.value = newValue }
        }

        /// A binding to the value, for controls.
        public var projectedValue: Binding<Value> {
            let model = model
            return Binding(get: { model.value }, set: { model.value = $0 })
        }
    }

    extension UserDefault where Value: Sendable {
        /// A binding to the value, for a control outside a `UserDefaultState`.
        ///
        /// ```swift
        /// Toggle("Shuffle", isOn: settings.$shuffle.binding)
        /// ```
        public var binding: Binding<Value> {
            let property = self
            return Binding(get: { property.wrappedValue }, set: { property.wrappedValue = $0 })
        }
    }
#endif
