import Foundation
import Testing
import TypedDefaults

@testable import DefaultsProbe

/// Bad stored data never crashes, returns the default, is reported, and is left as it was.
@Suite struct ErrorThrowingTests {
    @Test func stringWhereAnIntIsExpected() throws {
        try expectFailedRead("hello", as: 7, isMismatch(expected: "Int", found: #"String "hello""#))
    }

    @Test func numbersOfTheWrongKind() throws {
        try expectFailedRead(300, as: UInt8(1), isMismatch(expected: "UInt8", found: "integer 300"))
        try expectFailedRead(-1, as: UInt64(1), isMismatch(expected: "UInt64", found: "integer -1"))
        try expectFailedRead(1, as: false, isMismatch(expected: "Bool", found: "integer 1"))
        try expectFailedRead(true, as: 0, isMismatch(expected: "Int", found: "Bool true"))
        try expectFailedRead(1.5, as: 0, isMismatch(expected: "Int", found: "floating-point 1.5"))
        try expectFailedRead("0.5", as: 1.0, isMismatch(expected: "Double", found: "String"))
    }

    @Test func randomBytesUnderACodableKey() throws {
        let layout = WindowLayout(width: 1, height: 1, title: nil, opened: .distantPast, zoom: 1)
        var generator = SystemRandomNumberGenerator()
        let bytes = Data((0..<64).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
        try expectFailedRead(bytes, as: layout, isMismatch(expected: "WindowLayout", found: "Data (64 bytes)"))
        try expectFailedRead(#"{"width": 1, "heig"#, as: layout, isCorrupt)
        try expectFailedRead(#"{"width": "wide"}"#, as: layout, isCorrupt)
    }

    /// A failure `load()` threw is reported by the next plain read, which falls back from it,
    /// once: a read that gives the default is never silent. (It was silent: the decode was cached
    /// as reported.)
    @Test func aFailureLoadThrewIsReportedByTheNextPlainReadOnce() throws {
        let suite = try TestSuite()
        suite.plant("hello", forKey: "count")
        let count = UserDefault(wrappedValue: 7, "count", store: suite.store)
        let (_, reports) = ReportedErrors.during {
            #expect(throws: DefaultsError.self) { try count.load() }
            #expect(count.wrappedValue == 7)
            // Reported once, as any failure: later reads and loads stay quiet until it changes.
            #expect(count.wrappedValue == 7)
            #expect(throws: DefaultsError.self) { try count.load() }
            #expect(count.wrappedValue == 7)
        }
        #expect(reports.count == 1, "\(reports)")
    }

    @Test func damagedKeyedArchives() throws {
        let swatch = Swatch(name: "default", hue: 0)
        let archive = try NSKeyedArchiver.archivedData(
            withRootObject: Swatch(name: "x", hue: 1), requiringSecureCoding: true)
        try expectFailedRead(archive.prefix(archive.count / 2), as: swatch, isCorrupt)
        try expectFailedRead(Data("not an archive".utf8), as: swatch, isCorrupt)
        try expectFailedRead("a string", as: swatch, isMismatch(expected: "Swatch", found: "String"))
    }

    // corelibs Foundation kills the process when it unarchives an archive of another class.
    @Test func anArchiveOfAnotherClass() throws {
        let palette = try NSKeyedArchiver.archivedData(withRootObject: Palette(name: "p"), requiringSecureCoding: true)
        try expectFailedRead(palette, as: Swatch(name: "default", hue: 0)) { error in
            guard case .corrupt(_, let underlying) = error else { return false }
            return "\(underlying)".contains("TypedDefaultsTests.Palette")
        }
    }

    @Test func anUnknownEnumRawValue() throws {
        try expectFailedRead(
            "neon", as: Channel.music, isMismatch(expected: "Channel", found: #"unknown raw value String "neon""#))
        try expectFailedRead(3, as: Level.low, isMismatch(expected: "Level", found: "unknown raw value integer 3"))
    }

    // Documented choice: the whole array fails, nothing is dropped, and the store keeps all elements.
    @Test func anArrayWithOneUndecodableElement() throws {
        try expectFailedRead(
            ["music", "neon", "voice"], as: [Channel.music], isMismatch(expected: "Channel", found: "at [1]"))
        try expectFailedRead([1, "two", 3], as: [0], isMismatch(expected: "Int", found: #"String "two" at [1]"#))
        try expectFailedRead(
            ["a": ["b": [1, "x"]]], as: ["a": ["b": [0]]], isMismatch(expected: "Int", found: #"at ["a"]["b"][1]"#))
    }

    @Test func aConversionThatThrows() throws {
        let isOutOfRange: (DefaultsError) -> Bool = { error in
            guard case .corrupt(_, let underlying) = error else { return false }
            return underlying is Percentage.OutOfRange
        }
        try expectFailedRead(101, as: Percentage(5), isOutOfRange)
        try expectFailedRead(-1, as: Opacity(indirectRepresentation: Percentage(5)), isOutOfRange)

        let suite = try TestSuite()
        @UserDefault("opacity", store: DefaultsStore(suite.defaults)) var opacity = Opacity(
            indirectRepresentation: Percentage(5))
        let (_, reported) = ReportedErrors.during { opacity.percent = 200 }
        #expect(reported.count == 1)
        #expect(!$opacity.hasStoredValue)
    }

    @Test func anUnknownDictionaryKey() throws {
        try expectFailedRead(
            ["music": 1.0, "neon": 0.5], as: [Channel.music: 0.0],
            isMismatch(expected: "Channel", found: #"unknown raw value String "neon" at ["neon"]"#))
    }

    @Test(.tags(.childProcess), .startsProcesses) func theDefaultHandlerPrintsOneLine() async throws {
        let suite = try TestSuite()
        #expect(try await Probe.run("write", suite.name, "unreadableValueIsReported").status == 0)
        let read = try await Probe.run("verify", suite.name, "unreadableValueIsReported")
        #expect(read.status == 0, "\(read.errors)")
        #expect(
            read.errors == """
                TypedDefaults: type mismatch for key "count": expected Int, found String "hello"

                """)
    }

    // Problems met under the store's locks are reported after they are released.
    @Test(
        .plistFilesOnly(
            "a plist file that does not parse: corelibs `UserDefaults` reads it as empty, and writes over it"),
        .hangGuard) func aHandlerThatUsesTheSameSuiteDoesNotDeadlock() throws
    {
        let suite = try TestSuite()
        try FileManager.default.createDirectory(
            at: suite.plistURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        try writeAtRest(Data("not a property list".utf8), to: suite.plistURL)
        let store = suite.store
        let reaction: @Sendable () -> Void = {
            _ = UserDefault(wrappedValue: 0, "other", store: store).wrappedValue
            UserDefault(wrappedValue: 0, "written", store: store.durability(.immediate)).wrappedValue += 1
        }

        let (value, reported) = ReportedErrors.during(reaction: reaction) {
            UserDefault(wrappedValue: "default", "key", store: store).wrappedValue
        }
        #expect(value == "default")
        guard case .corruptFile(_, let aside?, _)? = reported.first else {
            Issue.record("expected .corruptFile, got \(reported)")
            return
        }
        #expect(FileManager.default.contents(atPath: aside) == Data("not a property list".utf8))
        try FileManager.default.removeItem(atPath: aside)

        let counter = UserDefault(wrappedValue: 0, "counter", store: store)
        UserDefault(wrappedValue: "", "counter", store: store).wrappedValue = "not a number"
        let (_, updateReports) = ReportedErrors.during(reaction: reaction) { counter.update { $0 += 1 } }
        #expect(updateReports.count == 1)
        #expect(counter.wrappedValue == 1)
    }

    @Test func strayValuesForFoundationTypes() throws {
        try expectFailedRead("", as: URL(fileURLWithPath: "/"), isMismatch(expected: "URL", found: "String"))
        try expectFailedRead("not-a-uuid", as: UUID(), isMismatch(expected: "UUID", found: "String"))
        try expectFailedRead("yesterday", as: Date.distantPast, isMismatch(expected: "Date", found: "String"))
        try expectFailedRead(["a": 1], as: [1], isMismatch(expected: "Array<Int>", found: "Dictionary"))
        try expectFailedRead([1], as: ["a": 1], isMismatch(expected: "Dictionary<String, Int>", found: "Array"))
        try expectFailedRead(["__TypedDefaults.nil": -1], as: Int?(5), isMismatch(expected: "Int", found: "Dictionary"))
    }

    @Test func aFailedEncodeLeavesTheStoredValue() throws {
        let suite = try TestSuite()
        @UserDefault("layout", store: DefaultsStore(suite.defaults))
        var layout = WindowLayout(width: 1, height: 1, title: nil, opened: .distantPast, zoom: 1)
        layout = WindowLayout(width: 2, height: 2, title: nil, opened: .distantPast, zoom: 2)
        let before = try suite.fileBytes()

        let (_, reported) = ReportedErrors.during {
            layout = WindowLayout(width: 3, height: 3, title: nil, opened: .distantPast, zoom: .nan)  // JSON has no NaN
        }
        #expect(reported.count == 1)
        guard case .encodingFailed(let key, _)? = reported.first else {
            Issue.record("expected .encodingFailed, got \(reported)")
            return
        }
        #expect(key == "layout")
        #expect(try suite.fileBytes() == before)
        #expect(layout.width == 2)
    }

    @Test func dictionaryKeysThatCollideAreRefused() throws {
        struct CaseInsensitive: Hashable, DefaultsValueConvertible {
            var name: String
            init(_ name: String) { self.name = name }
            init(defaultsRepresentation: String) { name = defaultsRepresentation }
            func defaultsRepresentation() -> String { name.lowercased() }
        }
        let suite = try TestSuite()
        @UserDefault("map", store: DefaultsStore(suite.defaults)) var map = [CaseInsensitive: Int]()
        let (_, reported) = ReportedErrors.during { map = [CaseInsensitive("A"): 1, CaseInsensitive("a"): 2] }
        #expect(reported.count == 1)
        #expect(!$map.hasStoredValue)
    }

    // corelibs Foundation kills the process when it archives a class that refuses secure coding.
    @Test func aClassThatRefusesSecureCodingIsNeitherArchivedNorUnarchived() throws {
        let suite = try TestSuite()
        @UserDefault("legacy", store: DefaultsStore(suite.defaults)) var legacy = Legacy()
        let (_, reported) = ReportedErrors.during { legacy = Legacy() }
        #expect(reported.count == 1)
        #expect(!$legacy.hasStoredValue)

        try expectFailedRead(Data([1, 2, 3]), as: Legacy(), isCorrupt)
    }

    /// What a write stores always reads back: a value the library could not read is not written,
    /// in this process or any other.
    @Test func aNativeValueOfTheAppsOwnIsRefusedWithoutTouchingTheSuite() throws {
        try expectFailedRead("kept", as: NotStorable()) { "\($0)".contains("NotStorable") }
        let suite = try TestSuite()
        suite.plant("kept", forKey: "weird")
        let before = try suite.fileBytes()
        @UserDefault("weird", store: DefaultsStore(suite.defaults)) var weird = NotStorable()
        let (_, reported) = ReportedErrors.during { weird = NotStorable() }
        guard case .encodingFailed(let key, let underlying)? = reported.first else {
            Issue.record("expected an encoding failure, got \(reported)")
            return
        }
        #expect(key == "weird")
        #expect("\(underlying)".contains("NotStorable"))
        #expect($weird.hasStoredValue)
        let (_, updateReports) = ReportedErrors.during { $weird.update { $0 = NotStorable() } }
        #expect(updateReports.count == 1)
        #expect(try suite.fileBytes() == before, "the stored value was touched")
        @UserDefault("weirdOptional", store: DefaultsStore(suite.defaults)) var optional: NotStorable? = nil
        suite.plant("stale", forKey: "weirdOptional")
        let (_, nilReports) = ReportedErrors.during { optional = nil }
        #expect(nilReports.isEmpty && !$optional.hasStoredValue, "nil still removes the key")
        let store = DefaultsStore.inMemory()
        let registered = #expect(throws: DefaultsError.self) {
            try store.register(DefaultsKey<NotStorable>("registered", default: NotStorable()))
        }
        #expect("\(String(describing: registered))".contains("cannot read back"))
        #expect(try store.storedValues().isEmpty)
    }

    /// CoreFoundation refuses a file nested 512 levels deep, Python's plistlib one nested 332;
    /// a value nested more than 250 deep is refused when written, and the file stays one every
    /// reader takes.
    @Test func aValueNestedDeeperThanCoreFoundationReadsIsRefused() throws {
        /// `depth` arrays, the innermost holding `1`.
        func nested(_ depth: Int) -> NSArray {
            var object: Any = 1
            for _ in 1..<depth { object = [object] }
            return NSArray(array: [object])
        }
        let suite = try TestSuite()
        @UserDefault("deep", store: suite.store) var deep = NSArray()
        let (_, reported) = ReportedErrors.during { deep = nested(512) }
        let (_, justPast) = ReportedErrors.during { deep = nested(251) }
        #expect(justPast.count == 1)
        guard case .encodingFailed(let key, let underlying)? = reported.first else {
            Issue.record("expected .encodingFailed, got \(reported)")
            return
        }
        #expect(key == "deep" && "\(underlying)".contains("250"))
        #expect(!$deep.hasStoredValue)

        let (_, accepted) = ReportedErrors.during { deep = nested(250) }
        #expect(accepted.isEmpty)
        let bytes = try #require(try suite.fileBytes())
        #expect((try? PropertyListSerialization.propertyList(from: bytes, format: nil)) != nil)
    }

    /// corelibs' archiver kills the process for a class it cannot name (private, nested or
    /// generic); such a class is refused on write and on read, with a reported error.
    @Test(.enabled(if: isLinux)) func aClassTheArchiverCannotNameIsRefusedWithoutCrashing() throws {
        let suite = try TestSuite()
        @UserDefault("hidden", store: DefaultsStore(suite.defaults)) var hidden = HiddenSwatch()
        @UserDefault("nested", store: DefaultsStore(suite.defaults)) var nested = Palettes.Nested()
        let (_, reported) = ReportedErrors.during {
            hidden = HiddenSwatch()
            nested = Palettes.Nested()
        }
        #expect(reported.count == 2)
        #expect(reported.allSatisfy { "\($0)".contains("top-level") }, "\(reported)")
        #expect(!$hidden.hasStoredValue && !$nested.hasStoredValue)

        // Any stored bytes under such a key read as the default, reported, never decoded.
        let archive = try NSKeyedArchiver.archivedData(withRootObject: NSString("x"), requiringSecureCoding: true)
        try expectFailedRead(archive, as: HiddenSwatch(), isCorrupt)
        try expectFailedRead(Data([1, 2, 3]), as: Palettes.Nested(), isCorrupt)
    }

}

/// Secure-coding classes that corelibs' archiver cannot name: private, and nested.
private final class HiddenSwatch: NSObject, NSSecureCoding, DefaultsValueConvertible {
    static var supportsSecureCoding: Bool { true }
    override init() {}
    func encode(with coder: NSCoder) {}
    init?(coder: NSCoder) {}
}

enum Palettes {
    final class Nested: NSObject, NSSecureCoding, DefaultsValueConvertible {
        static var supportsSecureCoding: Bool { true }
        override init() {}
        func encode(with coder: NSCoder) {}
        init?(coder: NSCoder) {}
    }
}

/// A secure-coding class that says it does not support secure coding.
final class Legacy: NSObject, NSSecureCoding, DefaultsValueConvertible {
    static var supportsSecureCoding: Bool { false }
    override init() {}
    func encode(with coder: NSCoder) {}
    init?(coder: NSCoder) {}
}

/// A "native" value of the app's own, whose object is a property list: the library could write
/// it but not read it back, so it refuses it both ways.
struct NotStorable: Equatable, DefaultsValue {
    var _propertyListObject: Any { 21.0 }
}
