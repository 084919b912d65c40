/// How values of one ``DefaultsValue`` type are read back from the objects `UserDefaults`
/// holds: through the type's own reading, or none for a type of the app's own. (Writing needs
/// no bridge: it is the public `_propertyListObject`.)
struct NativeBridge<Native: DefaultsValue> {
    private let memory: any MemoryBridge.Type

    init() {
        memory = (Native.self as? any PropertyListBridged.Type) ?? Refused<Native>.self
    }

    /// Whether `Native` is one of the library's own native types, which alone read back: a
    /// value of any other is refused when written, so that what a write stores always reads.
    static var isNative: Bool { Native.self is any PropertyListBridged.Type }

    /// The value read from an object that `UserDefaults` returned. The bridge was found for
    /// `Native` itself, so the memory it initializes holds a `Native`.
    func read(_ object: Any) throws -> Native {
        let value = UnsafeMutablePointer<Native>.allocate(capacity: 1)
        defer { value.deallocate() }
        try memory.read(object, into: UnsafeMutableRawPointer(value))
        return value.move()
    }
}

/// Reads one native type's values into memory known to hold that type, so that a
/// ``NativeBridge`` calls it with no cast per value.
protocol MemoryBridge {
    /// Reads a value from `object` into `pointer`, uninitialized memory for the type; leaves it
    /// uninitialized when it throws.
    static func read(_ object: Any, into pointer: UnsafeMutableRawPointer) throws
}

extension PropertyListBridged {
    static func read(_ object: Any, into pointer: UnsafeMutableRawPointer) throws {
        pointer.initializeMemory(as: Self.self, to: try Self(bridgedObject: object))
    }
}

/// The reading of a ``DefaultsValue`` of the app's own: refused.
private enum Refused<Native>: MemoryBridge {
    static func read(_: Any, into _: UnsafeMutableRawPointer) throws { throw NotANativeType(type: Native.self) }
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
}
