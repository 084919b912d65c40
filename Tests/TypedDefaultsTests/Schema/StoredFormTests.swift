import Foundation
import Testing
import TypedDefaultsSchema

@testable import TypedDefaults

/// A `Codable` value's JSON, written by a tool or a settings screen, is stored as the library
/// writes the value itself: equal values give equal bytes, whoever wrote them.
@Suite struct StoredFormTests {
    struct Window: Codable, DefaultsValueConvertible, Sendable, Equatable {
        var width = 800
        var height = 600
        var scale = 1.5
        var title = "a/b \u{E9} \"q\"\n"
        var tags = ["z", "a"]
        var origin: [String: Double] = ["y": 0.25, "x": 2]
        var note: String? = nil
    }

    static func written(_ window: Window) throws -> String {
        try window.defaultsRepresentation()
    }

    /// Text with members in any order, spaces, `2.0` for a whole `Double` and escapes of its
    /// own is stored as the library's own write of the value it decodes to.
    @Test func codableJSONIsStoredAsTheLibraryWritesIt() throws {
        let window = Window(width: 1280, height: 720, scale: 2, title: "a/b \u{E9}", tags: ["x"], origin: ["y": 1])
        let given =
            #"{ "title": "a\/b \u00e9", "origin": {"y": 1.0}, "tags": ["x"], "scale": 2.0, "height": 720, "width": 1280 }"#
        let stored = try DefaultsSchema.ValueType.json.storedForm(of: .string(given))
        #expect(stored == .string(try Self.written(window)))
        #expect(try Window(defaultsRepresentation: try #require(stored.value(as: String.self))) == window)
        // The library's own write is already in that form.
        let own = try Self.written(Window())
        #expect(try DefaultsSchema.ValueType.json.storedForm(of: .string(own)) == .string(own))
    }

    /// Inside an optional, an array or a dictionary; other values are left as they are.
    @Test func codableValuesInsideCollectionsToo() throws {
        let sorted = #"{"a":1,"b":2}"#
        let unsorted = DefaultsStoredValue.string(#"{"b": 2, "a": 1}"#)
        #expect(try DefaultsSchema.ValueType.optional(.json).storedForm(of: unsorted) == .string(sorted))
        #expect(
            try DefaultsSchema.ValueType.array(of: .json).storedForm(of: .array([unsorted, unsorted]))
                == .array([.string(sorted), .string(sorted)]))
        #expect(
            try DefaultsSchema.ValueType.dictionary(of: .json).storedForm(of: .dictionary(["k": unsorted]))
                == .dictionary(["k": .string(sorted)]))
        #expect(try DefaultsSchema.ValueType.string.storedForm(of: unsorted) == unsorted, "a plain string stays")
        #expect(try DefaultsSchema.ValueType.json.storedForm(of: .integer(3)) == .integer(3), "not of the type")
        let explicitNil = try DefaultsStoredValue(json: "null")
        #expect(try DefaultsSchema.ValueType.optional(.json).storedForm(of: explicitNil) == explicitNil)
    }

    /// Numbers: integers of 64 bits exactly, a `Double` where one holds the number exactly,
    /// else every digit, as a `Decimal` field keeps them.
    @Test(arguments: [
        ("18446744073709551615", "18446744073709551615"), ("-9223372036854775808", "-9223372036854775808"),
        ("1e2", "100"), ("0.1", "0.1"), ("1280.0", "1280"),
        ("0.10000000000000000001", "0.10000000000000000001"),
    ])
    func numbers(given: String, stored: String) throws {
        #expect(try DefaultsSchema.ValueType.json.storedForm(of: .string("[\(given)]")) == .string("[\(stored)]"))
    }

    /// Text that is not JSON, a member named twice, a number no `Decimal` holds: refused, naming
    /// what is wrong.
    @Test(arguments: [
        (#"{"width": 1"#, "is not JSON"),
        (#"{"width": 1, "width": 2}"#, #"the member "width" appears twice"#),
        ("{\"caf\u{E9}\": 1, \"cafe\u{301}\": 2}", "appears twice"),
        ("[1e999]", "1e999 is beyond the numbers a Codable value holds"),
    ])
    func badTextIsRefused(text: String, message: String) {
        #expect {
            try DefaultsSchema.ValueType.json.storedForm(of: .string(text))
        } throws: { error in
            "\(error)".contains(message)
        }
    }
}
