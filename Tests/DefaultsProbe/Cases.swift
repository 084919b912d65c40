import Foundation
import TypedDefaults

extension ProbeCase {
    /// One case per conformance family, with its edge values.
    static var all: [ProbeCase] {
        [
            .roundTrip("bool", default: false, [true, false]),
            .roundTrip("int", default: 0, [Int.min, Int.max, -1, 0, 42]),
            .roundTrip("int8", default: Int8(1), [.min, .max]),
            .roundTrip("int16", default: Int16(1), [.min, .max]),
            .roundTrip("int32", default: Int32(1), [.min, .max]),
            .roundTrip("int64", default: Int64(1), [.min, .max]),
            .roundTrip("uint", default: UInt(1), [.min, .max]),
            .roundTrip("uint8", default: UInt8(1), [.min, .max]),
            .roundTrip("uint16", default: UInt16(1), [.min, .max]),
            .roundTrip("uint32", default: UInt32(1), [.min, .max]),
            .roundTrip("uint64", default: UInt64(1), [.min, .max, UInt64(Int64.max) + 1]),
            .roundTrip(
                "double", default: 1.0,
                [
                    0.1, -2.5, .pi, 1.0000000000000002, .leastNonzeroMagnitude, .greatestFiniteMagnitude,
                    .infinity, -.infinity, .nan, -0.0,
                ],
                same: sameFloatingPoint),
            .roundTrip(
                "float", default: Float(1),
                [0.1, -2.5, .pi, .leastNonzeroMagnitude, .greatestFiniteMagnitude, .infinity, -.infinity, .nan],
                same: sameFloatingPoint),
            .roundTrip(
                "string", default: "default",
                [
                    "", "plain", "emoji 👩‍👩‍👧‍👦🇺🇦 ✓", "nul\u{0}inside", "controls \u{1}\u{8}\u{1B}\r\n\t end",
                    "xml <tag attr=\"v\"> & ]]>", String(repeating: "0123456789abcdef", count: 65_536),
                ]),
            .roundTrip("data", default: Data([1]), [Data(), Data([0, 255, 0]), megabyteOfBytes]),
            .roundTrip(
                "date", default: Date(timeIntervalSinceReferenceDate: 0),
                [
                    Date(timeIntervalSinceReferenceDate: 1_234_567_890.125), Date(timeIntervalSince1970: -0.5),
                    .distantPast, .distantFuture,
                ]),
            .roundTrip(
                "url", default: URL(fileURLWithPath: "/"),
                [
                    URL(string: "https://user@example.com:8443/p/q?a=1&b=%20x#frag")!,
                    URL(fileURLWithPath: "/tmp/with space/file.txt"),
                    URL(string: "mailto:someone@example.com")!, URL(string: "relative/path")!,
                ]),
            .roundTrip("uuid", default: UUID(), fixedUUIDs),
            .roundTrip("array", default: [Int](), [[], [1, 2, 3], [Int.max, Int.min]]),
            .roundTrip("nestedArray", default: [[String]](), [[["a"], [], ["b", "c"]]]),
            .roundTrip(
                "urlArray", default: [URL](), [[URL(string: "https://swift.org/x?y#z")!, URL(fileURLWithPath: "/a")]]),
            .roundTrip("set", default: Set<String>(), [["a", "b", "c"], []]),
            .roundTrip("uuidSet", default: Set<UUID>(), [Set(fixedUUIDs)]),
            .roundTrip("dictionary", default: [String: Int](), [[:], ["a": 1, "b": Int.max]]),
            .roundTrip("enumKeyDictionary", default: [Channel: Double](), [[.music: 0.5, .voice: 1]]),
            .roundTrip(
                "nestedDictionary", default: [String: [Channel?]](),
                [["mixed": [.music, nil, .voice], "empty": [], "onlyNil": [nil]]]),
            .roundTrip("optionalSome", default: String?.none, ["value", ""]),
            .roundTrip("optionalNilOverDefault", default: Int?(42), [nil]),
            .roundTrip("doubleOptional", default: Int??.some(.some(1)), [.some(nil), nil, .some(.some(2))]),
            .roundTrip("rawString", default: Channel.music, Channel.allCases),
            .roundTrip("rawInt", default: Level.low, [.high]),
            .roundTrip("rawCodable", default: Mode.automatic, [.manual]),
            .roundTrip("preferCodable", default: Quality.low, [.high]),
            .roundTrip("preferCodableInt", default: Rank.first, [.second]),
            .roundTrip("secureCodingAndCodable", default: Pin(label: "none"), [Pin(label: "home ✓")]),
            .roundTrip("preferSecureCoding", default: ArchivedPin(label: "none"), [ArchivedPin(label: "work")]),
            .roundTrip(
                "codable", default: WindowLayout(width: 1, height: 1, title: nil, opened: .distantPast, zoom: 1),
                [
                    WindowLayout(
                        width: 800, height: 600, title: "Main ✓", opened: Date(timeIntervalSinceReferenceDate: 12.25),
                        zoom: 1.5)
                ]),
            .roundTrip(
                "largeCodable", default: [WindowLayout](),
                [
                    (0..<1_000).map {
                        WindowLayout(width: $0, height: -$0, title: "\($0)", opened: .distantFuture, zoom: 0.1)
                    }
                ]),
            .roundTrip("secureCoding", default: Swatch(name: "none", hue: 0), [Swatch(name: "warm", hue: 30)]),
            .roundTrip("conversion", default: Tenths(0), [Tenths(-15)]),
            .roundTrip("indirect", default: Celsius(0), [Celsius(21.5)]),
            .roundTrip("indirectChain", default: Fahrenheit(32), [Fahrenheit(212)]),
            .roundTrip("customCollection", default: TagList([]), [TagList(["b", "a", "b"])]),
            .roundTrip("arrayCollection", default: Stack(array: []), [Stack(array: [3, 1, 2])]),
            .roundTrip(
                "validatedConversion", default: Opacity(indirectRepresentation: Percentage(100)),
                [
                    Opacity(indirectRepresentation: Percentage(0))
                ]),
            // Foundation's property-list classes, stored as the values they hold.
            .roundTrip(
                "nsString", default: NSString(string: "default"), [NSString(string: "text \u{1} ✓"), NSString()]),
            .roundTrip(
                "nsNumber", default: NSNumber(value: 0),
                [NSNumber(value: true), NSNumber(value: Int64.min), NSNumber(value: UInt64.max), NSNumber(value: 0.1)]),
            .roundTrip(
                "nsDate", default: NSDate(timeIntervalSinceReferenceDate: 0),
                [NSDate(timeIntervalSinceReferenceDate: 1_234_567_890.125), NSDate.distantPast as NSDate]),
            .roundTrip("nsData", default: NSData(), [NSData(data: Data([0, 1, 255]))]),
            .roundTrip(
                "nsURL", default: NSURL(fileURLWithPath: "/"),
                [NSURL(string: "https://example.com/p?q#f")!, NSURL(fileURLWithPath: "/tmp/a b")]),
            .roundTrip(
                "nsArray", default: NSArray(),
                [NSArray(array: ["a", 1, true, Date(timeIntervalSinceReferenceDate: 5), Data([1]), ["nested": 2.5]])]),
            .roundTrip(
                "nsDictionary", default: NSDictionary(),
                [
                    NSDictionary(dictionary: [
                        "date": Date(timeIntervalSinceReferenceDate: 7), "list": [1, 2], "flag": false,
                    ])
                ]),
            // As deep as a value may nest: every reader of the file must still read it.
            .roundTrip(
                "deepestNesting", default: NSArray(), [NSArray(array: [nestedArrays(249)])],
                same: { depth(of: $0) == depth(of: $1) }),
            // URLs as plain UserDefaults writes them, read through @UserDefault.
            ProbeCase(
                name: "plainURLs",
                write: { defaults in
                    defaults.set(URL(fileURLWithPath: "/tmp/with space/ä.txt"), forKey: "file")
                    defaults.set("~/notes.txt", forKey: "tilde")
                    defaults.set(
                        try? NSKeyedArchiver.archivedData(
                            withRootObject: NSURL(string: "https://example.com/a?b")!, requiringSecureCoding: true),
                        forKey: "archived")
                    defaults.synchronize()
                },
                verify: { defaults in
                    let fallback = URL(string: "https://default.invalid")!
                    let read = ["file", "tilde", "archived"].map {
                        UserDefault(wrappedValue: fallback, $0, store: DefaultsStore(defaults)).wrappedValue
                    }
                    let expected = [
                        URL(fileURLWithPath: "/tmp/with space/ä.txt"),
                        URL(fileURLWithPath: NSString(string: "~/notes.txt").expandingTildeInPath),
                        URL(string: "https://example.com/a?b")!,
                    ]
                    return zip(read, expected).compactMap { $0 == $1 ? nil : "read \($0), expected \($1)" }
                }),
            // The file stays the one plain UserDefaults reads, in the format it reads.
            ProbeCase(
                name: "plainReaderSeesTypedWrites",
                write: { defaults in
                    UserDefault(wrappedValue: "", "name", store: DefaultsStore(defaults)).wrappedValue = "Ada"
                    UserDefault(wrappedValue: 0, "count", store: DefaultsStore(defaults)).wrappedValue = 3
                    UserDefault(wrappedValue: [String](), "tags", store: DefaultsStore(defaults)).wrappedValue = [
                        "a", "b",
                    ]
                },
                verify: { defaults in
                    let plain = (
                        defaults.string(forKey: "name"), defaults.integer(forKey: "count"),
                        defaults.stringArray(forKey: "tags")
                    )
                    return plain == ("Ada", 3, ["a", "b"]) ? [] : ["plain UserDefaults read \(plain)"]
                }),
            // Read back in a process of its own: the default handler reports on standard error.
            ProbeCase(
                name: "unreadableValueIsReported",
                write: { defaults in
                    defaults.set("hello", forKey: "count")
                    defaults.synchronize()
                },
                verify: { defaults in
                    let count = UserDefault(wrappedValue: 7, "count", store: DefaultsStore(defaults)).wrappedValue
                    return count == 7 ? [] : ["read \(count) instead of the default"]
                }),
        ] + typesPeopleStore + wideIntegers
    }

