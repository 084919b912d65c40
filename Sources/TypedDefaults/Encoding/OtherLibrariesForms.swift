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
    /// `object` read as `Value` in another library's form; `nil` when it is in none. Throws
    /// where an element of a collection is in no form, the error located at that element.
    static func read<Value: DefaultsValueConvertible>(_ object: Any, as type: Value.Type) throws -> Value? {
        // A type with a reader of its own is read by it alone: its rules are stricter than the
        // generic JSON one (`Decimal`'s digits, an optional's `null`).
        if let reader = Value.self as? any ReadsOtherLibrariesForms.Type {
            // Unwrapped before the cast: a `nil` cast to an optional `Value` would be a value.
            guard let found = try reader.readingOtherForm(object) else { return nil }
            return found as? Value
        }
        return codable(object, as: Value.self)
    }

    /// What Foil and SwiftyUserDefaults store for a `Codable` value, and Defaults for an enum
    /// with raw values; never tried for a native type.
    private static func codable<Value: DefaultsValueConvertible>(_ object: Any, as type: Value.Type) -> Value? {
        guard !(Value.self is any DefaultsValue.Type), let decodable = Value.self as? any Decodable.Type else {
            return nil
        }
        if object is Data {
            return storedAsJSONData(Value.self) ? decoded(object, as: decodable) as? Value : nil
        }
        // The JSON of the raw value (`"\"dark\""`, `"180"`), as Defaults' `Codable` bridge stores
        // an enum that is also `Codable`.
        if object is String, Value.self is any RawRepresentable.Type, let found = decoded(object, as: decodable) {
            return found as? Value
        }
        return nil
    }

    /// Whether Foil and SwiftyUserDefaults store `type` as JSON `Data`: a `Codable` type that
    /// is not native, not an optional (theirs are absent keys), not stored here as `Data`
    /// already (an archive), and not `URL`, which they store another way. An enum with raw
    /// values is, when the app chose SwiftyUserDefaults' `Codable` bridge for it.
    static func storedAsJSONData<Value: DefaultsValueConvertible>(_ type: Value.Type) -> Bool {
        Value.self is any Decodable.Type && !(Value.self is any DefaultsValue.Type)
            && !(Value.self is any OptionalValue.Type) && Value.DefaultsRepresentation.self != Data.self
            && Value.self != URL.self
    }

    /// The element of a stored collection at `object`: its own form first, then another
    /// library's, as a whole value is read. The error of one in neither form names the
    /// element's declared type.
    static func element<Element: DefaultsValueConvertible>(_ object: Any, as type: Element.Type) throws -> Element {
        do {
            return try Element(defaultsRepresentation: Element.DefaultsRepresentation(storedObject: object))
        } catch {
            guard let value = try read(object, as: Element.self) else {
                throw Conversion.naming(Element.self, in: error)
            }
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

    /// ``json(_:as:)`` for an array of a type known only at run time.
    static func decodedArray(_ object: Any, of type: any Decodable.Type) -> Any? {
        func open<Element: Decodable>(_ type: Element.Type) -> Any? { json(object, as: [Element].self) }
        return open(type)
    }
}

/// A type whose other libraries' forms are its own to read: geometry stored as the JSON of its
/// `Codable` conformance, collections whose elements are, and types whose own form is text.
protocol ReadsOtherLibrariesForms {
    /// `object` read in another library's form, or `nil`; a collection throws where one of its
    /// elements is in no form.
    static func readingOtherForm(_ object: Any) throws -> Self?
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
        OtherLibrariesForms.text(object).flatMap(DecimalText.parse)
    }
}

@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
extension Int128: ReadsOtherLibrariesForms {
    /// The JSON number Foil and SwiftyUserDefaults store as `Data`, read as strictly as the text
    /// stored here (`"1e3"` and `"5.0"` are no `Int128`s there either).
    static func readingOtherForm(_ object: Any) -> Int128? {
        OtherLibrariesForms.text(object).flatMap(Int128.init)
    }
}

