// Stands in for Apple's SwiftUI: the property wrappers the library's `UserDefaultState` builds
// on, with the declarations of Apple's documentation pages for `DynamicProperty`, `State` and
// `Binding` (and, for what those pages leave out, the attributes SwiftUI's interface gives
// them). This module is compiled, never run: where SwiftUI's behaviour would have to be made
// up (a state's storage in the view graph), a body stops the program instead.

/// DynamicProperty: `protocol DynamicProperty { mutating func update() }`, with a default
/// `update()`.
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public protocol DynamicProperty {
    mutating func update()
}

@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
extension DynamicProperty {
    public mutating func update() {}
}

/// State: `@frozen @propertyWrapper struct State<Value>`, a `DynamicProperty`, the property
/// wrapper of Xcode 26 and earlier (Xcode 27's `@State` is a macro).
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
@frozen @propertyWrapper
public struct State<Value>: DynamicProperty {
    private let initialValue: Value

    /// State/init(wrappedValue:): `init(wrappedValue value: Value)`.
    public init(wrappedValue value: Value) {
        initialValue = value
    }

    /// State/init(initialValue:): `init(initialValue value: Value)`.
    public init(initialValue value: Value) {
        initialValue = value
    }

    /// State/wrappedValue: `var wrappedValue: Value { get nonmutating set }`.
    public var wrappedValue: Value {
        get { initialValue }
        nonmutating set { fatalError("the SwiftUI stand-in is compiled, never run") }
    }

    /// State/projectedValue: `var projectedValue: Binding<Value> { get }`.
    public var projectedValue: Binding<Value> {
        fatalError("the SwiftUI stand-in is compiled, never run")
    }
}

/// Binding: `@frozen @propertyWrapper @dynamicMemberLookup struct Binding<Value>`, `Sendable`
/// where `Value` is, and a `DynamicProperty`.
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
@frozen @propertyWrapper @dynamicMemberLookup
public struct Binding<Value> {
    private let get: @isolated(any) @Sendable () -> Value
    private let set: @isolated(any) @Sendable (Value) -> Void

    /// Binding/init(get:set:): `@preconcurrency init(get: @escaping @isolated(any) @Sendable
    /// () -> Value, set: @escaping @isolated(any) @Sendable (Value) -> Void)`; SwiftUI's
    /// interface marks both closures `@_inheritActorContext`, so a closure written in a
    /// main-actor context is isolated to the main actor.
    @preconcurrency
    public init(
        @_inheritActorContext get: @escaping @isolated(any) @Sendable () -> Value,
        @_inheritActorContext set: @escaping @isolated(any) @Sendable (Value) -> Void
    ) {
        self.get = get
        self.set = set
    }

    /// Binding/wrappedValue: `var wrappedValue: Value { get nonmutating set }`.
    public var wrappedValue: Value {
        get { fatalError("the SwiftUI stand-in is compiled, never run") }
        nonmutating set { fatalError("the SwiftUI stand-in is compiled, never run") }
    }

    /// Binding/projectedValue: `var projectedValue: Binding<Value> { get }`.
    public var projectedValue: Binding<Value> { self }

    /// Binding/subscript(dynamicMember:): `subscript<Subject>(dynamicMember keyPath:
    /// WritableKeyPath<Value, Subject>) -> Binding<Subject> { get }`.
    public subscript<Subject>(dynamicMember keyPath: WritableKeyPath<Value, Subject>) -> Binding<Subject> {
        fatalError("the SwiftUI stand-in is compiled, never run")
    }
}

@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
extension Binding: Sendable where Value: Sendable {}

@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
extension Binding: DynamicProperty {}
