/// Arrays of any storable type are stored as property-list arrays, nested to any depth.
///
/// An array is read whole or not at all: if one element cannot be read (an unknown enum case,
/// a value of the wrong type), the read fails, the default is returned, the error names the
/// element's index, and the stored array is left untouched, so no element is silently lost.
///
/// ```swift
/// @UserDefault("recentFiles") var recentFiles: [URL] = []
/// @UserDefault("grid") var grid: [[Int]] = [[1, 2], [3, 4]]
/// ```
extension Array: DefaultsValueConvertible where Element: DefaultsValueConvertible {
    public typealias DefaultsRepresentation = [Element.DefaultsRepresentation]

    public init(defaultsRepresentation: [Element.DefaultsRepresentation]) throws {
        self = try Located.map(defaultsRepresentation, Element.init(defaultsRepresentation:))
    }

    public func defaultsRepresentation() throws -> [Element.DefaultsRepresentation] {
        try map { try $0.defaultsRepresentation() }
    }
}

extension Array: DefaultsValue where Element: DefaultsValue {
    public var _propertyListObject: Any {
        map(\._propertyListObject) as [Any]
    }
}

extension Array: PropertyListBridged where Element: PropertyListBridged {
    init(bridgedObject object: Any) throws {
        guard let elements = StoredObject.array(object) else {
            throw DefaultsTypeMismatch(expected: [Element].self, found: object)
        }
        self = try Located.map(elements, Element.init(bridgedObject:))
    }
}
