import Foundation

/// A final `NSObject` subclass that adopts `NSSecureCoding` is stored as a keyed archive
/// (`Data`) with an empty conformance.
///
/// ```swift
/// final class Palette: NSObject, NSSecureCoding, DefaultsValueConvertible {
///     static var supportsSecureCoding: Bool { true }
///     let name: String
///     init(name: String) { self.name = name }
///     func encode(with coder: NSCoder) { coder.encode(name as NSString, forKey: "name") }
///     init?(coder: NSCoder) {
///         guard let name = coder.decodeObject(of: NSString.self, forKey: "name") else { return nil }
///         self.name = name as String
///     }
/// }
/// ```
///
/// corelibs Foundation crashes the process when it unarchives an archive of another class, and
/// when it archives a class that does not support secure coding. So before decoding, the class
/// named at the archive's root is checked against the expected class, and
/// a class whose `supportsSecureCoding` is `false` is refused on both read and write. Stored
/// bytes that fail these checks read as the default and are reported, never decoded.
///
/// On Linux the class must be declared at the top level of its module, not `private`, nested
/// or generic: corelibs' archiver cannot name any other and kills the process. Such a class is
/// refused on write and read with a reported error.
///
/// A class that adopts only `NSCoding` cannot be stored: add `NSSecureCoding` (usually just
/// `static var supportsSecureCoding: Bool { true }` and `decodeObject(of:forKey:)`), or store
/// a `Codable` description of it instead.
///
/// corelibs' unarchiver also crashes on crafted archives of the right class (a field of the
/// wrong type, an object that contains itself), so on Linux the whole archive is checked first
/// (`CheckedArchive`): only your secure-coding classes and the common Foundation value classes,
/// well formed, acyclic, at most 100 deep. It is then decoded with `requiresSecureCoding` off,
/// since on it corelibs kills the process for an object of a class `decodeObject(of:forKey:)`
/// does not allow; such an object decodes as `nil` instead. So `init(coder:)` must not
/// force-unwrap or force-cast what it decodes.
///
/// corelibs' `NSNull` instances are equal to each other but hash apart, so an object that
/// archives two of them (two `NSNull()` in its arrays or dictionaries) can stop the process in
/// corelibs' archiver: archive one shared instance.
extension DefaultsValueConvertible where Self: NSObject & NSSecureCoding {
    public init(defaultsRepresentation data: Data) throws {
        self = try KeyedArchive.unarchive(Self.self, from: data)
    }

    public func defaultsRepresentation() throws -> Data {
        try KeyedArchive.archive(self)
    }
}