    /// Types people store that are not property-list values, each with its edge values.
    private static var typesPeopleStore: [ProbeCase] {
        var cases: [ProbeCase] = []
        cases.append(
            .roundTrip(
                "decimal", default: Decimal(0),
                [
                    Decimal(string: "0.1")! + Decimal(string: "0.2")!, Decimal(string: "-19.99")!,
                    Decimal(string: "12345678901234567890123456789012345678")!, .greatestFiniteMagnitude,
                    .leastFiniteMagnitude, .leastNonzeroMagnitude, Decimal(string: "1e-127")!,
                ]))
        cases.append(
            .roundTrip("decimalNaN", default: Decimal(0), [Decimal.nan], same: { $0.isNaN && $1.isNaN }))
        cases.append(
            .roundTrip("closedRange", default: 0...1, [Int.min...Int.max, 5...5]))
        cases.append(
            .roundTrip("range", default: 0.0..<1.0, [-Double.infinity ..< .infinity, 0.5..<0.5]))
        cases.append(
            .roundTrip(
                "dateRange", default: Date.distantPast..<Date.distantFuture,
                [fixedDate..<fixedDate.addingTimeInterval(0.125)]))
        cases.append(
            .roundTrip(
                "duration", default: Duration.zero,
                [
                    .seconds(90) + .milliseconds(500), .seconds(-1.5),
                    Duration(secondsComponent: 1, attosecondsComponent: 1),
                    Duration(secondsComponent: .max, attosecondsComponent: 999_999_999_999_999_999),
                    Duration(secondsComponent: .min, attosecondsComponent: -999_999_999_999_999_999),
                ]))
        cases.append(
            .roundTrip("character", default: Character("a"), ["é", "e\u{301}", "👩‍👩‍👧‍👦", "\u{0}", "\r\n", "🇺🇦"]))
        cases.append(
            .roundTrip("cgFloat", default: CGFloat(0), [CGFloat.pi, -0.1, .greatestFiniteMagnitude, .infinity]))
        cases.append(
            .roundTrip(
                "cgPoint", default: CGPoint.zero, [CGPoint(x: -1.5, y: 1e300), CGPoint(x: CGFloat.infinity, y: 0)]))
        cases.append(
            .roundTrip("cgSize", default: CGSize.zero, [CGSize(width: 800, height: 600.25)]))
        cases.append(
            .roundTrip("cgRect", default: CGRect.zero, [CGRect(x: -10, y: 0.1, width: 1e-300, height: 42), .infinite]))
        cases.append(
            .roundTrip(
                "locale", default: Locale(identifier: "en_US"),
                [
                    Locale(identifier: "de_CH@calendar=buddhist"), Locale(identifier: "zh_Hant_TW"),
                    Locale(identifier: ""),
                ]))
        cases.append(
            .roundTrip(
                "timeZone", default: TimeZone(identifier: "UTC")!,
                [
                    TimeZone(identifier: "Europe/Berlin")!, TimeZone(secondsFromGMT: 19_800)!,
                    TimeZone(identifier: "Asia/Kathmandu")!,
                ]))
        cases.append(
            .roundTrip(
                "indexPath", default: IndexPath(),
                [IndexPath(indexes: [2, 0, 5]), IndexPath(), IndexPath(index: Int.max)]))
        cases.append(
            .roundTrip(
                "measurement", default: Measurement(value: 0, unit: UnitLength.meters),
                [
                    Measurement(value: 5, unit: UnitLength.kilometers),
                    Measurement(value: -0.1, unit: UnitLength.miles),
                    Measurement(
                        value: 1,
                        unit: UnitLength(symbol: "league", converter: UnitConverterLinear(coefficient: 4828.032))),
                ],
                same: sameMeasurement))
        cases.append(
            .roundTrip(
                "temperature", default: Measurement(value: 0, unit: UnitTemperature.celsius),
                [Measurement(value: 98.6, unit: UnitTemperature.fahrenheit)],
                same: sameMeasurement))
        cases.append(
            .roundTrip(
                "dateComponents", default: DateComponents(), [fullDateComponents, DateComponents(hour: 8, minute: 30)]))
        cases.append(
            .roundTrip(
                "intKeyDictionary", default: [Int: String](), [[1: "one", -7: "minus seven", .max: "max", .min: "min"]])
        )
        cases.append(
            .roundTrip("uint8KeyDictionary", default: [UInt8: Bool](), [[0: true, 255: false]]))
        cases.append(
            .roundTrip("doubleKeyDictionary", default: [Double: Int](), [[0.1: 1, -2.5: 2, .infinity: 3]]))
        cases.append(
            .roundTrip("intEnumKeyDictionary", default: [Level: String](), [[.low: "quiet", .high: "loud"]]))
        cases.append(
            .roundTrip("characterKeyDictionary", default: [Character: Int](), [["a": 1, "é": 2, "👩‍👩‍👧‍👦": 3]]))
        return cases
    }

