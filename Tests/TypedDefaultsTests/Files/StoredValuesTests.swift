import Foundation
import Testing

@testable import TypedDefaults
@testable import TypedDefaultsSchema

/// Untyped access to a suite: its values' JSON and text forms, reading every key, and atomic
/// edits that repair nothing.
@Suite struct StoredValuesTests {
    @Test func everyValueReadsBackFromItsJSONExactly() throws {
        let dates = [
            Date(), Date(timeIntervalSinceReferenceDate: 0.1), Date(timeIntervalSinceReferenceDate: -0.3),
            Date(timeIntervalSince1970: -86_400 * 365.25 * 100 + 0.001), Date(timeIntervalSinceReferenceDate: 1e-9),
            Date(timeIntervalSinceReferenceDate: 123_456_789.123_456_789), Date.distantFuture, Date.distantPast,
            Date(timeIntervalSinceReferenceDate: 1e15), Date(timeIntervalSinceReferenceDate: .nan),
        ]
        let values: [DefaultsStoredValue] =
            [
                .integer(.min), .integer(.max), .integer(0), .unsignedInteger(.max), .real(1), .real(-0.0),
                .real(.nan), .real(.infinity), .real(-.infinity), .real(.leastNonzeroMagnitude),
                .real(.greatestFiniteMagnitude),
                .real(0.1), .boolean(true), .boolean(false), .string(""),
                .string("tab\tquote\"back\\slash\u{1}\u{7F}é😀"),
                // U+FEFF, which a UTF-8 decoder may take for a byte order mark, at the start of
                // each run of text: after the quote and after an escape.
                .string("\u{FEFF}a\n\u{FEFF}b"), .dictionary(["\u{FEFF}": .string("\u{FEFF}")]),
                .data(Data()), .data(Data([0, 255, 10])), .array([]), .dictionary([:]),
                .dictionary([
                    "$date": .string("not a date"), "nested": .array([.integer(1), .dictionary(["b": .real(2)])]),
                ]),
                .dictionary(["$real": .string("nan")]), .dictionary(["__TypedDefaults.nil": .integer(0)]),
                .dictionary(["__TypedDefaults.nil": .integer(2)]),
            ] + dates.map(DefaultsStoredValue.date)
        for value in values {
            for pretty in [false, true] {
                let json = value.json(pretty: pretty)
                let back = try DefaultsStoredValue(json: json)
                #expect(Self.same(back, value), "\(json)")
            }
        }
        #expect(DefaultsStoredValue.real(1).json() == "1.0")
        #expect(DefaultsStoredValue.integer(1).json() == "1")
        #expect(DefaultsStoredValue.dictionary(["__TypedDefaults.nil": .integer(0)]).json() == "null")
        #expect(
            DefaultsStoredValue.date(Date(timeIntervalSinceReferenceDate: 0.5)).json()
                == #"{"$date":"2001-01-01T00:00:00.5Z"}"#)
    }

    /// Pretty JSON is written in time that grows as its text does: the writer built each
    /// container's text from its children's, copying every level's text into the level above,
    /// and took about a second for the deepest value a suite holds (250 levels) under the fuzz
    /// targets' sanitizers (found by the fuzz-json target, Fuzz/README.md). 1,000 levels, 4 MB of
    /// text, took seconds that way; a few tens of milliseconds now.
    @Test func prettyJSONIsWrittenInTimeThatGrowsAsItsText() throws {
        var deep = JSONText.Value.array([])
        for _ in 1..<1_000 { deep = .array([deep]) }
        let clock = ContinuousClock()
        let start = clock.now
        let text = JSONText.write(deep, pretty: true)
        let elapsed = clock.now - start
        #expect(text.utf8.count > 3_990_000)
        #expect(elapsed < .milliseconds(500), "\(elapsed)")
        var value = DefaultsStoredValue.array([])
        for _ in 1..<StoredObject.maximumNestingDepth { value = .array([value]) }
        #expect(try DefaultsStoredValue(json: value.json(pretty: true)) == value)
    }

