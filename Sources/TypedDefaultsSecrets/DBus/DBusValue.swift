/// A value of the D-Bus type system: what the Secret Service's calls take, and anything a reply
/// may hold (a reply of another shape is refused, never trusted).
indirect enum DBusValue: Equatable, Sendable {
    case byte(UInt8)
    case boolean(Bool)
    case int16(Int16)
    case uint16(UInt16)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    case string(String)
    case objectPath(String)
    case signature(String)
    case unixFD(UInt32)
    case variant(DBusValue)
    /// The elements' single complete type, and the elements.
    case array(element: String, [DBusValue])
    case dictEntry(DBusValue, DBusValue)
    case structure([DBusValue])

    /// The value's type signature (`a{ss}`, `(oayays)`).
    var signature: String {
        switch self {
        case .byte: "y"
        case .boolean: "b"
        case .int16: "n"
        case .uint16: "q"
        case .int32: "i"
        case .uint32: "u"
        case .int64: "x"
        case .uint64: "t"
        case .double: "d"
        case .string: "s"
        case .objectPath: "o"
        case .signature: "g"
        case .unixFD: "h"
        case .variant: "v"
        case .array(let element, _): "a" + element
        case .dictEntry(let key, let value): "{" + key.signature + value.signature + "}"
        case .structure(let fields): "(" + fields.map(\.signature).joined() + ")"
        }
    }

    /// `bytes` as an `ay`.
    static func bytes(_ bytes: some Sequence<UInt8>) -> DBusValue {
        .array(element: "y", bytes.map(DBusValue.byte))
    }

    /// `entries` as an `a{ss}`, in key order so that the bytes are the same each time.
    static func stringDictionary(_ entries: [String: String]) -> DBusValue {
        .array(
            element: "{ss}",
            entries.sorted { $0.key < $1.key }.map { .dictEntry(.string($0.key), .string($0.value)) })
    }

    /// The bytes of an `ay`, or `nil` for any other value.
    var bytes: [UInt8]? {
        guard case .array("y", let elements) = self else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(elements.count)
        for element in elements {
            guard case .byte(let byte) = element else { return nil }
            bytes.append(byte)
        }
        return bytes
    }

    /// The paths of an `ao`, or `nil` for any other value.
    var objectPaths: [String]? {
        guard case .array("o", let elements) = self else { return nil }
        var paths: [String] = []
        for element in elements {
            guard case .objectPath(let path) = element else { return nil }
            paths.append(path)
        }
        return paths
    }

    var objectPath: String? {
        guard case .objectPath(let path) = self else { return nil }
        return path
    }
}

/// The single complete types of a signature, in order; throws for one that is malformed or
/// nests deeper than the specification allows (32 arrays and 32 structures).
enum DBusSignature {
    static let maximumLength = 255

    static func completeTypes(_ signature: String) throws(DBusWireError) -> [Substring] {
        guard signature.utf8.count <= maximumLength else { throw .malformed("a signature longer than 255 bytes") }
        var types: [Substring] = []
        var rest = Substring(signature)
        while !rest.isEmpty {
            let length = try completeTypeLength(rest, arrays: 0, structures: 0)
            types.append(rest.prefix(length))
            rest = rest.dropFirst(length)
        }
        return types
    }

    /// The length in characters of the complete type that `signature` starts with.
    private static func completeTypeLength(_ signature: Substring, arrays: Int, structures: Int) throws(DBusWireError)
        -> Int
    {
        guard let first = signature.first else { throw .malformed("a signature ends inside a type") }
        switch first {
        case "y", "b", "n", "q", "i", "u", "x", "t", "d", "s", "o", "g", "h", "v":
            return 1
        case "a":
            guard arrays < 32 else { throw .malformed("arrays nest more than 32 deep") }
            return 1 + (try completeTypeLength(signature.dropFirst(), arrays: arrays + 1, structures: structures))
        case "(":
            guard structures < 32 else { throw .malformed("structures nest more than 32 deep") }
            var length = 1
            var rest = signature.dropFirst()
            guard rest.first != ")" else { throw .malformed("an empty structure") }
            while rest.first != ")" {
                let field = try completeTypeLength(rest, arrays: arrays, structures: structures + 1)
                length += field
                rest = rest.dropFirst(field)
            }
            return length + 1
        case "{":
            guard structures < 32 else { throw .malformed("structures nest more than 32 deep") }
            let rest = signature.dropFirst()
            let key = try completeTypeLength(rest, arrays: arrays, structures: structures + 1)
            guard key == 1, rest.first != "v" else { throw .malformed("a dictionary key that is not a basic type") }
            let value = try completeTypeLength(rest.dropFirst(key), arrays: arrays, structures: structures + 1)
            guard rest.dropFirst(key + value).first == "}" else {
                throw .malformed("a dictionary entry of more than two")
            }
            return 1 + key + value + 1
        default:
            throw .malformed("the type code \(first)")
        }
    }

    /// The alignment of values of the type `code` starts.
    static func alignment(of code: Character) -> Int {
        switch code {
        case "n", "q": 2
        case "b", "i", "u", "h", "s", "o", "a": 4
        case "x", "t", "d", "(", "{": 8
        default: 1
        }
    }
}

/// Bytes on the bus that do not follow the specification.
enum DBusWireError: Error, Equatable {
    case malformed(String)
}
