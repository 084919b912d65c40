import Foundation

@testable import TypedDefaults
@testable import TypedDefaultsSchema
@testable import TypedDefaultsStorage

/// The round trip every property-list reader's result must survive.
public enum PropertyListChecks {
    /// What `reader` read from some bytes is written by the library's writer into bytes that
    /// the binary reader, the format dispatcher and the public API read back as exactly the same
    /// values, and equal values give equal bytes.
    public static func roundTrip(_ object: Any, readBy reader: String) {
        guard let exact = ExactValue(object: object) else {
            violated("\(reader) returned an object that is no property list", "\(type(of: object))")
        }
        let written: Data
        do {
            written = try BinaryPropertyList.data(object: object)
        } catch {
            violated("the writer refuses what \(reader) read", "\(error); value \(exact)")
        }
        let reread: Any
        do {
            reread = try PropertyListReader.object(from: written)
        } catch {
            violated("the reader refuses what the writer wrote of \(reader)'s value", "\(error); value \(exact)")
        }
        let rereadExact = ExactValue(object: reread)
        require(
            rereadExact == exact, "the writer's bytes read back as other values",
            "\(exact)\nbecame\n\(rereadExact as Any)")
        let rewritten = try? BinaryPropertyList.data(object: reread)
        require(rewritten == written, "equal values give equal bytes", "value \(exact)")
        // The public surface: nil for a value deeper than a suite holds, which the readers accept.
        guard let value = DefaultsStoredValue(propertyListObject: object) else {
            require(
                depth(of: exact) > StoredObject.maximumNestingDepth, "a value a suite can hold is refused", "\(exact)")
            return
        }
        require(ExactValue(value) == exact, "DefaultsStoredValue(propertyListObject:) changes the value", "\(exact)")
        let data = value.propertyListData()
        require(data == written, "propertyListData() writes other bytes than the writer", "\(exact)")
        do {
            let back = try DefaultsStoredValue(propertyList: data)
            require(ExactValue(back) == exact, "DefaultsStoredValue(propertyList:) reads other values", "\(exact)")
        } catch {
            violated("DefaultsStoredValue(propertyList:) refuses propertyListData()", "\(error); value \(exact)")
        }
    }

    /// The nesting of a value, the outermost container counted as 1.
    public static func depth(of value: ExactValue) -> Int {
        switch value {
        case .array(let values): 1 + (values.map(depth).max() ?? 0)
        case .dictionary(let entries): 1 + (entries.map { depth(of: $0.value) }.max() ?? 0)
        default: 0
        }
    }
}
