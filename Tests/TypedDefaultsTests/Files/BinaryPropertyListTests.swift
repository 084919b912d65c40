import Foundation
import Testing

@testable import TypedDefaults
@testable import TypedDefaultsStorage

/// The suite file's writer: whatever it writes, CoreFoundation's parser reads back as exactly
/// the same values.
@Suite struct BinaryPropertyListTests {
    static var samples: [String: Any] {
        [
            "string": "plain",
            "escapes": "a & b < c > d ]]> \"quoted\" 'single'",
            "control": "nul \u{0} one \u{1} tab \t cr \r lf \n crlf \r\n del \u{7F} end",
            "unicode": "é 🙂 👩‍👩‍👧 \u{FFFD} \u{10FFFF}",
            "empty string": "",
            "long ascii": String(repeating: "x", count: 70_000),
            "true": true, "false": false,
            "int": 42, "negative": -7, "int64 min": Int64.min, "int64 max": Int64.max, "uint64 max": UInt64.max,
            "byte": 255, "short": 65_535, "word": 4_294_967_295,
            "double": 0.1, "tiny": Double.leastNonzeroMagnitude, "huge": Double.greatestFiniteMagnitude,
            "third": 1.0 / 3, "negative zero": -0.0, "infinity": Double.infinity, "minus infinity": -Double.infinity,
            "nan": Double.nan, "float": Float(0.1),
            "data": Data((0..<200).map { UInt8($0) }), "empty data": Data(),
            "date": Date(timeIntervalSinceReferenceDate: 800_000_000.125),
            "array": [1, "two", [3.5, ["four": [Data([5])]]]] as [Any], "empty array": [Any](),
            "long array": Array(0..<300),
            "dictionary": ["nested": ["deeper": true], "k&<>": "v"] as [String: Any],
            "empty dictionary": [String: Any](),
            "key & <with> markup": 1,
        ]
    }

    static func exact(_ values: [String: Any]) -> [DefaultsStoredKey: StoredObject] {
        Dictionary(uniqueKeysWithValues: values.map { (DefaultsStoredKey($0.key), StoredObject($0.value)) })
    }

    func parse(_ data: Data) throws -> [String: Any] {
        try #require(PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
    }

    @Test func everyKindOfValueReadsBackExactly() throws {
        let written = try BinaryPropertyList.data(Self.exact(Self.samples))
        #expect(written.starts(with: Array("bplist00".utf8)))
        let parsed = try parse(written)
        #expect(Set(parsed.keys) == Set(Self.samples.keys))
        for (key, value) in Self.samples where key != "float" {
            #expect(StoredObject.same(value, parsed[key] as Any), "\(key): \(String(describing: parsed[key]))")
        }
        #expect((parsed["float"] as? NSNumber)?.doubleValue == Double(Float(0.1)))
        #expect((parsed["negative zero"] as? NSNumber)?.doubleValue.sign == .minus, "-0.0 keeps its sign")
        #expect((parsed["control"] as? String) == (Self.samples["control"] as? String), "control characters and CR LF")
        #expect(
            (parsed["date"] as? Date)?.timeIntervalSinceReferenceDate == 800_000_000.125, "a date keeps its fraction")
    }

    /// Every date the parser accepts comes back exactly, over years −9999…9999 (the XML writer
    /// once wrote years −99…−1 as `0-28-…`, which no parser reads) and the distant dates.
    @Test func datesOverTheWholeRangeReadBackExactly() throws {
        let year = 365.2425 * 86_400
        var dates = stride(from: -12_000.0, through: 8_000.0, by: 0.37).map {
            Date(timeIntervalSinceReferenceDate: $0 * year)
        }
        dates += [
            .distantPast, .distantFuture, Date(timeIntervalSinceReferenceDate: -0.5),
            Date(timeIntervalSinceReferenceDate: 1e-9),
        ]
        // Years -99…-1, as corelibs writes them: `-028-12-03T06:13:20Z`.
        dates += stride(from: -2_100.0, through: -2_000.0, by: 0.5).map {
            Date(timeIntervalSinceReferenceDate: $0 * year)
        }
        let contents = Dictionary(
            uniqueKeysWithValues: dates.enumerated().map {
                (DefaultsStoredKey("\($0.offset)"), StoredObject($0.element))
            })
        let parsed = try parse(try BinaryPropertyList.data(contents))
        let wrong = dates.enumerated().filter { (parsed["\($0.offset)"] as? Date) != $0.element }
        #expect(
            wrong.isEmpty, "\(wrong.count) of \(dates.count) differ, first \(wrong.first.map { "\($0.element)" } ?? "")"
        )
    }

    @Test func theSameContentsGiveTheSameBytes() throws {
        let first = try BinaryPropertyList.data(["b": StoredObject(1), "a": StoredObject(["y": 2, "x": 3])])
        let second = try BinaryPropertyList.data(["a": StoredObject(["x": 3, "y": 2]), "b": StoredObject(1)])
        #expect(first == second)
    }

    /// 70,000 objects need references of three bytes or more, and offsets past 65,535.
    @Test func largeSuitesUseWideReferences() throws {
        let contents = Dictionary(
            uniqueKeysWithValues: (0..<35_000).map { (DefaultsStoredKey("key \($0)"), StoredObject($0)) })
        let parsed = try parse(try BinaryPropertyList.data(contents))
        #expect(parsed.count == 35_000)
        #expect((parsed["key 34999"] as? NSNumber)?.intValue == 34_999)
    }

    @Test func aValueThatIsNoPropertyListThrows() {
        #expect(throws: NotAPropertyList.self) {
            try BinaryPropertyList.data(["url": StoredObject(URL(fileURLWithPath: "/"))])
        }
        #expect(throws: NotAPropertyList.self) {
            try BinaryPropertyList.data(["nested": StoredObject([UUID()])])
        }
    }
}
