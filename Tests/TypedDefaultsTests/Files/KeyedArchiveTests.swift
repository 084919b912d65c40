import Foundation
import Testing

@testable import TypedDefaults

/// A secure-coding class holding an object of every Foundation class the archive check lets
/// corelibs decode, and one of the program's own.
final class Specimen: NSObject, NSSecureCoding, DefaultsValueConvertible {
    static var supportsSecureCoding: Bool { true }
    static var classes: [AnyClass] {
        [
            NSArray.self, NSDictionary.self, NSSet.self, NSString.self, NSNumber.self, NSDate.self, NSData.self,
            NSURL.self, NSUUID.self, NSNull.self, Palette.self,
        ]
    }
    let values: NSArray
    init(values: NSArray) { self.values = values }
    func encode(with coder: NSCoder) { coder.encode(values, forKey: "values") }
    init?(coder: NSCoder) {
        guard let values = coder.decodeObject(of: Self.classes, forKey: "values") as? NSArray else { return nil }
        self.values = values
    }
    override func isEqual(_ object: Any?) -> Bool { (object as? Specimen)?.values.isEqual(values) == true }
    override var hash: Int { values.count }
}

@Suite struct KeyedArchiveTests {
    static let page = NSURL(string: "page?q=1", relativeTo: URL(string: "https://example.com/dir/"))!

    static var specimen: Specimen {
        // One NSNull: corelibs' instances are equal but hash apart, so two in one archive can
        // crash the archiver's table of objects ("Duplicate keys of type 'AnyHashable'").
        let null = NSNull()
        let values: [Any] = [
            NSString(string: "text"), NSMutableString(string: "mutable"), NSNumber(value: 42), NSNumber(value: 1.5),
            NSNumber(value: true), NSDate(timeIntervalSinceReferenceDate: 12.5), NSData(data: Data([1, 2, 3])),
            NSMutableData(data: Data([4])), page, NSUUID(), null, NSSet(array: ["a", "b"]),
            NSMutableArray(array: [3, [2, "three"]]), NSMutableSet(array: [7]), Palette(name: "inside"),
            NSDictionary(dictionary: [
                "number": 5, "list": ["x", ["y": 2]], "when": Date(timeIntervalSinceReferenceDate: 3),
                "bytes": Data([9]), "id": NSUUID(), "none": null, "page": page,
            ]),
            NSMutableDictionary(dictionary: ["key": "value"]),
        ]
        return Specimen(values: NSArray(array: values))
    }

    /// The archive corelibs writes of each Foundation class the check accepts passes it, and
    /// reads back equal: the check's shapes are the archiver's own. (No number is 1 or 0: the
    /// archiver stores `true` and 1 as one object, as they are `isEqual`.)
    @Test func everyCheckedFoundationClassReadsBack() throws {
        let specimen = Self.specimen
        let archive = try KeyedArchive.archive(specimen)
        let read = try KeyedArchive.unarchive(Specimen.self, from: archive)
        #expect(read == specimen, "\(read.values) is not \(specimen.values)")

        let suite = try TestSuite()
        suite.plant(archive, forKey: "specimen")
        let (value, reported) = ReportedErrors.during {
            UserDefault(wrappedValue: Specimen(values: []), "specimen", store: suite.store).wrappedValue
        }
        #expect(value == specimen && reported.isEmpty, "\(reported)")
    }

    /// An `NSURL` archived by corelibs (a string relative to a base) reads as a `URL`.
    @Test func anArchivedNSURLReadsAsAURL() throws {
        let archive = try NSKeyedArchiver.archivedData(withRootObject: Self.page, requiringSecureCoding: true)
        let url = try URL(defaultsRepresentation: .data(archive))
        #expect(url.absoluteString == "https://example.com/dir/page?q=1")
    }

    /// The engine's reader gives references (`CF$UID`) only in a binary archive, where corelibs'
    /// parser also makes them of a `{"CF$UID": n}` dictionary in XML: an archive in XML form is
    /// refused whole, so the check never sees plain dictionaries where corelibs sees references.
    @Test func anArchiveInXMLFormIsRefused() throws {
        let binary = try KeyedArchive.archive(Palette(name: "warm"))
        let object = try PropertyListSerialization.propertyList(from: binary, format: nil)
        let xml = try PropertyListSerialization.data(fromPropertyList: object, format: .xml, options: 0)
        #expect(String(decoding: xml, as: UTF8.self).contains("CF$UID"))
        #expect(throws: KeyedArchive.Failure.self) { try KeyedArchive.unarchive(Palette.self, from: xml) }
    }

    /// A class name resolves only to a class it is safe to construct from outside data: one of
    /// the Foundation classes whose fields are checked, or a secure-coding class of the program.
    @Test(.enabled(if: isLinux)) func classNamesResolveOnlyToClassesSafeToDecode() throws {
        #expect(try CheckedArchive.resolve("NSString").kind == .string)
        #expect(try CheckedArchive.resolve("Foundation.NSString").kind == .string)
        #expect(try CheckedArchive.resolve("NSMutableDictionary").kind == .dictionary)
        #expect(try CheckedArchive.resolve("TypedDefaultsTests.Palette").kind == .custom)
        for refused in [
            "NSLocale", "NSDecimalNumber", "NSCountedSet", "NSValue", "TypedDefaultsTests.Legacy", "Nowhere.Thing",
            "TypedDefaultsTests.Palettes.Nested", "_TtC18TypedDefaultsTests7Palette", "Typed Defaults.Palette", "",
        ] {
            #expect(throws: KeyedArchive.Failure.self, "\(refused)") { try CheckedArchive.resolve(refused) }
        }
    }
}
