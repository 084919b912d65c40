import TypedDefaults

/// A `Codable` key's JSON shape in the schema file:
///
/// ```json
/// "jsonShape": {"kind": "object", "members": [
///     {"name": "width", "shape": {"kind": "number"}},
///     {"name": "title", "shape": {"kind": "string"}, "optional": true}
/// ]}
/// ```
///
/// Kinds: `any`, `string`, `number`, `boolean`, `array` (with `element`), `dictionary` (with
/// `value`) and `object` (with `members`).
extension SchemaFile {
    static func json(_ shape: DefaultsSchema.JSONShape) -> JSONText.Value {
        func kind(_ name: String, _ more: JSONText.Member...) -> JSONText.Value {
            .object([.init("kind", .string(name))] + more)
        }
        switch shape {
        case .any: return kind("any")
        case .string: return kind("string")
        case .number: return kind("number")
        case .boolean: return kind("boolean")
        case .array(let element): return kind("array", .init("element", json(element)))
        case .dictionary(let value): return kind("dictionary", .init("value", json(value)))
        case .object(let members):
            return kind(
                "object",
                .init(
                    "members",
                    .array(
                        members.map { member in
                            var fields: [JSONText.Member] = [
                                .init("name", .string(member.name)), .init("shape", json(member.shape)),
                            ]
                            if member.isOptional { fields.append(.init("optional", .bool(true))) }
                            return .object(fields)
                        })))
        }
    }

    static func shape(from json: JSONText.Value, at path: String) throws -> DefaultsSchema.JSONShape {
        guard case .object(let members) = json else { throw Problem(description: "\(path) is not an object") }
        func member(_ name: String) -> JSONText.Value? { members.first { $0.key == name }?.value }
        func nested(_ name: String) throws -> DefaultsSchema.JSONShape {
            guard let value = member(name) else { throw Problem(description: "\(path) has no \(name)") }
            return try shape(from: value, at: "\(path).\(name)")
        }
        guard case .string(let kind)? = member("kind") else { throw Problem(description: "\(path) has no kind") }
        switch kind {
        case "any": return .any
        case "string": return .string
        case "number": return .number
        case "boolean": return .boolean
        case "array": return .array(of: try nested("element"))
        case "dictionary": return .dictionary(of: try nested("value"))
        case "object":
            guard case .array(let entries)? = member("members") else {
                throw Problem(description: "\(path).members is not an array")
            }
            return .object(
                try entries.enumerated().map { index, entry in
                    let at = "\(path).members[\(index)]"
                    guard case .object(let fields) = entry,
                        case .string(let name)? = fields.first(where: { $0.key == "name" })?.value,
                        let shape = fields.first(where: { $0.key == "shape" })?.value
                    else { throw Problem(description: "\(at) needs a name and a shape") }
                    let isOptional: Bool
                    switch fields.first(where: { $0.key == "optional" })?.value {
                    case nil: isOptional = false
                    case .bool(let flag)?: isOptional = flag
                    default: throw Problem(description: "\(at).optional is not a boolean")
                    }
                    return .init(
                        name: name, shape: try self.shape(from: shape, at: "\(at).shape"), isOptional: isOptional)
                })
        case let other:
            throw Problem(description: "\(path): unknown shape kind \(String(reflecting: other))")
        }
    }
}
