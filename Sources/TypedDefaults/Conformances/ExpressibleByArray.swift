/// A collection that can be rebuilt from an array of its elements, and so can be stored as a
/// property-list array with an empty ``DefaultsValueConvertible`` conformance.
///
/// ```swift
/// struct Tags: ExpressibleByArray, DefaultsValueConvertible {
///     var items: [String]
///     init(array: [String]) { items = array }
///     func makeIterator() -> IndexingIterator<[String]> { items.makeIterator() }
/// }
/// @UserDefault("tags") var tags = Tags(array: ["swift"])
/// ```
///
/// A collection with the usual `init<S: Sequence>(_:)` adopts ``ExpressibleBySequence`` instead,
/// which gives it this initializer.
public protocol ExpressibleByArray: Sequence {
    /// Creates the collection from its elements, in storage order.
    init(array: [Element])
}

/// A collection that can be made from any sequence of its elements, such as `Set`, or `Deque`
/// and `OrderedSet` from swift-collections: its `init(_:)` stands for ``ExpressibleByArray``'s
/// `init(array:)`, so it conforms with an empty body.
///
/// ```swift
/// extension Deque: ExpressibleBySequence, DefaultsValueConvertible
/// where Element: DefaultsValueConvertible {}
/// ```
///
/// The two protocols are juliand665/UserDefault's, with the same requirements, so that a
/// collection written for that library conforms here unchanged.
public protocol ExpressibleBySequence: ExpressibleByArray {
    /// Creates the collection from a sequence of its elements.
    init<S: Sequence>(_ elements: S) where S.Element == Element
}

extension ExpressibleBySequence {
    /// Creates the collection from its elements, through its sequence initializer.
    public init(array: [Element]) {
        self.init(array)
    }
}

extension DefaultsValueConvertible where Self: ExpressibleByArray, Element: DefaultsValueConvertible {
    public init(defaultsRepresentation: [Element.DefaultsRepresentation]) throws {
        self.init(array: try [Element](defaultsRepresentation: defaultsRepresentation))
    }

    public func defaultsRepresentation() throws -> [Element.DefaultsRepresentation] {
        try Array(self).defaultsRepresentation()
    }
}

/// A `Codable` collection is stored as an array, not as JSON.
extension DefaultsValueConvertible
where Self: ExpressibleByArray & Codable, Element: DefaultsValueConvertible {
    public init(defaultsRepresentation: [Element.DefaultsRepresentation]) throws {
        self.init(array: try [Element](defaultsRepresentation: defaultsRepresentation))
    }

    public func defaultsRepresentation() throws -> [Element.DefaultsRepresentation] {
        try Array(self).defaultsRepresentation()
    }
}
