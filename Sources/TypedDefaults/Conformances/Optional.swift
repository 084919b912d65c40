/// Optionals of any storable type are storable, at the top level and inside collections.
///
/// A property-list value cannot be `nil`, so an explicit `nil` is stored as a small marker
/// dictionary, `["__TypedDefaults.nil": 0]`. That is what keeps `nil` distinct from "nothing
/// stored":
///
/// ```swift
/// @UserDefault("count") var count: Int? = 42
/// count = nil      // stored: stays nil after a restart, the default does not come back
/// $count.reset()   // removed: reads 42 again
///
/// @UserDefault("name") var name: String?
/// name = nil       // the default is nil too, so the key is simply removed
///
/// @UserDefault("tags") var tags: [String?] = ["a", nil]   // nil elements are kept
/// ```
///
/// Nested optionals stay exact: `Int??.some(nil)` is stored with a marker depth of 1.
/// A dictionary whose only entry is the marker key is read as `nil`; do not use that key.
extension Optional: DefaultsValueConvertible where Wrapped: DefaultsValueConvertible {
    public typealias DefaultsRepresentation = Wrapped.DefaultsRepresentation?

    public init(defaultsRepresentation: Wrapped.DefaultsRepresentation?) throws {
        self = try defaultsRepresentation.map(Wrapped.init(defaultsRepresentation:))
    }

    public func defaultsRepresentation() throws -> Wrapped.DefaultsRepresentation? {
        try map { try $0.defaultsRepresentation() }
    }
}

extension Optional: DefaultsValue where Wrapped: DefaultsValue {
    public var _propertyListObject: Any {
        guard let wrapped = self else { return NilMarker.object(depth: 0) }
        let object = wrapped._propertyListObject
        if let depth = NilMarker.depth(of: object) { return NilMarker.object(depth: depth + 1) }
        return object
    }
}

extension Optional: PropertyListBridged where Wrapped: PropertyListBridged {
    init(bridgedObject object: Any) throws {
        switch NilMarker.depth(of: object) {
        case nil: self = .some(try Wrapped(bridgedObject: object))
        case 0: self = .none
        case let depth?: self = .some(try Wrapped(bridgedObject: NilMarker.object(depth: depth - 1)))
        }
    }
}

/// The stored form of an explicit `nil`.
package enum NilMarker {
    package static let key = "__TypedDefaults.nil"

    static func object(depth: Int) -> Any {
        [key: depth]
    }

    /// How many optional levels the marker stands for, or `nil` when `object` is no marker.
    package static func depth(of object: Any) -> Int? {
        guard let entries = StoredObject.dictionary(object), entries.count == 1,
            let stored = entries[key], case .signed(let depth) = StoredObject.number(stored),
            depth >= 0
        else { return nil }
        return Int(depth)
    }
}

/// Lets `@UserDefault` remove the key when `nil` is assigned and the default is `nil` too.
protocol OptionalValue {
    var isNil: Bool { get }
}

extension Optional: OptionalValue {
    var isNil: Bool { self == nil }
}
