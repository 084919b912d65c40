import Foundation
import TypedDefaultsStorage

/// Converting between values and stored objects, with errors named after the key.
enum Conversion {
    static func decode<Value: DefaultsValueConvertible>(
        _ object: StoredObject, as type: Value.Type, key: String
    ) -> Result<Value, DefaultsError> {
        do {
            return .success(
                try Value(defaultsRepresentation: Value.DefaultsRepresentation(storedObject: object.object)))
        } catch {
            do {
                if let value = try OtherLibrariesForms.read(object.object, as: Value.self) { return .success(value) }
                return .failure(.reading(key, naming(Value.self, in: error)))
            } catch let elementError {
                // An element in neither form: the other-form read located it.
                return .failure(.reading(key, elementError))
            }
        }
    }

    /// A mismatch of the whole value named after the type the program declared (`expected
    /// CGSize`, `expected Interval`), not after the form it is stored in (`Dictionary<String,
    /// Double>`, `Int`): the report is read against the declaration.
    static func naming<Value>(_ type: Value.Type, in error: any Error) -> any Error {
        guard !(Value.self is any DefaultsValue.Type), var mismatch = error as? DefaultsTypeMismatch,
            mismatch.path.isEmpty
        else { return error }
        mismatch.expected = String(describing: Value.self)
        return mismatch
    }

    /// The object to store for `value`, refusing anything `UserDefaults` would crash on, and a
    /// value of a type that would not read back.
    static func encode<Value: DefaultsValueConvertible>(_ value: Value, key: String) -> Result<
        StoredObject, DefaultsError
    > {
        guard Value.DefaultsRepresentation.isBridged else {
            return .failure(NotANativeType.refusing(Value.DefaultsRepresentation.self, key: key))
        }
        return encodeNative(value, key: key)
    }

    /// ``encode(_:key:)`` for a caller that checked once that `Value`'s representation is native.
    static func encodeNative<Value: DefaultsValueConvertible>(_ value: Value, key: String) -> Result<
        StoredObject, DefaultsError
    > {
        let object: Any
        do {
            object = try value.defaultsRepresentation()._propertyListObject
        } catch {
            return .failure(.encodingFailed(key: key, underlying: error))
        }
        if let problem = StoredObject.storageProblem(object) {
            return .failure(.encodingFailed(key: key, underlying: problem.error(valueType: "\(Value.self)")))
        }
        return .success(StoredObject(object))
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
