import Foundation

#if canImport(CoreGraphics)
    import CoreGraphics
#endif

// `CGFloat` is stored as a `Double`, exactly as `Double` is. `CGPoint`, `CGSize` and `CGRect`
// are stored as dictionaries of their fields, which `defaults read` shows as they are named:
//
// ```swift
// @UserDefault("windowOrigin") var windowOrigin = CGPoint(x: 100, y: 80)   // {x = 100; y = 80}
// @UserDefault("windowFrame") var windowFrame = CGRect(x: 0, y: 0, width: 800, height: 600)
// ```
//
// A stored dictionary that lacks a field, or holds a field that is not a number, is a type
// mismatch. Infinity and NaN round-trip, as they do for `Double`.

extension CGFloat: DefaultsFloatingPoint, PropertyListBridged {}

extension CGPoint: DefaultsValueConvertible {
    public init(defaultsRepresentation stored: [String: Double]) throws {
        let fields = StoredFields(stored, of: CGPoint.self)
        self.init(x: try fields["x"], y: try fields["y"])
    }

    public func defaultsRepresentation() -> [String: Double] {
        ["x": Double(x), "y": Double(y)]
    }
}

extension CGSize: DefaultsValueConvertible {
    public init(defaultsRepresentation stored: [String: Double]) throws {
        let fields = StoredFields(stored, of: CGSize.self)
        self.init(width: try fields["width"], height: try fields["height"])
    }

    public func defaultsRepresentation() -> [String: Double] {
        ["width": Double(width), "height": Double(height)]
    }
}

extension CGRect: DefaultsValueConvertible {
    public init(defaultsRepresentation stored: [String: Double]) throws {
        let fields = StoredFields(stored, of: CGRect.self)
        self.init(
            x: try fields["x"], y: try fields["y"], width: try fields["width"], height: try fields["height"])
    }

    public func defaultsRepresentation() -> [String: Double] {
        ["x": Double(origin.x), "y": Double(origin.y), "width": Double(size.width), "height": Double(size.height)]
    }
}

/// The named numbers of a stored geometry value; a missing one is a mismatch.
struct StoredFields {
    let stored: [String: Double]
    let type: Any.Type

    init(_ stored: [String: Double], of type: Any.Type) {
        self.stored = stored
        self.type = type
    }

    subscript(name: String) -> CGFloat {
        get throws {
            guard let value = stored[name] else {
                throw DefaultsTypeMismatch(
                    expected: String(describing: type), found: "a dictionary without \"\(name)\"")
            }
            return CGFloat(value)
        }
    }
}