    /// `Int128` and `UInt128`, where the platform has them.
    private static var wideIntegers: [ProbeCase] {
        guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { return [] }
        return [
            .roundTrip("int128", default: Int128(0), [.min, .max, -1, Int128(Int64.max) + 1]),
            .roundTrip("uint128", default: UInt128(0), [.min, .max, UInt128(UInt64.max) + 1]),
            .roundTrip("int128KeyDictionary", default: [Int128: String](), [[.max: "max", .min: "min"]]),
        ]
    }

    private static let fixedDate = Date(timeIntervalSinceReferenceDate: 1_234_567_890.125)

    /// Every field a `DateComponents` has, set.
    private static var fullDateComponents: DateComponents {
        var calendar = Calendar(identifier: .japanese)
        calendar.timeZone = TimeZone(identifier: "Asia/Tokyo")!
        var components = DateComponents(
            calendar: calendar, timeZone: TimeZone(identifier: "America/New_York"), era: 235, year: 6, month: 2,
            day: 29, hour: 23, minute: 59, second: 58, nanosecond: 999_999_999, weekday: 5, weekdayOrdinal: 4,
            quarter: 1, weekOfMonth: 5, weekOfYear: 9, yearForWeekOfYear: 6)
        components.isLeapMonth = false
        return components
    }

