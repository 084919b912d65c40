import Foundation

/// Checks that keep corelibs' `NSKeyedUnarchiver` and `NSKeyedArchiver` from crashing.
enum KeyedArchive {
    enum Failure: Error, CustomStringConvertible {
        case notSecureCoding(className: String)
        case unreadable
        case wrongClass(expected: String, found: String)
        case undecodable(className: String)

        var description: String {
            switch self {
            case .notSecureCoding(let name):
                "\(name).supportsSecureCoding is false; only secure-coding classes are archived"
            case .unreadable:
                "not a keyed archive"
            case .wrongClass(let expected, let found):
                "the archive holds \(found), not \(expected)"
            case .undecodable(let name):
                "the archive could not be decoded as \(name)"
            }
        }
    }

    static func requireSecureCoding(_ type: (NSObject & NSSecureCoding).Type) throws {
        guard type.supportsSecureCoding else {
            throw Failure.notSecureCoding(className: NSStringFromClass(type))
        }
    }

    /// Throws unless the archive's root object is of class `expected`. The conformance serves
    /// final classes only, so no subclass can be in the archive.
    static func requireRoot(of expected: AnyClass, in data: Data) throws {
        let expectedName = NSStringFromClass(expected)
        guard let rootClassName = rootClassName(in: data) else { throw Failure.unreadable }
        guard rootClassName == expectedName else {
            throw Failure.wrongClass(expected: expectedName, found: rootClassName)
        }
    }

    /// The class name recorded for the root object: `$top.root` → `$objects[root].$class`
    /// → `$objects[class].$classname`.
    static func rootClassName(in data: Data) -> String? {
        guard
            let archive = try? PropertyListSerialization.propertyList(from: data, format: nil)
                as? [String: Any],
            let objects = archive["$objects"] as? [Any],
            let top = archive["$top"] as? [String: Any],
            let root = top["root"].flatMap(uidValue),
            objects.indices.contains(root),
            let rootObject = objects[root] as? [String: Any],
            let classUID = rootObject["$class"].flatMap(uidValue),
            objects.indices.contains(classUID),
            let classInfo = objects[classUID] as? [String: Any]
        else { return nil }
        return classInfo["$classname"] as? String
    }

    /// The index stored in an archiver UID, whose type is private to Foundation: a `value`
    /// property on corelibs, `{value = N}` in the description on Darwin.
    private static func uidValue(_ uid: Any) -> Int? {
        if let value = Mirror(reflecting: uid).children.first(where: { $0.label == "value" })?.value,
            let index = (value as? UInt32).map(Int.init) ?? (value as? Int)
        {
            return index
        }
        let description = String(describing: uid)
        guard let range = description.range(of: "value = ") else { return nil }
        return Int(description[range.upperBound...].prefix { $0.isNumber })
    }
}
