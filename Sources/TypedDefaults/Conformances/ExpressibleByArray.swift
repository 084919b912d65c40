/// A collection that can be rebuilt from an array of its elements, and so can be stored as a
/// property-list array with an empty ``DefaultsValueConvertible`` conformance.
///
/// ```swift
/// struct Tags: ExpressibleByArray, DefaultsValueConvertible {
///     var items: [String]
///     init(_ elements: [String]) { items = elements }
///     func makeIterator() -> IndexingIterator<[String]> { items.makeIterator() }
/// }
/// @UserDefault("tags") var tags = Tags(["swift"])
/// ```
///
/// A collection with the usual `init<S: Sequence>(_:)`, such as `Deque` or `OrderedSet` from
/// swift-collections, already has the initializer, so it conforms with an empty body:
///
/// ```swift
/// extension Deque: ExpressibleByArray, DefaultsValueConvertible
/// where Element: DefaultsValueConvertible {}
/// ```
public protocol ExpressibleByArray: Sequence {
    /// Creates the collection from its elements, in storage order.
    init(_ elements: [Element])
}

extension DefaultsValueConvertible where Self: ExpressibleByArray, Element: DefaultsValueConvertible {
    public init(defaultsRepresentation: [Element.DefaultsRepresentation]) throws {
        self.init(try [Element](defaultsRepresentation: defaultsRepresentation))
    }

    public func defaultsRepresentation() throws -> [Element.DefaultsRepresentation] {
        try Array(self).defaultsRepresentation()
    }
}

/// A `Codable` collection is stored as an array, not as JSON.
extension DefaultsValueConvertible
where Self: ExpressibleByArray & Codable, Element: DefaultsValueConvertible {
    public init(defaultsRepresentation: [Element.DefaultsRepresentation]) throws {
        self.init(try [Element](defaultsRepresentation: defaultsRepresentation))
    }

    public func defaultsRepresentation() throws -> [Element.DefaultsRepresentation] {
        try Array(self).defaultsRepresentation()
    }
}
