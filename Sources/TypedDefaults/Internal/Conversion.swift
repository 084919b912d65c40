/// Converting between values and stored objects, with errors named after the key.
enum Conversion {
    static func decode<Value: DefaultsValueConvertible>(
        _ object: PropertyList, as type: Value.Type, key: String
    ) -> Result<Value, DefaultsError> {
        do {
            return .success(
                try Value(defaultsRepresentation: Value.DefaultsRepresentation(_propertyListObject: object.object)))
        } catch {
            return .failure(.reading(key, error))
        }
    }

    /// The object to store for `value`, refusing anything `UserDefaults` would crash on.
    static func encode<Value: DefaultsValueConvertible>(_ value: Value, key: String) -> Result<
        PropertyList, DefaultsError
    > {
        let object: Any
        do {
            object = try value.defaultsRepresentation()._propertyListObject
        } catch {
            return .failure(.encodingFailed(key: key, underlying: error))
        }
        switch StoredObject.storageProblem(object) {
        case .notAPropertyList?:
            return .failure(.encodingFailed(key: key, underlying: NotAPropertyList(type: type(of: object))))
        case .nestedTooDeeply?:
            return .failure(.encodingFailed(key: key, underlying: NestedTooDeeply()))
        case nil:
            break
        }
        return .success(PropertyList(object))
    }
}

/// An object that is no property list: a custom ``DefaultsValue`` produced one (`UserDefaults`
/// would crash on it), or the file writer met one.
struct NotAPropertyList: Error, CustomStringConvertible {
    var type: Any.Type

    var description: String {
        "\(type) is not a property-list type"
    }
}

/// A value whose arrays and dictionaries nest deeper than every reader of the file reads back:
/// written, it would make the whole suite file unreadable, to CoreFoundation at the next launch
/// or to other tools.
struct NestedTooDeeply: Error, CustomStringConvertible {
    var description: String {
        "its arrays and dictionaries nest more than \(StoredObject.maximumNestingDepth) levels deep, "
            + "the most a suite file holds so that every property-list reader can read it"
    }
}
