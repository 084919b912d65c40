import Foundation
import Testing

@testable import TypedDefaults

#if canImport(CoreGraphics)
    import CoreGraphics
#endif

/// How the other libraries read a stored object, by the rules of their sources.
enum OtherLibraryReaders {
    /// sindresorhus/Defaults' `Codable` bridge: the string wrapped in brackets and decoded as an
    /// array of one, as its 5 to 8 releases read; 9 decodes the text itself, which takes the
    /// same strings.
    static func defaultsCodable<Value: Decodable>(_ object: Any?, as type: Value.Type) -> Value? {
        guard let text = object as? String else { return nil }
        return (try? JSONDecoder().decode([Value].self, from: Data("[\(text)]".utf8)))?.first
    }

    /// The JSON `Data` Foil's and SwiftyUserDefaults' `Codable` values are read from.
    static func jsonData<Value: Decodable>(_ object: Any?, as type: Value.Type) -> Value? {
        guard let data = object as? Data else { return nil }
        return try? JSONDecoder().decode(Value.self, from: data)
    }
}

/// What the other library makes of what is written here, for a key both read during a move:
/// each row of the guide's table.
@Suite struct SharedKeysTests {
    private struct Layout: Codable, Equatable, DefaultsValueConvertible {
        var columns: Int
    }

    private enum Theme: String, Codable, DefaultsValueConvertible { case light, dark }
    private enum QuotedTheme: String, Codable, DefaultsPreferCodable { case light, dark }

    /// The object this library stores for `value`, as another library finds it in the suite.
    private func written<Value: DefaultsValueConvertible>(_ value: Value, fallback: Value) throws -> Any? {
        let suite = try TestSuite()
        UserDefault(wrappedValue: fallback, "key", store: suite.store).wrappedValue = value
        return try suite.flushedObject(forKey: "key")
    }

    @Test func defaultsReadsWhatItsBridgesShareWithThisLibrary() throws {
        typealias Read = OtherLibraryReaders
        let layout = Layout(columns: 3)
        #expect(Read.defaultsCodable(try written(layout, fallback: Layout(columns: 1)), as: Layout.self) == layout)
        #expect(
            try written(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!, fallback: UUID()) as? String
                == "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")
        #expect(try written(0..<10, fallback: 0..<1) as? [Int] == [0, 10])
        #expect(
            Read.defaultsCodable(try written(Decimal(string: "19.99")!, fallback: 0), as: Decimal.self)
                == Decimal(string: "19.99"))
        #expect(Read.defaultsCodable(try written(QuotedTheme.dark, fallback: .light), as: QuotedTheme.self) == .dark)
    }

    @Test func defaultsCannotReadWhatThisLibraryStoresOtherwise() throws {
        typealias Read = OtherLibraryReaders
        let url = URL(string: "https://swift.org/x")!
        #expect(Read.defaultsCodable(try written(url, fallback: URL(fileURLWithPath: "/")), as: URL.self) == nil)
        #expect(Read.defaultsCodable(try written(Theme.dark, fallback: .light), as: Theme.self) == nil)
        let size = CGSize(width: 600, height: 900)
        #expect(Read.defaultsCodable(try written(size, fallback: .zero), as: CGSize.self) == nil)
        #expect(Read.defaultsCodable(try written(Duration.seconds(2), fallback: .zero), as: Duration.self) == nil)
    }

    @Test func foilAndSwiftyUserDefaultsCannotReadACodableStringOrAURL() throws {
        let layout = Layout(columns: 3)
        #expect(OtherLibraryReaders.jsonData(try written(layout, fallback: Layout(columns: 1)), as: Layout.self) == nil)
        // A `UUID` and a range are Codable values to them, read from JSON `Data`.
        let id = UUID()
        #expect(OtherLibraryReaders.jsonData(try written(id, fallback: UUID()), as: UUID.self) == nil)
        #expect(OtherLibraryReaders.jsonData(try written(0..<10, fallback: 0..<1), as: Range<Int>.self) == nil)
        // They read a URL with `url(forKey:)`, which takes a stored string for a file path.
        let suite = try TestSuite()
        UserDefault(wrappedValue: URL(fileURLWithPath: "/"), "key", store: suite.store).wrappedValue =
            URL(string: "https://swift.org/x")!
        try suite.store.flush()
        #expect(suite.defaults.url(forKey: "key") != URL(string: "https://swift.org/x")!)
    }

    /// The guide's conversion that keeps Defaults' form, as a reader of its bridge finds it.
    private struct DefaultsForm<Value: Codable & Sendable>: DefaultsValueConvertible, Sendable {
        var value: Value
        init(_ value: Value) { self.value = value }
        init(defaultsRepresentation json: String) throws {
            value = try JSONDecoder().decode(Value.self, from: Data(json.utf8))
        }
        func defaultsRepresentation() throws -> String {
            String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
        }
    }

    /// The guide's conversion that keeps Foil's and SwiftyUserDefaults' form.
    private struct JSONDataForm<Value: Codable & Sendable>: DefaultsValueConvertible, Sendable {
        var value: Value
        init(_ value: Value) { self.value = value }
        init(defaultsRepresentation json: Data) throws { value = try JSONDecoder().decode(Value.self, from: json) }
        func defaultsRepresentation() throws -> Data { try JSONEncoder().encode(value) }
    }

    @Test func theGuidesConversionsWriteWhatTheOtherLibraryReads() throws {
        let url = URL(string: "https://swift.org/x")!
        let stored = try written(DefaultsForm(url), fallback: DefaultsForm(URL(fileURLWithPath: "/")))
        #expect(OtherLibraryReaders.defaultsCodable(stored, as: URL.self) == url)
        let size = CGSize(width: 600, height: 900)
        #expect(
            OtherLibraryReaders.defaultsCodable(
                try written(DefaultsForm(size), fallback: DefaultsForm(CGSize.zero)), as: CGSize.self) == size)
        let layout = Layout(columns: 3)
        let data = try written(JSONDataForm(layout), fallback: JSONDataForm(Layout(columns: 1)))
        #expect(OtherLibraryReaders.jsonData(data, as: Layout.self) == layout)
    }
}