@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
extension UInt128: ReadsOtherLibrariesForms {
    static func readingOtherForm(_ object: Any) -> UInt128? {
        OtherLibrariesForms.text(object).flatMap(UInt128.init)
    }
}

extension OtherLibrariesForms {
    /// The URLs of a keyed archive of an array of `NSURL`s, as SwiftyUserDefaults stores `[URL]`:
    /// read from the archive's objects, each text as a stored URL's.
    static func archivedURLs(_ object: Any) -> [URL]? {
        guard let data = object as? Data, let texts = (try? CheckedArchive(data))?.urlArrayTexts else { return nil }
        var urls: [URL] = []
        for text in texts {
            guard let url = try? URL(defaultsRepresentation: .string(text)) else { return nil }
            urls.append(url)
        }
        return urls
    }

    /// The UTF-8 text of stored `Data`: the JSON of a number, read by the number's own rules.
    static func text(_ object: Any) -> String? {
        (object as? Data).flatMap { String(data: $0, encoding: .utf8) }
    }
}

extension Optional: ReadsOtherLibrariesForms where Wrapped: DefaultsValueConvertible {
    /// The wrapped value in another library's form; never `nil` itself, which those libraries
    /// store as an absent key (a stored JSON `null` is a mismatch).
    static func readingOtherForm(_ object: Any) throws -> Wrapped?? {
        try OtherLibrariesForms.read(object, as: Wrapped.self).map(Optional.some)
    }
}

extension Array: ReadsOtherLibrariesForms where Element: DefaultsValueConvertible {
    /// An array whose elements are in another library's form (Defaults stores `[CGSize]` as an
    /// array of JSON strings): every element must read, as for an array in the library's own
    /// form. SwiftyUserDefaults stores an array of `Codable` values as the JSON `Data` of the
    /// whole, read with `JSONDecoder` as it reads it, for element types it stores so (not native
    /// ones); and an array of URLs as a keyed archive of `NSURL`s.
    static func readingOtherForm(_ object: Any) throws -> [Element]? {
        if object is Data {
            if Element.self == URL.self { return OtherLibrariesForms.archivedURLs(object) as? [Element] }
            guard OtherLibrariesForms.storedAsJSONData(Element.self),
                let decodable = Element.self as? any Decodable.Type
            else { return nil }
            return OtherLibrariesForms.decodedArray(object, of: decodable) as? [Element]
        }
        guard let elements = StoredObject.array(object) else { return nil }
        var array: [Element] = []
        array.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            array.append(try Located.element(index) { try OtherLibrariesForms.element(element, as: Element.self) })
        }
        return array
    }
}

extension Set: ReadsOtherLibrariesForms where Element: DefaultsValueConvertible {
    static func readingOtherForm(_ object: Any) throws -> Set<Element>? {
        guard let elements = try [Element].readingOtherForm(object) else { return nil }
        return Set(elements)
    }
}

extension Dictionary: ReadsOtherLibrariesForms
where
    Key: DefaultsValueConvertible, Key.DefaultsRepresentation: LosslessStringConvertible,
    Value: DefaultsValueConvertible
{
    /// A dictionary whose values are in another library's form; never JSON `Data`, which no
    /// library stores a dictionary as.
    static func readingOtherForm(_ object: Any) throws -> [Key: Value]? {
        guard let entries = StoredObject.dictionary(object) else { return nil }
        var dictionary: [Key: Value] = [:]
        for (storedKey, entry) in entries {
            let key = try Located.entry(storedKey) { try Self.key(stored: storedKey) }
            let value = try Located.entry(storedKey) { try OtherLibrariesForms.element(entry, as: Value.self) }
            // Two texts of one key ("5" and "05"): the own form refused them for the same reason.
            guard dictionary.updateValue(value, forKey: key) == nil else { return nil }
        }
        return dictionary
    }
}
