import TypedDefaults

extension DefaultsSchema {
    /// The JSON a `Codable` setting is stored as: its members and their JSON types, as its
    /// default value shows them. A schema publishes it for a key whose ``ValueType`` is
    /// ``ValueType/json``, so a tool or a settings page can refuse, before it is stored, a value
    /// the program would read as its default (a member missing, or of another type):
    ///
    /// ```swift
    /// struct WindowLayout: Codable, DefaultsValueConvertible {
    ///     var width = 800, height = 600
    ///     var title: String? = nil
    /// }
    /// // object {width: number, height: number}; title may be missing or null
    /// ```
    ///
    /// What the default cannot show is left open: a member that is `nil` in the default, the
    /// elements of an empty array, the keys of a dictionary, an enum with associated values
    /// (each case has members of its own). Members the shape does not name are allowed, as
    /// `Decodable` ignores them.
    public indirect enum JSONShape: Sendable, Hashable, CustomStringConvertible {
        /// Any JSON value.
        case any
        case string
        case number
        case boolean
        case array(of: JSONShape)
        /// A Swift dictionary: an object with any keys, each value of the shape given.
        case dictionary(of: JSONShape)
        /// A struct or class: an object with these members.
        case object([Member])

        /// A member of an ``object(_:)``.
        public struct Member: Sendable, Hashable {
            public var name: String
            public var shape: JSONShape
            /// Whether it may be missing or `null`: an optional property.
            public var isOptional: Bool

            /// A member: its name, its shape, and whether it may be missing.
            ///
            /// - Parameters:
            ///   - name: the member's name in the JSON object.
            ///   - shape: the JSON its value must have.
            ///   - isOptional: whether it may be missing or `null`, as an optional property may.
            public init(name: String, shape: JSONShape, isOptional: Bool) {
                self.name = name
                self.shape = shape
                self.isOptional = isOptional
            }
        }

        public var description: String {
            switch self {
            case .any: "any value"
            case .string: "string"
            case .number: "number"
            case .boolean: "boolean"
            case .array(let element): element == .any ? "array" : "array of \(element)"
            case .dictionary(let value): value == .any ? "object" : "object of \(value)"
            case .object(let members):
                "object {"
                    + members.map { "\($0.name)\($0.isOptional ? "?" : ""): \($0.shape)" }.joined(separator: ", ") + "}"
            }
        }

        /// Why the JSON text `text` does not have this shape, naming the member (`origin.x`), or
        /// `nil` when it has.
        public func problem(withJSON text: String) -> String? {
            guard let json = try? JSONText.parse(text) else { return nil }  // the value type's check says why
            return problem(with: json, at: "")
        }

        func problem(with json: JSONText.Value, at path: String) -> String? {
            let named = path.isEmpty ? "the value" : "member \(path)"
            switch (self, json) {
            case (.any, _), (.string, .string), (.number, .number), (.boolean, .bool):
                return nil
            case (.array(let element), .array(let elements)):
                for (index, item) in elements.enumerated() {
                    if let problem = element.problem(with: item, at: "\(path)[\(index)]") { return problem }
                }
                return nil
            case (.dictionary(let value), .object(let members)):
                for member in members {
                    if let problem = value.problem(with: member.value, at: Self.joined(path, member.key)) {
                        return problem
                    }
                }
                return nil
            case (.object(let expected), .object(let members)):
                for member in expected {
                    let path = Self.joined(path, member.name)
                    // Keys compared as stored: by their scalars.
                    let found = members.first { DefaultsStoredKey($0.key) == DefaultsStoredKey(member.name) }
                    guard let found else {
                        if member.isOptional { continue }
                        return "member \(path) (\(member.shape)) is missing"
                    }
                    if member.isOptional, case .null = found.value { continue }
                    if let problem = member.shape.problem(with: found.value, at: path) { return problem }
                }
                return nil
            default:
                return "\(named) should be \(Self.article(self)), not \(Self.describe(json))"
            }
        }

        private static func joined(_ path: String, _ name: String) -> String {
            path.isEmpty ? name : "\(path).\(name)"
        }

        private static func article(_ shape: JSONShape) -> String {
            switch shape {
            case .array, .any: "an \(shape)"
            case .object, .dictionary: "an object"
            default: "a \(shape)"
            }
        }

        private static func describe(_ json: JSONText.Value) -> String {
            switch json {
            case .object: "an object"
            case .array: "an array"
            case .string(let text): "the string \(String(reflecting: text))"
            case .number(let text, _): "the number \(text)"
            case .bool(let flag): "\(flag)"
            case .null: "null"
            }
        }
    }
}

extension DefaultsSchema.JSONShape {
    /// The shape of the JSON `text` a value encodes to, with `value` (reflected) telling a
    /// struct from a dictionary, and an optional property from a required one.
    init?(json text: String, of value: Any) {
        guard let json = try? JSONText.parse(text) else { return nil }
        self = Self.shape(of: json, value: value)
    }

    private static func shape(of json: JSONText.Value, value: Any?) -> Self {
        let mirror = value.map { Mirror(reflecting: unwrapped($0)) }
        switch json {
        case .null: return .any
        case .string: return .string
        case .number: return .number
        case .bool: return .boolean
        case .array(let elements):
            let children = mirror.map { Array($0.children.map(\.value)) } ?? []
            let shapes = elements.enumerated().map { index, element in
                shape(of: element, value: children.count == elements.count ? children[index] : nil)
            }
            return .array(of: common(shapes))
        case .object(let members):
            switch mirror?.displayStyle {
            case .dictionary?:
                return .dictionary(of: common(members.map { shape(of: $0.value, value: nil) }))
            case .struct?, .class?:
                let children = mirror.map { Array($0.children) } ?? []
                return .object(
                    members.map { member in
                        // A property wrapper's storage is `_name`.
                        let child = children.first { $0.label == member.key || $0.label == "_" + member.key }
                        let isOptional = child.map { Mirror(reflecting: $0.value).displayStyle == .optional } ?? false
                        return Member(
                            name: member.key, shape: shape(of: member.value, value: child?.value),
                            isOptional: isOptional)
                    })
            default:
                // An enum's case, a type encoded by hand: its members may differ from the default's.
                return .dictionary(of: .any)
            }
        }
    }

    /// The value an optional holds, through every level of optional.
    private static func unwrapped(_ value: Any) -> Any {
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .optional, let wrapped = mirror.children.first?.value else { return value }
        return unwrapped(wrapped)
    }

    /// The shape all of `shapes` have, or ``any`` when they differ or there are none.
    private static func common(_ shapes: [Self]) -> Self {
        guard let first = shapes.first, shapes.allSatisfy({ $0 == first }) else { return .any }
        return first
    }
}
