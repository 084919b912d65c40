import Foundation
import FuzzSupport

@testable import TypedDefaults
@testable import TypedDefaultsSchema
@testable import TypedDefaultsStorage

/// A secure-coding class stored as a keyed archive, as an app declares one. Top-level and
/// final, as the conformance requires on Linux; its archives name it
/// `fuzz_keyed_archive.FuzzPalette`.
final class FuzzPalette: NSObject, NSSecureCoding, DefaultsValueConvertible {
    static var supportsSecureCoding: Bool { true }
    let name: String
    let sizes: [NSNumber]

    init(name: String, sizes: [NSNumber]) {
        self.name = name
        self.sizes = sizes
    }

    func encode(with coder: NSCoder) {
        coder.encode(name as NSString, forKey: "name")
        coder.encode(sizes as NSArray, forKey: "sizes")
    }

    init?(coder: NSCoder) {
        guard let name = coder.decodeObject(of: NSString.self, forKey: "name") else { return nil }
        self.name = name as String
        sizes = (coder.decodeObject(of: [NSArray.self, NSNumber.self], forKey: "sizes") as? [NSNumber]) ?? []
    }
}

/// Keyed archives: the bounded check that runs before corelibs' unarchiver never crashes, and
/// what passes it never crashes corelibs; an archive that decodes archives again to the same
/// fields; the reader (UIDs allowed) reads the same values twice; `encoding` names the class
/// the check finds.
@main enum KeyedArchiveTarget {
    static func main() { runFuzzer(fuzz) }
}

@_cdecl("LLVMFuzzerTestOneInput")
func fuzz(_ input: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let buffer = UnsafeBufferPointer(start: input, count: size)
    let bytes = Data(buffer)
    let className = KeyedArchive.rootClassName(in: bytes)
    let encoding = DefaultsStoredValue.data(bytes).encoding
    if let className, bytes.starts(with: BinaryPropertyListReader.magic) {
        require(encoding == .keyedArchive(className: className), "encoding names another class", "\(encoding)")
    } else {
        require(encoding == .plain, "encoding finds an archive the check does not", "\(encoding)")
    }
    if let object = try? PropertyListReader.object(from: bytes, allowingUIDs: true) {
        require(ExactValue(object: object) != nil, "the reader returns an object that is no property list")
    }
    guard let palette = try? FuzzPalette(defaultsRepresentation: bytes) else { return 0 }
    do {
        let archived = try palette.defaultsRepresentation()
        let again = try FuzzPalette(defaultsRepresentation: archived)
        require(
            Array(again.name.utf8) == Array(palette.name.utf8) && again.sizes.count == palette.sizes.count
                && zip(again.sizes, palette.sizes).allSatisfy {
                    $0.isEqual($1) || ($0.doubleValue.isNaN && $1.doubleValue.isNaN)
                },
            "an archived palette reads back otherwise", "\(palette.name) \(palette.sizes)")
    } catch {
        violated("a palette read from an archive does not archive and read back", "\(error)")
    }
    return 0
}
