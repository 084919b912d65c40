/// How a native value is read back from the object `UserDefaults` returned. Only the library's
/// own native types conform: a ``DefaultsValue`` of the app's own has no reading, so it is
/// refused when written and when read. (Writing needs no bridge: it is the public
/// `_propertyListObject`.)
protocol PropertyListBridged {
    /// Reads a value from an object that `UserDefaults` returned.
    ///
    /// - Throws: ``DefaultsTypeMismatch`` when the object is not a valid value of this type.
    init(bridgedObject: Any) throws

    /// Reads a value from `object` into `pointer`, uninitialized memory for the type; leaves it
    /// uninitialized when it throws. Callable on the conformance a cast found, with no cast per
    /// value.
    static func read(_ object: Any, into pointer: UnsafeMutableRawPointer) throws
}

extension PropertyListBridged {
    static func read(_ object: Any, into pointer: UnsafeMutableRawPointer) throws {
        pointer.initializeMemory(as: Self.self, to: try Self(bridgedObject: object))
    }
}

extension DefaultsValue {
    /// Whether the type is one of the library's own native types, which alone read back: a
    /// value of any other is refused when written, so that what a write stores always reads.
    static var isBridged: Bool { Self.self is any PropertyListBridged.Type }

    /// The value read from an object that `UserDefaults` returned, through the type's reading,
    /// found with one conformance lookup.
    init(storedObject object: Any) throws {
        guard let bridged = Self.self as? any PropertyListBridged.Type else {
            throw NotANativeType(type: Self.self)
        }
        // The conformance was found for `Self`, so the memory it initializes holds a `Self`.
        self = try withUnsafeTemporaryAllocation(of: Self.self, capacity: 1) { buffer in
            guard let memory = buffer.baseAddress else { throw NotANativeType(type: Self.self) }
            try bridged.read(object, into: UnsafeMutableRawPointer(memory))
            return memory.move()
        }
    }
}

/// A ``DefaultsValue`` conformance of the app's own: the library reads only its own native
/// types, so such a value is refused when written and when read.
struct NotANativeType: Error, CustomStringConvertible {
    let type: Any.Type

    var description: String {
        "\(type) holds a DefaultsValue of the app's own, which the library cannot read back: only its own "
            + "types are DefaultsValues (String, numbers, Bool, Data, Date, and arrays, dictionaries and "
            + "optionals of them); declare the type DefaultsValueConvertible, stored as one of them"
    }

    /// The error a write of a value stored as `type` reports under `key`.
    static func refusing(_ type: Any.Type, key: String) -> DefaultsError {
        .encodingFailed(key: key, underlying: NotANativeType(type: type))
    }
}
