import Foundation
import Testing

@testable import TypedDefaults

/// A refused write says so in the program's terms: the key, the type the program
/// wrote, where inside the value the problem is, and what is there; never an internal type.
@Suite struct RefusalMessageTests {
    static let tail =
        ", which a property list cannot hold (strings, numbers, booleans, dates, data, and arrays and "
        + "dictionaries of them, with string keys)"

    func refusal<Value: DefaultsValueConvertible>(_ value: Value, _ fallback: Value) throws -> String {
        let suite = try TestSuite()
        let property = UserDefault(wrappedValue: fallback, "prefs", store: suite.store)
        let (_, reported) = ReportedErrors.during { property.wrappedValue = value }
        #expect(reported.count == 1)
        #expect(!property.hasStoredValue, "nothing is written")
        return reported.first.map { "\($0)" } ?? ""
    }

    @Test func aDateKeyInAnNSDictionaryIsNamedWithItsPath() throws {
        let epoch = Date(timeIntervalSince1970: 0)
        let top = try refusal(NSDictionary(dictionary: [epoch: "x"]), NSDictionary())
        #expect(
            top == "value for key \"prefs\" cannot be encoded, nothing was written: the NSDictionary is stored as "
                + "a key of type Date (\(epoch)) in a dictionary" + Self.tail)
        let nested = try refusal(
            NSDictionary(dictionary: ["outer": NSDictionary(dictionary: [epoch: "x"])]), NSDictionary())
        #expect(
            nested == "value for key \"prefs\" cannot be encoded, nothing was written: the NSDictionary holds "
                + "a key of type Date (\(epoch)) in a dictionary at [\"outer\"]" + Self.tail)
        #expect(!nested.contains("Marker") && !nested.contains("__"))
    }

    @Test func anOutsiderInAnArrayIsNamedWithItsIndex() throws {
        let null = try refusal(NSArray(array: [1, "a", NSNull()]), NSArray())
        #expect(null.hasSuffix("the NSArray holds NSNull at [2]" + Self.tail), "\(null)")
        let uuid = try refusal(NSDictionary(dictionary: ["a": [1, UUID()] as [Any]]), NSDictionary())
        #expect(uuid.hasSuffix("the NSDictionary holds UUID at [\"a\"][1]" + Self.tail), "\(uuid)")
    }
}
