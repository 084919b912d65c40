import Foundation
import Testing

@testable import TypedDefaults

/// The suite file's writer: whatever it writes, CoreFoundation's parser reads back as the same
/// values.
@Suite struct PropertyListXMLTests {
    static var samples: [String: Any] {
        [
            "string": "plain",
            "escapes": "a & b < c > d ]]> \"quoted\" 'single'",
            "control": "nul \u{0} one \u{1} tab \t cr \r lf \n del \u{7F} end",
            "unicode": "é 🙂 👩‍👩‍👧 \u{FFFD} \u{10FFFF}",
            "empty string": "",
            "true": true, "false": false,
            "int": 42, "negative": -7, "int64 min": Int64.min, "int64 max": Int64.max, "uint64 max": UInt64.max,
            "double": 0.1, "tiny": 5e-324, "huge": Double.greatestFiniteMagnitude, "third": 1.0 / 3,
            "negative zero": -0.0, "infinity": Double.infinity, "minus infinity": -Double.infinity, "nan": Double.nan,
            "float": Float(0.1),
            "data": Data((0..<200).map { UInt8($0) }), "empty data": Data(),
            "date": Date(timeIntervalSinceReferenceDate: 800_000_000),
            "array": [1, "two", [3.5, ["four": [Data([5])]]]] as [Any], "empty array": [Any](),
            "dictionary": ["nested": ["deeper": true], "k&<>": "v"] as [String: Any],
            "empty dictionary": [String: Any](),
            "key & <with> markup": 1,
        ]
    }

    func parse(_ data: Data) throws -> [String: Any] {
        try #require(PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
    }

    @Test func everyKindOfValueReadsBackTheSame() throws {
        let written = try PropertyListXML.data(Self.samples.mapValues(PropertyList.init))
        let parsed = try parse(written)
        #expect(Set(parsed.keys) == Set(Self.samples.keys))
        for (key, value) in Self.samples where key != "float" {
            #expect(PropertyList.same(value, parsed[key] as Any), "\(key): \(String(describing: parsed[key]))")
        }
        #expect((parsed["float"] as? NSNumber)?.doubleValue == Double(Float(0.1)))
        #expect((parsed["negative zero"] as? NSNumber)?.doubleValue.sign == .minus, "-0.0 keeps its sign")
        #expect((parsed["tiny"] as? NSNumber)?.doubleValue == 5e-324)
    }

    @Test func datesAreWrittenAsCoreFoundationWritesThem() throws {
        let dates = [
            0, 12.75, -0.5, -1, 1_234_567_890.125, -978_307_200, 4_000_000_000, -63_113_904_000,
        ].map(Date.init(timeIntervalSinceReferenceDate:))
        for date in dates {
            let ours = String(decoding: try PropertyListXML.data(["d": PropertyList(date)]), as: UTF8.self)
            let theirs = String(
                decoding: try PropertyListSerialization.data(fromPropertyList: ["d": date], format: .xml, options: 0),
                as: UTF8.self)
            let element = { (text: String) in text.split(separator: "\n").first { $0.contains("<date>") } }
            #expect(element(ours) == element(theirs), "\(date.timeIntervalSinceReferenceDate)")
            #expect(try (parse(Data(ours.utf8))["d"] as? Date) == (parse(Data(theirs.utf8))["d"] as? Date))
        }
    }

    @Test func keysAreSortedAndTheDocumentIsAPlist() throws {
        let text = String(
            decoding: try PropertyListXML.data(["b": PropertyList(1), "a": PropertyList(2)]), as: UTF8.self)
        #expect(text.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE plist"))
        let a = try #require(text.range(of: "<key>a</key>"))
        let b = try #require(text.range(of: "<key>b</key>"))
        #expect(a.lowerBound < b.lowerBound)
        #expect(text.hasSuffix("</dict>\n</plist>\n"))
    }

    @Test func aValueThatIsNoPropertyListThrows() {
        #expect(throws: PropertyListXML.NotAPropertyList.self) {
            try PropertyListXML.data(["url": PropertyList(URL(fileURLWithPath: "/"))])
        }
        #expect(throws: PropertyListXML.NotAPropertyList.self) {
            try PropertyListXML.data(["nested": PropertyList([UUID()])])
        }
    }
}
