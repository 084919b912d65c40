import Foundation
import Testing
import TypedDefaults

@testable import DefaultsProbe

/// The types beyond property-list values that people store: what is written, and what bad
/// stored data does. Their round trips across a restart, with edge values, are probe cases
/// (`RestartTests`).
@Suite struct TypesPeopleStoreTests {
    /// Writes `value` through `@UserDefault` and returns what plain `UserDefaults` reads.
    func stored<Value: DefaultsValueConvertible>(_ value: Value) throws -> Any? {
        let suite = try TestSuite("stored")
        UserDefault(wrappedValue: value, "key", store: DefaultsStore(suite.defaults)).wrappedValue = value
        return try suite.flushedObject(forKey: "key")
    }

    /// Writes `value`, expecting the write to be refused and reported.
    func expectRefusedWrite<Value: DefaultsValueConvertible>(
        _ value: Value, default defaultValue: Value, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let suite = try TestSuite("refused")
        let wrapper = UserDefault(wrappedValue: defaultValue, "key", store: DefaultsStore(suite.defaults))
        let (_, reported) = ReportedErrors.during { wrapper.wrappedValue = value }
        #expect(reported.count == 1, sourceLocation: sourceLocation)
        #expect(
            reported.allSatisfy { if case .encodingFailed = $0 { true } else { false } }, "\(reported)",
            sourceLocation: sourceLocation)
        #expect(try suite.flushedObject(forKey: "key") == nil, sourceLocation: sourceLocation)
    }

    // MARK: Decimal

    @Test func decimalIsItsExactText() throws {
        #expect(try stored(Decimal(string: "0.1")! + Decimal(string: "0.2")!) as? String == "0.3")
        #expect(try stored(Decimal.nan) as? String == "NaN")
    }

    @Test func decimalReadsNumbersOtherProgramsStored() throws {
        let suite = try TestSuite()
        suite.plant(0.1, forKey: "real")
        suite.plant(Int64.min, forKey: "integer")
        #expect(
            UserDefault(wrappedValue: Decimal(0), "real", store: DefaultsStore(suite.defaults)).wrappedValue
                == Decimal(string: "0.1"))
        #expect(
            UserDefault(wrappedValue: Decimal(0), "integer", store: DefaultsStore(suite.defaults)).wrappedValue
                == Decimal(string: "-9223372036854775808"))
    }

    @Test(arguments: ["1abc", "1,5", " 1", "1 ", "", "+", ".", "1e", "1e400", "0x10", "nan", "∞"])
    func decimalRefusesTextThatIsNotAWholeNumber(_ text: String) throws {
        try expectFailedRead(text, as: Decimal(7), isMismatch(expected: "Decimal", found: "String"))
    }

    @Test func decimalRefusesOtherKinds() throws {
        try expectFailedRead(true, as: Decimal(7), isMismatch(expected: "Decimal", found: "Bool"))
        try expectFailedRead(Data([1]), as: Decimal(7), isMismatch(expected: "Decimal", found: "Data"))
        try expectFailedRead(Double.infinity, as: Decimal(7), isMismatch(expected: "Decimal", found: "floating-point"))
    }

    // MARK: Int128, UInt128

    @Test func wideIntegersAreTheirText() throws {
        guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { return }
        #expect(try stored(Int128.min) as? String == "-170141183460469231731687303715884105728")
        #expect(try stored(UInt128.max) as? String == "340282366920938463463374607431768211455")
    }

    @Test func wideIntegersRefuseBadText() throws {
        guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { return }
        try expectFailedRead("12x", as: Int128(7), isMismatch(expected: "Int128", found: "12x"))
        try expectFailedRead("-1", as: UInt128(7), isMismatch(expected: "UInt128", found: "-1"))
        let tooBig = "340282366920938463463374607431768211456"
        try expectFailedRead(tooBig, as: UInt128(7), isMismatch(expected: "UInt128", found: tooBig))
        try expectFailedRead(5, as: Int128(7), isMismatch(expected: "Int128", found: "integer 5"))
    }

    // MARK: Character

    @Test func characterIsAOneCharacterString() throws {
        #expect(try stored(Character("👩‍👩‍👧‍👦")) as? String == "👩‍👩‍👧‍👦")
        try expectFailedRead("", as: Character("x"), isMismatch(expected: "Character", found: "String"))
        try expectFailedRead("ab", as: Character("x"), isMismatch(expected: "Character", found: "ab"))
    }

    // MARK: Range, ClosedRange

    @Test func rangesAreArraysOfTheirBounds() throws {
        #expect(try stored(0..<10) as? [Int] == [0, 10])
        #expect(try stored(1.5...2.5) as? [Double] == [1.5, 2.5])
        #expect(try stored(Decimal(1)...Decimal(string: "1.5")!) as? [String] == ["1", "1.5"])
    }

    @Test func rangesRefuseBoundsThatMakeNoRange() throws {
        try expectFailedRead([5, 1], as: 0..<1, isMismatch(expected: "Range<Int>", found: "lower bound 5 above"))
        try expectFailedRead([5, 1], as: 0...1, isMismatch(expected: "ClosedRange<Int>", found: "lower bound 5"))
        try expectFailedRead([1], as: 0...1, isMismatch(expected: "ClosedRange<Int>", found: "array of 1 bounds"))
        try expectFailedRead([1, 2, 3], as: 0..<1, isMismatch(expected: "Range<Int>", found: "array of 3 bounds"))
        try expectFailedRead([1, "a"] as [Any], as: 0..<1, isMismatch(expected: "Int", found: "String"))
        try expectFailedRead("0..<1", as: 0..<1, isMismatch(expected: "Range<Int>", found: "String"))
    }

    // MARK: Duration

    @Test func durationIsItsComponents() throws {
        let stored = try stored(Duration.seconds(90) + .milliseconds(500)) as? [String: Any]
        #expect(stored?["seconds"] as? Int == 90)
        #expect(stored?["attoseconds"] as? Int == 500_000_000_000_000_000)
    }

    @Test func durationRefusesWhatIsNoDuration() throws {
        try expectFailedRead(
            ["seconds": 1], as: Duration.zero, isMismatch(expected: "Duration", found: #"without "attoseconds""#))
        try expectFailedRead(
            ["seconds": "1", "attoseconds": 0] as [String: Any], as: Duration.zero,
            isMismatch(expected: "Int64", found: "String"))
        try expectFailedRead(
            1.5, as: Duration.zero, isMismatch(expected: "Duration", found: "floating-point"))
    }

    /// Components another program wrote out of their usual ranges still make a duration.
    @Test func durationReadsAnyComponents() throws {
        let suite = try TestSuite()
        suite.plant(["seconds": Int64.max, "attoseconds": Int64.max], forKey: "key")
        let read = UserDefault(wrappedValue: Duration.zero, "key", store: DefaultsStore(suite.defaults)).wrappedValue
        #expect(read == Duration(secondsComponent: .max, attosecondsComponent: .max))
    }

    @Test func aDurationTooLongToStoreIsRefused() throws {
        try expectRefusedWrite(Duration.seconds(Int64.max) * 2, default: .zero)
        try expectRefusedWrite(Duration.seconds(Int64.min) * 2, default: .zero)
    }

    // MARK: Geometry

    @Test func geometryIsDictionariesOfNamedFields() throws {
        #expect(try stored(CGFloat(1.5)) as? Double == 1.5)
        #expect(try stored(CGPoint(x: 1, y: 2)) as? [String: Double] == ["x": 1, "y": 2])
        #expect(try stored(CGSize(width: 3, height: 4)) as? [String: Double] == ["width": 3, "height": 4])
        #expect(
            try stored(CGRect(x: 1, y: 2, width: 3, height: 4)) as? [String: Double]
                == ["x": 1, "y": 2, "width": 3, "height": 4])
    }

    @Test func geometryRefusesMissingAndWrongFields() throws {
        try expectFailedRead(["x": 1], as: CGPoint.zero, isMismatch(expected: "CGPoint", found: #"without "y""#))
        try expectFailedRead(
            ["width": 1, "height": 2, "x": 0], as: CGRect.zero, isMismatch(expected: "CGRect", found: #"without "y""#))
        try expectFailedRead(
            ["width": "wide", "height": 2] as [String: Any], as: CGSize.zero,
            isMismatch(expected: "Double", found: "String"))
        try expectFailedRead(
            "{1, 2", as: CGPoint.zero, isMismatch(expected: "CGPoint", found: "String"))
        try expectFailedRead(true, as: CGFloat(1), isMismatch(expected: "CGFloat", found: "Bool"))
    }

    // MARK: Locale, TimeZone, IndexPath

    @Test func identifiersAndIndexesAreStoredPlainly() throws {
        #expect(try stored(Locale(identifier: "de_CH")) as? String == "de_CH")
        #expect(try stored(TimeZone(identifier: "Europe/Berlin")!) as? String == "Europe/Berlin")
        #expect(try stored(IndexPath(indexes: [2, 0, 5])) as? [Int] == [2, 0, 5])
    }

    @Test func identifiersAndIndexesRefuseBadData() throws {
        let utc = TimeZone(identifier: "UTC")!
        try expectFailedRead("Nowhere/Atlantis", as: utc, isMismatch(expected: "TimeZone", found: "Nowhere/Atlantis"))
        try expectFailedRead(3600, as: utc, isMismatch(expected: "TimeZone", found: "integer 3600"))
        try expectFailedRead(42, as: Locale(identifier: "en"), isMismatch(expected: "Locale", found: "integer 42"))
        try expectFailedRead([1, "a"] as [Any], as: IndexPath(), isMismatch(expected: "Int", found: "String"))
    }

    // MARK: Measurement, DateComponents

    @Test func measurementKeepsItsUnit() throws {
        let json = try #require(try stored(Measurement(value: 5, unit: UnitLength.kilometers)) as? String)
        #expect(json.contains(#""symbol":"km""#) && json.contains(#""value":5"#))
    }

    @Test func measurementAndDateComponentsRefuseMalformedJSON() throws {
        let meters = Measurement(value: 0, unit: UnitLength.meters)
        try expectFailedRead("not json", as: meters, isCorrupt)
        try expectFailedRead("{}", as: meters, isCorrupt)
        try expectFailedRead(#"{"hour":"eight"}"#, as: DateComponents(), isCorrupt)
        try expectFailedRead(8, as: DateComponents(), isMismatch(expected: "DateComponents", found: "integer 8"))
    }

    // MARK: Dictionaries with keys that are not strings

    @Test func numericKeysAreStoredAsTheirText() throws {
        #expect(try stored([1: "one", -7: "minus seven"]) as? [String: String] == ["1": "one", "-7": "minus seven"])
        #expect(try stored([Level.high: true]) as? [String: Bool] == ["10": true])
        #expect(try stored([0.5: 1]) as? [String: Int] == ["0.5": 1])
    }

    /// The doc comment's example: a `LosslessStringConvertible` type of one's own as a key.
    @Test func aLosslessStringConvertibleTypeIsAKey() throws {
        let suite = try TestSuite()
        @UserDefault("seats", store: DefaultsStore(suite.defaults)) var seats: [Ticket: String] = [:]
        seats = [Ticket(number: 7): "Ada", Ticket(number: 12): "Grace"]
        #expect(try suite.flushedObject(forKey: "seats") as? [String: String] == ["7": "Ada", "12": "Grace"])
        #expect(seats[Ticket(number: 12)] == "Grace")
        try expectFailedRead(["seven": "Ada"], as: [Ticket: String](), isMismatch(expected: "Ticket", found: "seven"))
    }

    @Test func keysThatAreNotTheTextOfAKeyAreRefused() throws {
        try expectFailedRead(
            ["1": "one", "4x": "four"], as: [Int: String](), isMismatch(expected: "Int", found: #"key "4x""#))
        try expectFailedRead(["300": true], as: [UInt8: Bool](), isMismatch(expected: "UInt8", found: #"key "300""#))
        try expectFailedRead(["5": "five"], as: [Level: String](), isMismatch(expected: "Level", found: "5"))
        try expectFailedRead(["1": 2], as: [Int: String](), isMismatch(expected: "String", found: "integer 2"))
        try expectFailedRead(
            ["5": "a", "05": "b"], as: [Int: String](),
            isMismatch(expected: "Dictionary<Int, String>", found: "two stored keys for 5"))
    }
}

struct Ticket: Hashable, LosslessStringConvertible, DefaultsValueConvertible {
    var number: Int
    init(number: Int) { self.number = number }
    init?(_ description: String) {
        guard let number = Int(description) else { return nil }
        self.number = number
    }
    var description: String { String(number) }
    init(defaultsRepresentation: String) throws {
        guard let ticket = Ticket(defaultsRepresentation) else {
            throw DefaultsTypeMismatch(expected: Ticket.self, found: defaultsRepresentation)
        }
        self = ticket
    }
    func defaultsRepresentation() -> String { description }
}
