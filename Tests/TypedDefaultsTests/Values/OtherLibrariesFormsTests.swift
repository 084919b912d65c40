import Foundation
import Testing

@testable import TypedDefaults

#if canImport(CoreGraphics)
    import CoreGraphics
#endif

/// A `Codable` struct as apps declare their settings.
struct FormsLayout: Codable, Equatable, Sendable, DefaultsValueConvertible {
    var columns: Int
    var sidebar: Bool
}

/// An enum with raw values, as apps declare their themes.
enum FormsTheme: String, Codable, Sendable, DefaultsValueConvertible { case light, dark }

/// An enum with `Int` raw values.
enum FormsLevel: Int, Codable, Sendable, DefaultsValueConvertible { case low = 1, high = 1000 }

/// Another library's bytes for one type: written with plain `UserDefaults` into a suite file, as
/// that library does, then read here as the type, with nothing reported; a write then stores this
/// library's own form.
struct OtherLibraryForm: Sendable, CustomTestStringConvertible {
    let library: String
    let type: String
    /// The object the library hands `UserDefaults.set(_:forKey:)`.
    let stored: @Sendable () throws -> Any
    /// Reads the key, writes it back, and says what went wrong, if anything.
    let check: @Sendable (TestSuite) throws -> String?

    var testDescription: String { "\(library): \(type)" }

    init<Value: DefaultsValueConvertible & Equatable & Sendable>(
        _ library: String, _ value: Value, default fallback: Value, stored: @escaping @Sendable () throws -> Any
    ) {
        self.library = library
        self.type = String(describing: Value.self)
        self.stored = stored
        check = { suite in
            let (read, reports) = ReportedErrors.during {
                UserDefault(wrappedValue: fallback, "key", store: suite.store).wrappedValue
            }
            guard read == value else { return "read \(read), not \(value); reported \(reports)" }
            guard reports.isEmpty else { return "read the value but reported \(reports)" }
            UserDefault(wrappedValue: fallback, "key", store: suite.store).wrappedValue = value
            let own = DefaultsStoredValue(storing: value, key: "key")
            guard suite.store.storedValue(forKey: "key") == own else {
                return
                    "a write stored \(String(describing: suite.store.storedValue(forKey: "key"))), not \(String(describing: own))"
            }
            return nil
        }
    }
}

/// What each library does with a value: the rules of its source, applied with Foundation's own
/// encoder.
enum OtherLibraryRules {
    /// sindresorhus/Defaults' `Codable` bridge: the JSON of a one-element array, its brackets
    /// dropped, as a string (its 5 to 8 releases; 9 encodes the value itself with sorted keys,
    /// the same text for every value here).
    static func defaultsJSON<Value: Encodable>(_ value: Value) throws -> Any {
        String(String(decoding: try JSONEncoder().encode([value]), as: UTF8.self).dropFirst().dropLast())
    }

    /// Foil's and SwiftyUserDefaults' `Codable` values: the JSON as `Data`.
    static func jsonData(_ value: some Encodable) throws -> Any {
        try JSONEncoder().encode(value)
    }
}

@Suite struct OtherLibrariesFormsTests {
    static let size = CGSize(width: 600, height: 900)
    static let point = CGPoint(x: 100, y: 80.5)
    static let rect = CGRect(x: 0, y: 20, width: 800, height: 600)
    static let locale = Locale(identifier: "de_CH")
    static let zone = TimeZone(identifier: "Europe/Paris")!
    static let duration = Duration.milliseconds(1500)
    static let price = Decimal(string: "19.99")!
    static let path = IndexPath(indexes: [0, 2])
    static let id = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
    static let layout = FormsLayout(columns: 3, sidebar: true)

