import Foundation
import Testing

@testable import TypedDefaults

/// Foundation's property-list classes are one family, each stored exactly as its Swift
/// counterpart is, so that a suite reads the same whichever of the two a program declared.
@Suite struct PropertyListClassTests {
    /// What the store wrote for a Swift value under one key and for the class under another.
    private func flushedPair<Swift: DefaultsValueConvertible, Class: DefaultsPropertyListClass>(
        _ swift: Swift, _ object: Class, in suite: TestSuite
    ) throws -> (swift: Any?, object: Any?) {
        UserDefault(wrappedValue: swift, "swift", store: suite.store).wrappedValue = swift
        UserDefault(wrappedValue: object, "object", store: suite.store).wrappedValue = object
        return (try suite.flushedObject(forKey: "swift"), try suite.flushedObject(forKey: "object"))
    }

    @Test func eachClassIsStoredAsItsSwiftCounterpart() throws {
        let date = Date(timeIntervalSinceReferenceDate: 12.25)
        let url = try #require(URL(string: "https://example.com/a?b=c"))
        let bytes = Data([0, 1, 2, 255])
        let suite = try TestSuite()
        var pair = try flushedPair("héllo", NSString(string: "héllo"), in: suite)
        #expect(pair.swift as? String == "héllo" && pair.object as? String == "héllo")
        pair = try flushedPair(date, NSDate(timeIntervalSinceReferenceDate: 12.25), in: suite)
        #expect(StoredObject.same(pair.swift.map(StoredObject.init), pair.object.map(StoredObject.init)))
        pair = try flushedPair(bytes, NSData(data: bytes), in: suite)
        #expect(pair.object as? Data == bytes)
        pair = try flushedPair(url, url as NSURL, in: suite)
        #expect(pair.object as? String == url.absoluteString && pair.swift as? String == url.absoluteString)
        pair = try flushedPair(7, NSNumber(value: 7), in: suite)
        #expect(pair.object as? Int == 7)
        pair = try flushedPair(["a", "b"], NSArray(array: ["a", "b"]), in: suite)
        #expect(pair.object as? [String] == ["a", "b"])
        pair = try flushedPair(["max": 10], NSDictionary(dictionary: ["max": 10]), in: suite)
        #expect((pair.object as? [String: Any])?["max"] as? Int == 10)
    }

    @Test func eachClassReadsWhatItsSwiftCounterpartWrote() throws {
        let suite = try TestSuite()
        let date = Date(timeIntervalSinceReferenceDate: 99.5)
        UserDefault(wrappedValue: "", "string", store: suite.store).wrappedValue = "text"
        UserDefault(wrappedValue: Date.distantPast, "date", store: suite.store).wrappedValue = date
        UserDefault(wrappedValue: Data(), "data", store: suite.store).wrappedValue = Data([9])
        try suite.store.flush()
        #expect(UserDefault(wrappedValue: NSString(), "string", store: suite.store).wrappedValue == "text")
        #expect(
            UserDefault(wrappedValue: NSDate.distantPast as NSDate, "date", store: suite.store).wrappedValue
                .timeIntervalSinceReferenceDate == 99.5)
        #expect(UserDefault(wrappedValue: NSData(), "data", store: suite.store).wrappedValue == NSData(data: Data([9])))
    }

    /// A value of another kind reads as the default, reported as a mismatch, and the stored value
    /// stays.
    @Test func anotherKindIsAMismatch() throws {
        let suite = try TestSuite()
        suite.plant(42, forKey: "number")
        let (read, errors) = ReportedErrors.during {
            UserDefault(wrappedValue: NSString(string: "default"), "number", store: suite.store).wrappedValue
        }
        #expect(read == "default")
        #expect(errors.contains { if case .typeMismatch(key: "number", _, _) = $0 { true } else { false } })
        #expect(try suite.flushedObject(forKey: "number") as? Int == 42)
    }
}
