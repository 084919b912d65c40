import Foundation

extension KeyedArchive {
    /// Decodes the root object of `archive`, already checked to be of `type`'s class. Darwin's
    /// unarchiver checks the rest itself. corelibs' crashes on a crafted archive (a cycle, a
    /// missing member), so there the whole archive is checked first, and the unarchiver
    /// reports a failure rather than trapping.
    static func decodeRoot<Object: NSObject & NSSecureCoding>(
        _ type: Object.Type, of archive: CheckedArchive, from data: Data
    ) throws -> Object {
        #if canImport(Darwin)
            guard let value = try NSKeyedUnarchiver.unarchivedObject(ofClass: type, from: data) else {
                throw Failure.undecodable(className: String(reflecting: type))
            }
            return value
        #else
            try archive.check(rootClass: type)
            let unarchiver = try NSKeyedUnarchiver(forReadingFrom: data)
            unarchiver.decodingFailurePolicy = .setErrorAndReturn
            let object = unarchiver.decodeObject(of: [type], forKey: NSKeyedArchiveRootObjectKey)
            unarchiver.finishDecoding()
            if let error = unarchiver.error { throw error }
            guard let value = object as? Object else { throw Failure.undecodable(className: String(reflecting: type)) }
            return value
        #endif
    }

    /// Throws for a class corelibs' `NSStringFromClass` cannot name: it kills the process for a
    /// class that is `private`, nested in another type, or generic (its name is not
    /// `Module.Class`). Darwin names every class.
    static func requireNameable(_ type: AnyClass) throws {
        #if !canImport(Darwin)
            let name = String(reflecting: type)
            let parts = name.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 2, !name.contains(where: { "()<> $".contains($0) }) else {
                throw Failure.notTopLevel(typeName: name)
            }
        #endif
    }
}