    static let forms: [OtherLibraryForm] = {
        typealias Rules = OtherLibraryRules
        var forms: [OtherLibraryForm] = [
            // sindresorhus/Defaults: a type with no bridge of its own goes through its `Codable` bridge.
            .init("Defaults", size, default: .zero) { try Rules.defaultsJSON(size) },
            .init("Defaults", point, default: .zero) { try Rules.defaultsJSON(point) },
            .init("Defaults", rect, default: .zero) { try Rules.defaultsJSON(rect) },
            .init("Defaults", locale, default: Locale(identifier: "en_US")) { try Rules.defaultsJSON(locale) },
            .init("Defaults", zone, default: TimeZone(identifier: "UTC")!) { try Rules.defaultsJSON(zone) },
            .init("Defaults", duration, default: .zero) { try Rules.defaultsJSON(duration) },
            .init("Defaults", price, default: 0) { try Rules.defaultsJSON(price) },
            .init("Defaults", path, default: IndexPath()) { try Rules.defaultsJSON(path) },
            .init("Defaults", layout, default: FormsLayout(columns: 1, sidebar: false)) {
                try Rules.defaultsJSON(layout)
            },
            .init("Defaults", [size, .zero], default: []) {
                [try Rules.defaultsJSON(size), try Rules.defaultsJSON(CGSize.zero)]
            },
            .init("Defaults", ["main": size], default: [:]) { ["main": try Rules.defaultsJSON(size)] },
            .init("Defaults", Optional(size), default: nil) { try Rules.defaultsJSON(size) },
            .init("Defaults", Set([size.width]), default: []) { [Double(size.width)] },
            // Defaults' own bridges, and its `Codable` bridge for an enum that is also `Codable`.
            .init("Defaults", URL(string: "https://swift.org/x?y#z")!, default: URL(fileURLWithPath: "/")) {
                try Rules.defaultsJSON(URL(string: "https://swift.org/x?y#z")!)
            },
            .init("Defaults", id, default: UUID()) { id.uuidString },
            .init("Defaults", 0..<10, default: 0..<1) { [0, 10] },
            .init("Defaults", 1.5...2.5, default: 0...1) { [1.5, 2.5] },
            .init("Defaults", Date(timeIntervalSinceReferenceDate: 12), default: .distantPast) {
                Date(timeIntervalSinceReferenceDate: 12)
            },
            .init("Defaults", FormsTheme.dark, default: .light) { try Rules.defaultsJSON(FormsTheme.dark) },
            // `@AppStorage`: raw values, numbers, strings, `Data`, and URLs as `set(URL)` stores them.
            .init("@AppStorage", FormsTheme.dark, default: .light) { "dark" },
            .init("@AppStorage", 7, default: 0) { 7 },
            .init("@AppStorage", true, default: false) { true },
            .init("@AppStorage", 0.25, default: 0) { 0.25 },
            .init("@AppStorage", "text", default: "") { "text" },
            .init("@AppStorage", Data([1, 2, 3]), default: Data()) { Data([1, 2, 3]) },
            .init("@AppStorage", URL(fileURLWithPath: "/tmp/notes.txt"), default: URL(fileURLWithPath: "/")) {
                URL(fileURLWithPath: "/tmp/notes.txt")
            },
            // Plain `UserDefaults` code on Apple platforms: `NSStringFromCGSize` and its kin, and
            // CoreGraphics' `dictionaryRepresentation`.
            .init("UserDefaults", size, default: .zero) { "{600, 900}" },
            .init("UserDefaults", point, default: .zero) { "{100, 80.5}" },
            .init("UserDefaults", rect, default: .zero) { "{{0, 20}, {800, 600}}" },
            .init("UserDefaults", size, default: .zero) { ["Width": 600, "Height": 900] },
            .init("UserDefaults", point, default: .zero) { ["X": 100, "Y": 80.5] },
            .init("UserDefaults", rect, default: .zero) { ["X": 0, "Y": 20, "Width": 800, "Height": 600] },
        ]
        for library in ["Foil", "SwiftyUserDefaults"] {
            forms += [
                .init(library, size, default: .zero) { try Rules.jsonData(size) },
                .init(library, point, default: .zero) { try Rules.jsonData(point) },
                .init(library, rect, default: .zero) { try Rules.jsonData(rect) },
                .init(library, locale, default: Locale(identifier: "en_US")) { try Rules.jsonData(locale) },
                .init(library, zone, default: TimeZone(identifier: "UTC")!) { try Rules.jsonData(zone) },
                .init(library, duration, default: .zero) { try Rules.jsonData(duration) },
                .init(library, price, default: 0) { try Rules.jsonData(price) },
                .init(library, path, default: IndexPath()) { try Rules.jsonData(path) },
                .init(library, id, default: UUID()) { try Rules.jsonData(id) },
                .init(library, 0..<10, default: 0..<1) { try Rules.jsonData(0..<10) },
                .init(library, 1.5...2.5, default: 0...1) { try Rules.jsonData(1.5...2.5) },
                .init(library, layout, default: FormsLayout(columns: 1, sidebar: false)) { try Rules.jsonData(layout) },
                .init(library, [layout], default: []) { try Rules.jsonData([layout]) },
            ]
        }
        let urls = [URL(string: "https://swift.org/x?y#z")!, URL(fileURLWithPath: "/tmp/a b")]
        forms += [
            // SwiftyUserDefaults: arrays of raw values and of natives as they are, of URLs as a
            // keyed archive.
            .init("SwiftyUserDefaults", [FormsTheme.dark, .light], default: []) { ["dark", "light"] },
            // An enum that is also `Codable`, where the app chose SwiftyUserDefaults' `Codable` bridge.
            .init("SwiftyUserDefaults", FormsLevel.high, default: .low) { try Rules.jsonData(FormsLevel.high) },
            .init("SwiftyUserDefaults", [FormsTheme.dark, .light], default: []) {
                try Rules.jsonData([FormsTheme.dark, .light])
            },
            .init("SwiftyUserDefaults", [1, 2], default: []) { [1, 2] },
            .init("SwiftyUserDefaults", urls, default: []) {
                try NSKeyedArchiver.archivedData(withRootObject: urls as NSArray, requiringSecureCoding: false)
            },
            // Foil: an array, a set or a dictionary of elements, each in its form.
            .init("Foil", [layout, layout], default: []) { [try Rules.jsonData(layout), try Rules.jsonData(layout)] },
            .init("Foil", ["main": layout], default: [:]) { ["main": try Rules.jsonData(layout)] },
            .init("Foil", Set([size.width]), default: []) { [Double(size.width)] },
        ]
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            let wide = Int128(1) << 100
            let unsigned = UInt128.max
            forms += [
                .init("Defaults", wide, default: 0) { try Rules.defaultsJSON(wide) },
                .init("Foil", wide, default: 0) { try Rules.jsonData(wide) },
                .init("Defaults", unsigned, default: 0) { try Rules.defaultsJSON(unsigned) },
                .init("SwiftyUserDefaults", unsigned, default: 0) { try Rules.jsonData(unsigned) },
            ]
        }
        return forms
    }()

    @Test(arguments: forms)
    func readsAsStoredAndWritesItsOwnForm(_ form: OtherLibraryForm) throws {
        let suite = try TestSuite()
        let object = try form.stored()
        if let url = object as? URL {
            // Through `set(_: URL?, forKey:)`, as these libraries store a URL.
            suite.defaults.set(url, forKey: "key")
            suite.defaults.synchronize()
        } else {
            suite.plant(object, forKey: "key")
        }
        let problem = try form.check(suite)
        #expect(problem == nil, "\(form.testDescription): \(problem ?? "")")
    }
}

