import Foundation

/// Checks that keep corelibs' `NSKeyedUnarchiver` and `NSKeyedArchiver` from crashing.
package enum KeyedArchive {
    enum Failure: Error, CustomStringConvertible {
        case notSecureCoding(className: String)
        case unreadable
        case wrongClass(expected: String, found: String)
        case undecodable(className: String)
        case notTopLevel(typeName: String)
        case malformed(String)

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
            case .notTopLevel(let name):
                "\(name) is not a top-level, non-generic class, which is all NSKeyedArchiver can name on this "
                    + "platform; declare it at the top level of its module, internal or public"
            case .malformed(let reason):
                "the archive was not decoded, as corelibs could crash on it: \(reason)"
            }
        }
    }

    /// The object archived in `data`, checked before corelibs can crash on it.
    ///
    /// On Linux the whole archive is checked first (``CheckedArchive``), then decoded with
    /// `requiresSecureCoding` off. With it on, corelibs calls `fatalError` for an object whose
    /// class the `decodeObject(of:forKey:)` that meets it does not allow, and which classes each
    /// `init(coder:)` allows cannot be known beforehand. Off, such an object is decoded (only
    /// classes the check accepts are in the archive) and `decodeObject(of:forKey:)` returns `nil`
    /// for it, as it does for any value of another class.
    static func unarchive<Object: NSObject & NSSecureCoding>(_ type: Object.Type, from data: Data) throws -> Object {
        try requireSecureCoding(type)
        let expectedName = try className(of: type)
        let archive = try CheckedArchive(data)
        guard let rootClassName = archive.rootClassName else { throw Failure.unreadable }
        guard rootClassName == expectedName else {
            throw Failure.wrongClass(expected: expectedName, found: rootClassName)
        }
        return try decodeRoot(type, of: archive, from: data)
    }

    /// A secure-coding archive of `object`, refused for a class corelibs cannot archive.
    static func archive(_ object: some NSObject & NSSecureCoding) throws -> Data {
        try requireSecureCoding(type(of: object))
        _ = try className(of: type(of: object))
        return try NSKeyedArchiver.archivedData(withRootObject: object, requiringSecureCoding: true)
    }

    static func requireSecureCoding(_ type: (NSObject & NSSecureCoding).Type) throws {
        guard type.supportsSecureCoding else {
            throw Failure.notSecureCoding(className: String(reflecting: type))
        }
    }

    /// The name the archiver records for `type`, or an error for a class it cannot name: checked
    /// first, so such a class is refused rather than crashing the process.
    static func className(of type: AnyClass) throws -> String {
        try requireNameable(type)
        return NSStringFromClass(type)
    }

    /// The class name recorded for the root object: `$top.root` → `$objects[root].$class`
    /// → `$objects[class].$classname`. Read with the engine's bounded reader, so a crafted
    /// archive is refused here before Foundation's unbounded parser ever sees it.
    package static func rootClassName(in data: Data) -> String? {
        (try? CheckedArchive(data))?.rootClassName
    }
}