    @Test func textThatIsNotTypedJSONIsRefusedWithWhereItGoesWrong() throws {
        let bad = [
            "", " ", "{", "[1,]", "01", "1.", ".5", "+1", "1e", "1e999", "-1e999", "18446744073709551616",
            "-9223372036854775809", #""\ud800""#, #""\udc00x""#, "\"a\u{1}\"", #"{"a":1,"a":2}"#, #"{"$date":"nope"}"#,
            #"{"$date":true}"#, #"{"$data":"!!"}"#, #"{"$real":"big"}"#, "[1] [2]", "nul", "tru", #"{1:2}"#, "\"\\x\"",
            String(repeating: "[", count: 100_000),
            String(repeating: #"{"a":"#, count: 300) + "1" + String(repeating: "}", count: 300),
        ]
        for text in bad {
            #expect(throws: DefaultsStoredValue.FormatError.self, "\(text.prefix(40))") {
                try DefaultsStoredValue(json: text)
            }
        }
        let error = try #require(throws: DefaultsStoredValue.FormatError.self) {
            try DefaultsStoredValue(json: "[1, x]")
        }
        #expect(error.description.contains("byte 5"))
    }

    @Test func scalarTextIsReadAsItsKindOrRefused() throws {
        #expect(try DefaultsStoredValue(parsing: "-42", as: .integer) == .integer(-42))
        #expect(try DefaultsStoredValue(parsing: "18446744073709551615", as: .integer) == .unsignedInteger(.max))
        #expect(try DefaultsStoredValue(parsing: "2.5", as: .real) == .real(2.5))
        #expect(try DefaultsStoredValue(parsing: "YES", as: .boolean) == .boolean(true))
        #expect(try DefaultsStoredValue(parsing: "0", as: .boolean) == .boolean(false))
        #expect(try DefaultsStoredValue(parsing: "ca fe", as: .data) == .data(Data([0xCA, 0xFE])))
        #expect(try DefaultsStoredValue(parsing: " spaced ", as: .string) == .string(" spaced "))
        let noon = Date(timeIntervalSince1970: 1_795_428_000)  // 2026-11-23T10:00:00Z
        for text in [
            "2026-11-23T10:00:00Z", "2026-11-23 10:00:00 +0000", "2026-11-23T12:00:00+02:00",
            "2026-11-23T05:00:00-0500",
        ] {
            #expect(try DefaultsStoredValue(parsing: text, as: .date) == .date(noon), "\(text)")
        }
        #expect(try DefaultsStoredValue(parsing: "2026-11-23", as: .date) == .date(noon - 36_000))
        let refused: [(String, DefaultsStoredValue.Kind)] = [
            ("1.5", .integer), ("12abc", .integer), ("", .integer), ("-", .integer), ("99999999999999999999", .integer),
            ("abc", .real), ("1e999", .real), (" 1", .real), ("maybe", .boolean), ("abc", .data), ("a", .data),
            ("2026-13-01", .date), ("2026-02-30", .date), ("2026-11-23T25:00:00Z", .date), ("yesterday", .date),
            ("2026-11-23T10:00:00", .date), ("[1]", .array), ("{}", .dictionary),
        ]
        for (text, kind) in refused {
            #expect(throws: DefaultsStoredValue.FormatError.self, "\(text) as \(kind)") {
                try DefaultsStoredValue(parsing: text, as: kind)
            }
        }
        let overflow = try #require(throws: DefaultsStoredValue.FormatError.self) {
            try DefaultsStoredValue(parsing: "99999999999999999999", as: .integer)
        }
        #expect(overflow.description.contains("outside"))
    }

    @Test func aStoredValueReadsAsAnyTypeByTheRulesOfAKeyOfThatType() {
        #expect(DefaultsStoredValue.string("dark").value(as: Theme.self) == .dark)
        #expect(DefaultsStoredValue.string("sepia").value(as: Theme.self) == nil, "no such case")
        #expect(DefaultsStoredValue.integer(3).value(as: Double.self) == 3)
        #expect(DefaultsStoredValue.integer(300).value(as: UInt8.self) == nil, "never truncated")
        #expect(DefaultsStoredValue.real(0.5).value(as: Date.self) == Date(timeIntervalSinceReferenceDate: 0.5))
        #expect(DefaultsStoredValue.integer(1).value(as: Bool.self) == nil)
        #expect(DefaultsStoredValue.boolean(true).value(as: Int.self) == nil)
        #expect(DefaultsStoredValue.array([1, 2]).value(as: [Int].self) == [1, 2])
        #expect(DefaultsStoredValue.array([1, "x"]).value(as: [Int].self) == nil, "read whole or not at all")
        #expect(DefaultsStoredValue.dictionary(["a": 1]).value(as: [String: Int?].self) == ["a": 1])
    }

    @Test func objectsThatAreNoPropertyListAreRefused() {
        #expect(DefaultsStoredValue(propertyListObject: NSObject()) == nil)
        #expect(DefaultsStoredValue(propertyListObject: Set([1])) == nil)
        #expect(DefaultsStoredValue(propertyListObject: [1, UUID()] as [Any]) == nil)
        #expect(DefaultsStoredValue(propertyListObject: ["k": URL(fileURLWithPath: "/")] as [String: Any]) == nil)
        #expect(DefaultsStoredValue(propertyListObject: [1: "int key"]) == nil)
        let deep = (0..<300).reduce([Any]()) { inner, _ in [inner] as [Any] }
        #expect(DefaultsStoredValue(propertyListObject: deep) == nil)
        #expect(DefaultsStoredValue(propertyListObject: ["a": [1, 2.5, true, "s"]] as [String: Any]) != nil)
        #expect(throws: (any Error).self) { try DefaultsStoredValue(bridgedObject: NSObject()) }
    }

    @Test func typedValuesAreListedWithHowTheyWereEncoded() throws {
        let suite = try TestSuite()
        struct Profile: Codable, DefaultsValueConvertible, Sendable {
            var name = "Ada"
        }
        @UserDefault("profile", store: suite.store) var profile = Profile()
        @UserDefault("team", store: suite.store) var team: String? = "Lions"
        @UserDefault("count", store: suite.store) var count = 0
        profile = Profile(name: "Grace")
        team = nil
        count = 3
        let values = try suite.store.storedValues()
        #expect(values.count == 3)
        #expect(values["profile"] == .string(#"{"name":"Grace"}"#))
        #expect(values["profile"]?.encoding == .json)
        #expect(values["team"]?.encoding == .explicitNil(depth: 0))
        #expect(values["count"] == .integer(3))
        #expect(values["count"]?.encoding == .plain)
        #expect(suite.store.storedValue(forKey: "count") == .integer(3))
        #expect(suite.store.storedValue(forKey: "missing") == nil)
        let archive = try NSKeyedArchiver.archivedData(withRootObject: NSDate(), requiringSecureCoding: true)
        #expect(DefaultsStoredValue.data(archive).encoding == .keyedArchive(className: "NSDate"))
        #expect(DefaultsStoredValue.data(Data("bplist00 not an archive".utf8)).encoding == .plain)
        #expect(DefaultsStoredValue.string("[not json").encoding == .plain)
    }

    @Test func anEditChangesKeysAtomicallyAndTypedReadsAndObserversSeeIt() throws {
        let suite = try TestSuite()
        @UserDefault("userName", store: suite.store) var userName = ""
        @UserDefault("displayName", store: suite.store) var displayName = ""
        @UserDefault("fontSize", store: suite.store) var fontSize = 12
        userName = "Ada"
        fontSize = 13
        let heard = Collected<String>()
        let observation = suite.store.observe { change in heard.append(change.key) }
        defer { observation.cancel() }
        try suite.store.editStoredValues { values in
            values["displayName"] = values.removeValue(forKey: "userName")
            values["fontSize"] = .integer(14)
            values["extra"] = .array([.boolean(true)])
        }
        #expect(userName == "")
        #expect(displayName == "Ada")
        #expect(fontSize == 14)
        #expect(try suite.flushedObject(forKey: "extra") != nil)
        #expect(eventually { Set(heard.all).isSuperset(of: ["userName", "displayName", "fontSize", "extra"]) })
        let written = try #require(try suite.fileBytes())
        let reread = try PropertyListSerialization.propertyList(from: written, format: nil) as? [String: Any]
        #expect(reread?["displayName"] as? String == "Ada")
        #expect(reread?["userName"] == nil)
    }

    @Test func anEditThatThrowsWritesNothing() throws {
        let suite = try TestSuite()
        @UserDefault("kept", store: suite.store) var kept = 0
        kept = 1
        let before = try suite.fileBytes()
        struct Refused: Error {}
        #expect(throws: Refused.self) {
            try suite.store.editStoredValues { values in
                values["kept"] = .integer(2)
                throw Refused()
            }
        }
        #expect(try suite.fileBytes() == before)
        #expect(kept == 1)
        let tooDeep = (0..<300).reduce(DefaultsStoredValue.integer(0)) { inner, _ in .array([inner]) }
        #expect(throws: DefaultsError.self) {
            try suite.store.editStoredValues { values in values["deep"] = tooDeep }
        }
        #expect(try suite.fileBytes() == before)
    }

    @Test(
        .plistFilesOnly(
            "a plist file that does not parse: corelibs `UserDefaults` reads it as empty, and writes over it"))
    func aFileThatDoesNotParseIsLeftWhereAndAsItIs() throws {
        let suite = try TestSuite()
        let garbage = Data("<?xml version=\"1.0\"?><plist><dict><key>a</key>".utf8)
        try FileManager.default.createDirectory(
            at: suite.plistURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        try writeAtRest(garbage, to: suite.plistURL)
        for attempt in 0..<2 {
            let error = try #require(throws: DefaultsError.self, "\(attempt)") {
                if attempt == 0 {
                    _ = try suite.store.storedValues()
                } else {
                    try suite.store.editStoredValues { $0["a"] = .integer(1) }
                }
            }
            guard case .unparsableFile(let path, _) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(path == suite.plistURL.path)
            #expect(error.description.contains("left as it is"))
        }
        #expect(FileManager.default.contents(atPath: suite.plistURL.path) == garbage)
        let folder = suite.plistURL.deletingLastPathComponent().path
        let asides = try FileManager.default.contentsOfDirectory(atPath: folder).filter {
            $0.hasPrefix(suite.plistURL.lastPathComponent + ".corrupt")
        }
        #expect(asides.isEmpty)
    }

    /// Values compared as stored: NaN equal to NaN.
    static func same(_ first: DefaultsStoredValue, _ second: DefaultsStoredValue) -> Bool {
        switch (first, second) {
        case (.real(let a), .real(let b)): a == b && a.sign == b.sign || (a.isNaN && b.isNaN)
        case (.date(let a), .date(let b)):
            a.timeIntervalSinceReferenceDate == b.timeIntervalSinceReferenceDate
                || (a.timeIntervalSinceReferenceDate.isNaN && b.timeIntervalSinceReferenceDate.isNaN)
        case (.array(let a), .array(let b)): a.count == b.count && zip(a, b).allSatisfy(same)
        case (.dictionary(let a), .dictionary(let b)):
            a.count == b.count && a.allSatisfy { key, value in b[key].map { same(value, $0) } ?? false }
        default: first == second
        }
    }
}
