import Foundation
import Testing
import TypedDefaults
import TypedDefaultsSchema

struct ToolTestWindow: Codable, DefaultsValueConvertible, Sendable, Equatable {
    var width = 800
    var height = 600
    var scale = 1.0
    var title = "Main"
}

/// A program with `Codable` settings, one of them optional, published as its schema.
struct ToolTestWindowSettings: SettingsCatalog {
    @Setting var layout: ToolTestWindow
    @Setting var last: ToolTestWindow?

    init(store: DefaultsStore) {
        _layout = Setting(wrappedValue: ToolTestWindow(), "layout", title: "Layout", store: store)
        _last = Setting(wrappedValue: ToolTestWindow(), "last", title: "Last", store: store)
    }
}

/// `write` stores a `Codable` value's JSON as the program itself stores the value: members
/// sorted, numbers and strings as `JSONEncoder` writes them, so that equal values give equal
/// bytes whoever wrote them.
@Suite struct CodableWriteTests {
    static let layout = ToolTestWindow(width: 1280, height: 720, scale: 2, title: "a/b")
    static let given = #"{"width": 1280, "height": 720, "scale": 2.0, "title": "a/b"}"#

    /// What the program stores for `layout`: its own write, in a suite of its own.
    static func programsBytes() throws -> DefaultsStoredValue? {
        let (_, store) = try Tool.suite("programsBytes")
        ToolTestWindowSettings(store: store).layout = layout
        return try store.storedValues()["layout"]
    }

    @Test(arguments: [
        [Self.given],  // as the schema's type
        ["--json", Self.given],  // the value's own JSON
        ["--json", DefaultsStoredValue.string(Self.given).json()],  // the stored string's JSON form
    ])
    func aCodableSettingIsStoredAsTheProgramStoresIt(value: [String]) async throws {
        let (suite, store) = try Tool.suite()
        _ = try DefaultsSchema.publish(ToolTestWindowSettings(store: store))
        let written = try await Tool.run(["write", suite, "layout"] + value)
        #expect(written.status == 0, "\(written.errors)")
        let stored = try store.storedValues()["layout"]
        #expect(stored == (try Self.programsBytes()), "stored: \(String(describing: stored))")
        #expect(stored == .string(#"{"height":720,"scale":2,"title":"a\/b","width":1280}"#))
        store.refresh()
        #expect(ToolTestWindowSettings(store: store).layout == Self.layout)
    }

    /// The same for an optional one, and under a key with no schema that holds a `Codable` value.
    @Test func anOptionalOneAndOneWithoutASchema() async throws {
        let (suite, store) = try Tool.suite()
        _ = try DefaultsSchema.publish(ToolTestWindowSettings(store: store))
        let program = try #require(try Self.programsBytes())
        let optional = try await Tool.run("write", suite, "last", Self.given)
        #expect(optional.status == 0, "\(optional.errors)")
        #expect(try store.storedValues()["last"] == program)

        let (plain, plainStore) = try Tool.suite("plain")
        ToolTestWindowSettings(store: plainStore).layout = ToolTestWindow()
        let written = try await Tool.run("write", plain, "layout", Self.given)
        #expect(written.status == 0, "\(written.errors)")
        #expect(try plainStore.storedValues()["layout"] == program, "a key holding JSON keeps the program's form")
    }

    /// A member named twice has no one value to store: refused, nothing written.
    @Test func aMemberNamedTwiceIsRefused() async throws {
        let (suite, store) = try Tool.suite()
        _ = try DefaultsSchema.publish(ToolTestWindowSettings(store: store))
        let written = try await Tool.run(
            "write", suite, "layout", #"{"width": 1, "width": 2, "height": 3, "scale": 1, "title": ""}"#)
        #expect(written.status == 1)
        #expect(
            written.errors
                == #"typed-defaults: cannot write layout: the member "width" appears twice; nothing was written"#
                + "\n")
        #expect(try store.storedValues()["layout"] == nil)
    }
}
