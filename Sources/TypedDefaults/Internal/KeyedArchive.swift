import Foundation

/// Checks that keep corelibs' `NSKeyedUnarchiver` and `NSKeyedArchiver` from crashing.
enum KeyedArchive {
    enum Failure: Error, CustomStringConvertible {
        case notSecureCoding(className: String)
        case unreadable
        case wrongClass(expected: String, found: String)
        case undecodable(className: String)
        case notTopLevel(typeName: String)

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
            }
        }
    }

    /// The object archived in `data`, checked before corelibs can crash on it.
    static func unarchive<Object: NSObject & NSSecureCoding>(_ type: Object.Type, from data: Data) throws -> Object {
        try requireSecureCoding(type)
        try requireRoot(of: type, in: data)
        guard let value = try NSKeyedUnarchiver.unarchivedObject(ofClass: type, from: data) else {
            throw Failure.undecodable(className: String(reflecting: type))
        }
        return value
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

    /// The name the archiver records for `type`, or an error for a class it cannot name.
    ///
    /// corelibs' `NSStringFromClass`, which its archiver and unarchiver call, kills the process
    /// for a class that is `private`, nested in another type, or generic: its name is not
    /// `Module.Class`. Checked first, so such a class is refused rather than crashing.
    static func className(of type: AnyClass) throws -> String {
        #if !canImport(Darwin)
            let name = String(reflecting: type)
            let parts = name.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 2, !name.contains(where: { "()<> $".contains($0) }) else {
                throw Failure.notTopLevel(typeName: name)
            }
        #endif
        return NSStringFromClass(type)
    }

    /// Throws unless the archive's root object is of class `expected`. The conformance serves
    /// final classes only, so no subclass can be in the archive.
    static func requireRoot(of expected: AnyClass, in data: Data) throws {
        try requireRoot(className: try className(of: expected), in: data)
    }

    /// Throws unless the archive's root object is of the class named `expectedName`.
    static func requireRoot(className expectedName: String, in data: Data) throws {
        guard let rootClassName = rootClassName(in: data) else { throw Failure.unreadable }
        guard rootClassName == expectedName else {
            throw Failure.wrongClass(expected: expectedName, found: rootClassName)
        }
    }

    /// The class name recorded for the root object: `$top.root` → `$objects[root].$class`
    /// → `$objects[class].$classname`. Read with the engine's bounded reader, so a crafted
    /// archive is refused here before Foundation's unbounded parser ever sees it.
    static func rootClassName(in data: Data) -> String? {
        guard
            let archive = (try? PropertyListReader.object(from: data, allowingUIDs: true))
                .flatMap(StoredObject.dictionary),
            let objects = archive["$objects"] as? [Any],
            let top = archive["$top"].flatMap(StoredObject.dictionary),
            let root = top["root"].flatMap(uidValue),
            objects.indices.contains(root),
            let rootObject = StoredObject.dictionary(objects[root]),
            let classUID = rootObject["$class"].flatMap(uidValue),
            objects.indices.contains(classUID),
            let classInfo = StoredObject.dictionary(objects[classUID])
        else { return nil }
        return classInfo["$classname"] as? String
    }

    private static func uidValue(_ uid: Any) -> Int? {
        guard let uid = uid as? ArchiveUID, uid.value <= UInt64(Int.max) else { return nil }
        return Int(uid.value)
    }
}
