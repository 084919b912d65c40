import Foundation

#if canImport(CoreGraphics)
    import CoreGraphics
#endif

/// Reading what other settings libraries stored, where the stored object does not read as the
/// declared type stores itself: sindresorhus/Defaults' `Codable` bridge (a JSON string), Foil's
/// and SwiftyUserDefaults' (JSON `Data`). Tried only after the type's own form failed, so a read
/// of the library's own data costs nothing more; the native types keep their strict forms (a
/// stored `"42"` under an `Int` key stays a mismatch).
enum OtherLibrariesForms {
    /// `object` read as `Value` in another library's form, or `nil`.
    static func read<Value: DefaultsValueConvertible>(_ object: Any, as type: Value.Type) -> Value? {
        // Unwrapped before the cast: a `nil` cast to an optional `Value` would be a value.
        if let reader = Value.self as? any ReadsOtherLibrariesForms.Type, let found = reader.readingOtherForm(object) {
            return found as? Value
        }
        return codable(object, as: Value.self)
    }

    /// What Foil and SwiftyUserDefaults store for any `Codable` value, and Defaults for an enum
    /// with raw values; never tried for a native type.
    private static func codable<Value: DefaultsValueConvertible>(_ object: Any, as type: Value.Type) -> Value? {
        guard !(Value.self is any DefaultsValue.Type), let decodable = Value.self as? any Decodable.Type else {
            return nil
        }
        // JSON `Data`: never the form of a type whose own is `Data` (an archive).
        if object is Data, Value.DefaultsRepresentation.self != Data.self, let found = decoded(object, as: decodable) {
            return found as? Value
        }
        // The JSON of the raw value (`"\"dark\""`, `"180"`), as Defaults' `Codable` bridge stores
        // an enum that is also `Codable`.
        if object is String, Value.self is any RawRepresentable.Type, let found = decoded(object, as: decodable) {
            return found as? Value
        }
        return nil
    }

    /// The element of a stored collection at `object`: its own form first, then another
    /// library's, as a whole value is read.
    static func element<Element: DefaultsValueConvertible>(_ object: Any, as type: Element.Type) throws -> Element {
        do {
            return try Element(defaultsRepresentation: Element.DefaultsRepresentation(storedObject: object))
        } catch {
            guard let value = read(object, as: Element.self) else { throw error }
            return value
        }
    }

    /// The value the JSON in `object` (a string or `Data`) decodes to, or `nil`.
    static func json<Value: Decodable>(_ object: Any, as type: Value.Type) -> Value? {
        let data: Data
        switch object {
        case let text as String: data = Data(text.utf8)
        case let bytes as Data: data = bytes
        default: return nil
        }
        return try? JSONDecoder().decode(Value.self, from: data)
    }

    /// ``json(_:as:)`` for a type known only at run time.
    private static func decoded(_ object: Any, as type: any Decodable.Type) -> Any? {
        func open<Value: Decodable>(_ type: Value.Type) -> Any? { json(object, as: type) }
        return open(type)
    }
}

/// A type whose other libraries' forms are its own to read: geometry stored as the JSON of its
/// `Codable` conformance, collections whose elements are, and types whose own form is text.
protocol ReadsOtherLibrariesForms {
    /// `object` read in another library's form, or `nil`.
    static func readingOtherForm(_ object: Any) -> Self?
}

extension ReadsOtherLibrariesForms where Self: Decodable {
    /// The JSON of the type's `Codable` conformance, as a string (Defaults) or `Data` (Foil,
    /// SwiftyUserDefaults).
    static func readingOtherForm(_ object: Any) -> Self? {
        OtherLibrariesForms.json(object, as: Self.self)
    }
}

// `Duration`, `IndexPath` and `TimeZone` as the JSON of their `Codable` conformance: Defaults
// stores a type it has no bridge for that way once the app declares it `Defaults.Serializable`
// (`Duration` as `"[0,1500000000000000000]"`).
extension Duration: ReadsOtherLibrariesForms {}
extension IndexPath: ReadsOtherLibrariesForms {}
extension TimeZone: ReadsOtherLibrariesForms {}

extension Decimal: ReadsOtherLibrariesForms {
    /// The JSON number Foil and SwiftyUserDefaults store as `Data`, read as strictly as the text
    /// stored here: the same digits.
    static func readingOtherForm(_ object: Any) -> Decimal? {
        guard let data = object as? Data, let text = String(data: data, encoding: .utf8) else { return nil }
        return DecimalText.parse(text)
    }
}

extension Optional: ReadsOtherLibrariesForms where Wrapped: DefaultsValueConvertible {
    static func readingOtherForm(_ object: Any) -> Wrapped?? {
        OtherLibrariesForms.read(object, as: Wrapped.self).map(Optional.some)
    }
}

extension Array: ReadsOtherLibrariesForms where Element: DefaultsValueConvertible {
    /// An array whose elements are in another library's form (Defaults stores `[CGSize]` as an
    /// array of JSON strings): every element must read, as for an array in the library's own form.
    static func readingOtherForm(_ object: Any) -> [Element]? {
        guard let elements = StoredObject.array(object) else { return nil }
        var array: [Element] = []
        array.reserveCapacity(elements.count)
        for element in elements {
            guard let value = try? OtherLibrariesForms.element(element, as: Element.self) else { return nil }
            array.append(value)
        }
        return array
    }
}

extension Set: ReadsOtherLibrariesForms where Element: DefaultsValueConvertible {
    static func readingOtherForm(_ object: Any) -> Set<Element>? {
        guard let elements = [Element].readingOtherForm(object) else { return nil }
        return Set(elements)
    }
}

extension Dictionary: ReadsOtherLibrariesForms
where
    Key: DefaultsValueConvertible, Key.DefaultsRepresentation: LosslessStringConvertible,
    Value: DefaultsValueConvertible
{
    static func readingOtherForm(_ object: Any) -> [Key: Value]? {
        guard let entries = StoredObject.dictionary(object) else { return nil }
        var dictionary: [Key: Value] = [:]
        for (storedKey, entry) in entries {
            guard let key = try? Self.key(stored: storedKey),
                let value = try? OtherLibrariesForms.element(entry, as: Value.self),
                dictionary.updateValue(value, forKey: key) == nil
            else { return nil }
        }
        return dictionary
    }
}
