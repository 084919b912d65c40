import Foundation
import FuzzSupport

@testable import TypedDefaults
@testable import TypedDefaultsSchema

/// Published schema files: a schema that reads is written by the schema writer to text that
/// reads back as the same schema and writes the same text again; checking its own defaults,
/// range bounds and options against its keys never crashes.
@main enum SchemaTarget {
    static func main() { runFuzzer(fuzz) }
}

@_cdecl("LLVMFuzzerTestOneInput")
func fuzz(_ input: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let buffer = UnsafeBufferPointer(start: input, count: size)
    let bytes = Data(buffer)
    guard let schema = try? SchemaFile.schema(from: bytes) else { return 0 }
    let text = SchemaFile.text(schema)
    let again: DefaultsSchema
    do {
        again = try SchemaFile.schema(from: Data(text.utf8))
    } catch {
        violated("the schema writer's text does not read back", "\(error)\n\(text)")
    }
    require(SchemaFile.text(again) == text, "a schema reads back as another", text)
    require(again.keys.count == schema.keys.count, "a schema reads back with other keys", text)
    for (key, other) in zip(schema.keys, again.keys) {
        require(Array(key.name.utf8) == Array(other.name.utf8), "a key's name reads back otherwise", key.name)
        require(
            key.defaultValue.map { ExactValue($0) } == other.defaultValue.map { ExactValue($0) },
            "a key's default reads back otherwise", key.name)
        var samples = [key.defaultValue].compactMap { $0 }
        if let range = key.range { samples += [range.min, range.max, range.step] }
        samples += key.options?.map(\.value) ?? []
        for value in samples { _ = key.problem(with: value) }
        _ = schema[key.name]
    }
    return 0
}
