import Foundation
import FuzzSupport
import TypedDefaultsToolSupport

@testable import TypedDefaults
@testable import TypedDefaultsPostgres
@testable import TypedDefaultsSchema
@testable import TypedDefaultsStorage

/// Writes the seeds that this library, corelibs Foundation and the tool's export make into
/// `Corpus/<target>/` (the folder given, or ./Corpus); make-corpus.py adds Python's and the
/// hand-made ones. Not a fuzz target: run once when the seeds change.
@main enum SeedsProgram {
    static func main() throws {
        let corpus = URL(fileURLWithPath: CommandLine.arguments.dropFirst().first ?? "Corpus")
        func seed(_ target: String, _ name: String, _ data: Data) throws {
            let folder = corpus.appendingPathComponent(target)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try data.write(to: folder.appendingPathComponent(name))
        }
        let values = sampleValues()
        let suite = DefaultsStoredValue.dictionary(values)
        // The library's writer: a suite, and one value of each kind.
        try seed("binary-plist", "library-suite.plist", suite.propertyListData())
        try seed("suite-file", "library-suite.plist", suite.propertyListData())
        try seed(
            "binary-plist", "library-array.plist", DefaultsStoredValue.array(Array(values.values)).propertyListData())
        // corelibs: PropertyListSerialization in both formats, and a suite UserDefaults wrote.
        let foundation = foundationValues()
        try seed(
            "binary-plist", "corelibs.plist",
            try PropertyListSerialization.data(
                fromPropertyList: foundation, format: .binary, options: 0))
        let xml = try PropertyListSerialization.data(fromPropertyList: foundation, format: .xml, options: 0)
        try seed("xml-plist", "corelibs.plist", xml)
        try seed("import", "corelibs.plist", xml)
        try seed("suite-file", "corelibs-serialization.plist", xml)
        try seed("suite-file", "corelibs-userdefaults.plist", try userDefaultsSuite(foundation))
        // JSON: the value's form, compact and pretty; the tool's export of a suite.
        try seed("json", "library-compact.json", Data(suite.json().utf8))
        try seed("json", "library-pretty.json", Data(suite.json(pretty: true).utf8))
        try seed(
            "json", "library-nil.json",
            Data(DefaultsStoredValue.dictionary(["__TypedDefaults.nil": .integer(0)]).json().utf8))
        try seed("import", "export.json", Data((ExportFile.json(values, pretty: true) + "\n").utf8))
        try seed("import", "export-compact.json", Data(ExportFile.json(values).utf8))
        try seed("import", "library-suite.plist", suite.propertyListData())
        // Dates as DateText writes them.
        for (index, seconds) in [0, 1_000_000_000.123456, -63_113_904_000.5, 3e11, -1e-6].enumerated() {
            if let text = DateText.format(Date(timeIntervalSinceReferenceDate: seconds)) {
                try seed("date", "library-\(index).txt", Data(text.utf8))
            }
        }
        // A published schema, and one of every value type.
        try seed("schema", "published.schema.json", Data(SchemaFile.text(sampleSchema()).utf8))
        // PostgreSQL rows as the backend writes them: key NUL value NUL …
        var rows = Data()
        for (key, value) in values.sorted(by: { $0.key < $1.key }) {
            rows += Data(key.name.utf8) + [0] + Data(PostgresRows.text(value).utf8) + [0]
        }
        try seed("postgres-rows", "backend-rows.bin", rows)
        // NSKeyedArchiver: a palette, as the fuzz-keyed-archive target's class names it, and a
        // string (the wrong class).
        let archiver = NSKeyedArchiver(requiringSecureCoding: true)
        archiver.setClassName("fuzz_keyed_archive.FuzzPalette", for: SeedPalette.self)
        archiver.encode(SeedPalette(), forKey: NSKeyedArchiveRootObjectKey)
        archiver.finishEncoding()
        try seed("keyed-archive", "palette.archive", archiver.encodedData)
        try seed("binary-plist", "palette.archive", archiver.encodedData)
        try seed(
            "keyed-archive", "string.archive",
            try NSKeyedArchiver.archivedData(withRootObject: "caf\u{E9}" as NSString, requiringSecureCoding: true))
    }
}