    private static let fixedUUIDs = [
        UUID(uuid: (0xE6, 0x21, 0xE1, 0xF8, 0xC3, 0x6C, 0x49, 0x5A, 0x93, 0xFC, 0x0C, 0x24, 0x7A, 0x3E, 0x6E, 0x5F)),
        UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)),
    ]

    /// `1` inside `depth` arrays.
    private static func nestedArrays(_ depth: Int) -> Any {
        var object: Any = 1
        for _ in 0..<depth { object = [object] }
        return object
    }

    /// How many arrays deep the innermost `1` is, or -1 when there is none.
    private static func depth(of object: Any) -> Int {
        var (object, depth) = (object, 0)
        while let elements = object as? [Any] {
            guard elements.count == 1 else { return -1 }
            (object, depth) = (elements[0], depth + 1)
        }
        return (object as? Int) == 1 ? depth : -1
    }

    /// A megabyte of every byte value in turn.
    private static var megabyteOfBytes: Data {
        Data((0..<1_048_576).map { UInt8(truncatingIfNeeded: $0) })
    }

    /// The same value in the same unit, not only an equal quantity.
    private static func sameMeasurement<Unit: Dimension>(_ a: Measurement<Unit>, _ b: Measurement<Unit>) -> Bool {
        a.value == b.value && a.unit.symbol == b.unit.symbol
            && a.unit.converter.baseUnitValue(fromValue: 1) == b.unit.converter.baseUnitValue(fromValue: 1)
    }

    /// Equal, or both NaN; the sign of zero is not compared (see the StoresAndDurability article's
    /// "The Linux facts").
    private static func sameFloatingPoint<F: FloatingPoint>(_ a: F, _ b: F) -> Bool {
        a == b || (a.isNaN && b.isNaN)
    }
}
