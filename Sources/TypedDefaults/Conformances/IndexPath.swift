import Foundation

/// An `IndexPath` is stored as an array of its indexes (`[2, 0, 5]`).
///
/// ```swift
/// @UserDefault("selection") var selection = IndexPath(indexes: [0, 0])
/// ```
extension IndexPath: DefaultsValueConvertible {
    public init(defaultsRepresentation indexes: [Int]) {
        self.init(indexes: indexes)
    }

    public func defaultsRepresentation() -> [Int] {
        Array(self)
    }
}