/// A palette archived as the fuzz-keyed-archive target's `FuzzPalette`.
final class SeedPalette: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }
    override init() {}
    init?(coder: NSCoder) { nil }
    func encode(with coder: NSCoder) {
        coder.encode("Solarized" as NSString, forKey: "name")
        coder.encode([12, 14.5, true] as NSArray, forKey: "sizes")
    }
}

/// A value of every kind, with the edges the library keeps exactly.
func sampleValues() -> [DefaultsStoredKey: DefaultsStoredValue] {
    [
        "caf\u{E9}": .string("caf\u{E9}"), "cafe\u{301}": .string("cafe\u{301}\r\n\u{1}\u{0}🙂"),
        "count": .integer(Int64.min), "big": .unsignedInteger(UInt64.max), "ratio": .real(-0.0),
        "nan": .real(.nan), "inf": .real(.infinity), "float": .real(Double(Float(0.1))),
        "when": .date(Date(timeIntervalSinceReferenceDate: 1_000_000_000.123456)),
        "ancient": .date(Date(timeIntervalSinceReferenceDate: -63_113_904_000)),
        "blob": .data(Data([0, 0xFF, 0x10])), "flag": .boolean(true),
        "list": .array([.boolean(false), .string(""), .array([])]),
        "nested": .dictionary(["$date": .string("not a date"), "a": .dictionary([:])]),
        "team": .dictionary(["__TypedDefaults.nil": .integer(1)]),
        "layout": .string(#"{"height":600,"sidebarVisible":true,"width":800}"#),
    ]
}

/// The same as Foundation objects, for corelibs' writers (which refuse what they cannot hold).
func foundationValues() -> NSDictionary {
    [
        "caf\u{E9}": "caf\u{E9}", "cafe\u{301}": "cafe\u{301}", "count": NSNumber(value: Int64.min),
        "ratio": NSNumber(value: 0.5), "when": Date(timeIntervalSinceReferenceDate: 1_000_000_000),
        "blob": Data([0, 0xFF]), "flag": NSNumber(value: true), "list": ["a", NSNumber(value: 2)] as NSArray,
        "nested": ["a": ["b": "c"] as NSDictionary] as NSDictionary,
    ]
}

/// The file corelibs' UserDefaults writes for a suite holding `values`, in the preferences
/// folder (make-corpus.py points XDG_CONFIG_HOME at a temporary one).
func userDefaultsSuite(_ values: NSDictionary) throws -> Data {
    let name = "dev.typeddefaults.fuzz-seeds"
    guard let defaults = UserDefaults(suiteName: name) else { throw CocoaError(.featureUnsupported) }
    for case (let key as String, let value) in values { defaults.set(value, forKey: key) }
    defaults.synchronize()
    let file = DefaultsStore.preferencesFolder.appendingPathComponent("\(name).plist")
    defer { try? FileManager.default.removeItem(at: file) }
    return try Data(contentsOf: file)
}

func sampleSchema() -> DefaultsSchema {
    let types: [DefaultsSchema.ValueType] = [
        .any, .string, .json, .integer(lowest: Int64.min, highest: UInt64.max), .real, .boolean, .date, .data,
        .keyedArchive(className: "App.Palette"), .array(of: .optional(.string)),
        .dictionary(of: .integer(lowest: 0, highest: 9)),
    ]
    var keys = types.enumerated().map { index, type in
        DefaultsSchema.Key(
            name: "key\(index)", swiftType: "\(type)", valueType: type, title: "Key \(index)", info: "",
            defaultValue: index % 2 == 0 ? nil : .integer(Int64(index)), formattedDefaultValue: "\(index)")
    }
    keys.append(
        DefaultsSchema.Key(
            name: "volume", swiftType: "Double", valueType: .real, title: "Volume", info: "0 to 1",
            defaultValue: .real(0.5), formattedDefaultValue: "50%",
            range: .init(min: .real(0), max: .real(1), step: .real(0.1))))
    keys.append(
        DefaultsSchema.Key(
            name: "theme", swiftType: "Theme", valueType: .string, title: "Theme", defaultValue: .string("system"),
            formattedDefaultValue: "System",
            options: ["light", "dark", "system"].map { .init(value: .string($0), title: $0.capitalized) }))
    return DefaultsSchema(suite: "dev.typeddefaults.fuzz", keys: keys)
}
