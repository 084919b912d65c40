import Foundation
import Testing

@testable import TypedDefaults
@testable import TypedDefaultsSchema

/// A `Codable` setting's JSON shape, from its default value, published in the schema
/// and checked before a value is stored.
@Suite struct JSONShapeTests {
    struct Layout: Codable, DefaultsValueConvertible, Sendable {
        struct Point: Codable, Sendable {
            var x = 1.5, y = 2.0
        }
        enum Mode: Codable, Sendable {
            case fixed(width: Int)
            case fill
        }
        var width = 800
        var origin = Point()
        var title: String? = "Main"
        var subtitle: String? = nil
        var tags = ["a", "b"]
        var empty: [Int] = []
        var scores: [String: Int] = ["ada": 1]
        var mode = Mode.fixed(width: 3)
    }

    static let shape: DefaultsSchema.JSONShape = .object([
        .init(name: "empty", shape: .array(of: .any), isOptional: false),
        .init(name: "mode", shape: .dictionary(of: .any), isOptional: false),
        .init(
            name: "origin",
            shape: .object([
                .init(name: "x", shape: .number, isOptional: false),
                .init(name: "y", shape: .number, isOptional: false),
            ]), isOptional: false),
        .init(name: "scores", shape: .dictionary(of: .number), isOptional: false),
        .init(name: "tags", shape: .array(of: .string), isOptional: false),
        .init(name: "title", shape: .string, isOptional: true),
        .init(name: "width", shape: .number, isOptional: false),
    ])

    @Test func theShapeComesFromTheDefaultAndItsSwiftType() throws {
        let key = DefaultsSchema.Key(
            DeclaredKey<Layout>(
                name: "layout", defaultValue: Layout(), formattedDefaultValue: "", title: "", info: "", range: nil,
                options: nil, store: .inMemory()))
        #expect(key.valueType == .json)
        #expect(key.jsonShape == Self.shape)
        #expect(
            "\(Self.shape)"
                == "object {empty: array, mode: object, origin: object {x: number, y: number}, scores: object of number, "
                + "tags: array of string, title?: string, width: number}")
    }

    @Test(
        arguments: [
            (#"{"width": 1}"#, "member empty (array) is missing"),
            (
                #"{"empty": [], "mode": {}, "origin": {"x": 1, "y": "2"}, "scores": {}, "tags": [], "width": 1}"#,
                "member origin.y should be a number, not the string \"2\""
            ),
            (
                #"{"empty": [], "mode": {}, "origin": {"x": 1, "y": 2}, "scores": {"b": true}, "tags": [], "width": 1}"#,
                "member scores.b should be a number, not true"
            ),
            (
                #"{"empty": [], "mode": {}, "origin": {"x": 1, "y": 2}, "scores": {}, "tags": ["x", 2], "width": 1}"#,
                "member tags[1] should be a string, not the number 2"
            ),
            (
                #"{"empty": [], "mode": "fill", "origin": {"x": 1, "y": 2}, "scores": {}, "tags": [], "width": 1}"#,
                "member mode should be an object, not the string \"fill\""
            ),
            (#"[1, 2]"#, "the value should be an object, not an array"),
            // Optional members may be missing or null; members the shape does not name are allowed.
            (
                #"{"empty": [true], "mode": {"fill": {}}, "origin": {"x": 1, "y": 2}, "scores": {}, "tags": [], "width": 1}"#,
                nil
            ),
            (
                #"{"empty": [], "mode": {}, "origin": {"x": 1, "y": 2}, "scores": {}, "tags": [], "width": 1, "title": null, "extra": 1}"#,
                nil
            ),
        ] as [(String, String?)])
    func aValueOfAnotherShapeIsRefusedNamingTheMember(json: String, problem: String?) {
        let key = DefaultsSchema.Key(
            name: "layout", swiftType: "Layout", valueType: .json, defaultValue: nil, formattedDefaultValue: "",
            jsonShape: Self.shape)
        #expect(key.problem(with: .string(json)) == problem)
    }

    /// Published and read back from the file exactly, beside the other members of a key.
    @Test func theShapeIsWrittenToTheSchemaFileAndReadBack() throws {
        let schema = DefaultsSchema(
            suite: "shapes",
            keys: [
                DefaultsSchema.Key(
                    name: "layout", swiftType: "Layout", valueType: .json, defaultValue: nil,
                    formattedDefaultValue: "", jsonShape: Self.shape),
                DefaultsSchema.Key(
                    name: "plain", swiftType: "Int", valueType: .integer(lowest: 0, highest: 9), defaultValue: nil,
                    formattedDefaultValue: ""),
            ])
        let text = SchemaFile.text(schema)
        #expect(text.contains(#""kind": "dictionary""#))
        #expect(try SchemaFile.schema(from: Data(text.utf8)) == schema)
        // A shape of an unknown kind is an error that says where.
        let unknown = text.replacingOccurrences(of: #""kind": "number""#, with: #""kind": "colour""#)
        #expect(throws: (any Error).self) { try SchemaFile.schema(from: Data(unknown.utf8)) }
    }

    /// A default whose members another version leaves out (`nil`) is no reason to refuse them:
    /// a member the default does not show is not in the shape.
    @Test func anOptionalKeyOfACodableValueHasAShapeToo() {
        let key = DefaultsSchema.Key(
            DeclaredKey<Layout?>(
                name: "layout", defaultValue: Layout(), formattedDefaultValue: "", title: "", info: "", range: nil,
                options: nil, store: .inMemory()))
        #expect(key.valueType == .optional(.json))
        #expect(key.jsonShape == Self.shape)
        #expect(key.problem(with: .string(#"{"width": 1}"#)) == "member empty (array) is missing")
    }
}