/// What the other libraries' forms do not loosen.
@Suite struct OtherLibrariesFormsLimitsTests {
    /// Reads `key` of `suite` as `Value`, returning the value and the reports.
    private func read<Value: DefaultsValueConvertible>(_ fallback: Value, in suite: TestSuite) -> (
        Value, [DefaultsError]
    ) {
        ReportedErrors.during { UserDefault(wrappedValue: fallback, "key", store: suite.store).wrappedValue }
    }

    @Test func aMismatchNamesTheDeclaredTypeNotItsStoredForm() throws {
        let suite = try TestSuite()
        suite.plant("[600]", forKey: "key")
        let (size, reports) = read(CGSize(width: 1, height: 2), in: suite)
        #expect(size == CGSize(width: 1, height: 2))
        #expect(reports.count == 1)
        #expect("\(reports)".contains("expected CGSize"), "\(reports)")
        #expect(suite.defaults.string(forKey: "key") == "[600]", "the stored bytes stay")
    }

    @Test func nativeTypesKeepTheirStrictForms() throws {
        let suite = try TestSuite()
        suite.plant("42", forKey: "key")
        let (number, reports) = read(0, in: suite)
        #expect(number == 0 && reports.count == 1, "a string under an Int key is a mismatch")
        let data = try TestSuite()
        data.plant(Data("42".utf8), forKey: "key")
        #expect(read(0, in: data).1.count == 1, "JSON Data under an Int key is a mismatch")
        let array = try TestSuite()
        array.plant(Data("[1,2]".utf8), forKey: "key")
        let (numbers, arrayReports) = read([Int](), in: array)
        #expect(numbers.isEmpty && arrayReports.count == 1, "JSON Data under an [Int] key is a mismatch")
        let strings = try TestSuite()
        strings.plant(["1", "2"], forKey: "key")
        #expect(read([Int](), in: strings).1.count == 1, "strings under an [Int] key are a mismatch")
    }

    @Test func anArrayReadsWholeOrNotAtAll() throws {
        let suite = try TestSuite()
        suite.plant(["[1,2]", "not a size"], forKey: "key")
        let (sizes, reports) = read([CGSize](), in: suite)
        #expect(sizes.isEmpty)
        #expect(reports.count == 1)
        #expect(suite.defaults.array(forKey: "key")?.count == 2, "the stored array stays")
        // The element in neither form, named as declared: not the first, in another form.
        #expect("\(reports)".contains("[1]") && "\(reports)".contains("expected CGSize"), "\(reports)")
        #expect(!"\(reports)".contains("Dictionary"), "\(reports)")
    }

    /// Reads `stored` under a key of `Value`, expecting the default and one report.
    private func expectMismatch<Value: DefaultsValueConvertible & Equatable>(
        _ stored: Any, as fallback: Value, _ comment: Comment, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let suite = try TestSuite()
        suite.plant(stored, forKey: "key")
        let (value, reports) = read(fallback, in: suite)
        #expect(value == fallback, comment, sourceLocation: sourceLocation)
        #expect(reports.count == 1, comment, sourceLocation: sourceLocation)
        #expect(suite.defaults.object(forKey: "key") != nil, "the stored bytes stay", sourceLocation: sourceLocation)
    }

    /// Those libraries store `nil` as an absent key: a stored JSON `null` is no value of theirs.
    @Test func jsonNullIsNoOptionalValue() throws {
        let null = Data("null".utf8)
        let layout = FormsLayout(columns: 2, sidebar: true)
        try expectMismatch(null, as: Optional(layout), "FormsLayout?")
        try expectMismatch(null, as: Optional(UUID()), "UUID?")
        try expectMismatch(null, as: CGSize??.some(CGSize(width: 1, height: 1)), "CGSize??")
        let elements = [try JSONEncoder().encode(layout), null]
        try expectMismatch(elements, as: [FormsLayout?]([layout]), "[FormsLayout?]")
    }

    /// A type with its own reading of other forms is read by it alone, as strictly as its text.
    @Test func numbersInJSONDataKeepTheirOwnTextRules() throws {
        for text in [" 19.99", "19.99\n", "\t1"] {
            try expectMismatch(Data(text.utf8), as: Decimal(7), "Decimal from \(text.debugDescription)")
        }
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            for text in ["1e3", "5.0", " 5"] {
                try expectMismatch(Data(text.utf8), as: Int128(7), "Int128 from \(text.debugDescription)")
                try expectMismatch(Data(text.utf8), as: UInt128(7), "UInt128 from \(text.debugDescription)")
            }
        }
    }

    /// JSON `Data` is a form only of what Foil and SwiftyUserDefaults store that way.
    @Test func jsonDataIsNoFormOfNativeCollectionsDictionariesOrURLs() throws {
        try expectMismatch(Data("[1,2]".utf8), as: Set([9]), "Set<Int>")
        try expectMismatch(Data(#"{"5":"a"}"#.utf8), as: [5: "z"], "[Int: String]")
        try expectMismatch(Data(#"{"5":"a","05":"b"}"#.utf8), as: [5: "z"], "[Int: String], two texts of a key")
        let layout = FormsLayout(columns: 2, sidebar: true)
        try expectMismatch(
            Data(#"{"a":{"columns":1,"sidebar":false}}"#.utf8), as: ["a": layout], "[String: FormsLayout]")
        try expectMismatch(Data(#""javascript:alert(1)""#.utf8), as: URL(fileURLWithPath: "/"), "URL")
        try expectMismatch(Data(#"["https://swift.org"]"#.utf8), as: [URL](), "[URL]")
    }

    @Test func aStringThatIsNoJSONIsStillALocaleIdentifier() throws {
        let suite = try TestSuite()
        suite.plant("{not json", forKey: "key")
        let (locale, reports) = read(Locale(identifier: "en_US"), in: suite)
        #expect(locale.identifier == "{not json")
        #expect(reports.isEmpty)
    }
}
