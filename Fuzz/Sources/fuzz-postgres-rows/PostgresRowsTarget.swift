import Foundation
import FuzzSupport
import TypedDefaults

@testable import TypedDefaultsPostgres

/// PostgreSQL rows: the input is `key NUL value NUL key NUL value…` (PostgreSQL's `text` never
/// holds NUL, so every set of rows a server can return is one input). Rows that read are
/// written back as the backend writes them, and read back as the same values and the same text;
/// a refusal names a key of the rows.
@main enum PostgresRowsTarget {
    static func main() { runFuzzer(fuzz) }
}

@_cdecl("LLVMFuzzerTestOneInput")
func fuzz(_ input: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let buffer = UnsafeBufferPointer(start: input, count: size)
    let parts = buffer.split(separator: 0, omittingEmptySubsequences: false)
        .map { String(decoding: $0, as: UTF8.self) }
    let rows = stride(from: 0, to: parts.count - 1, by: 2).map { (key: parts[$0], value: parts[$0 + 1]) }
    let values: [DefaultsStoredKey: DefaultsStoredValue]
    do {
        values = try PostgresRows.values(rows)
    } catch {
        require(rows.contains { $0.key == error.key }, "a refused row is named by a key it does not have", error.key)
        return 0
    }
    let exact = ExactValue(values, nans: .alike)
    let written = values.map { (key: $0.key.name, value: PostgresRows.text($0.value)) }
    do {
        let back = try PostgresRows.values(written)
        require(ExactValue(back, nans: .alike) == exact, "written rows read back as other values", "\(exact)")
        for (key, value) in back {
            require(
                PostgresRows.text(value) == written.first { DefaultsStoredKey($0.key) == key }?.value,
                "a value's row text is not stable", key.debugDescription)
        }
    } catch {
        violated("the backend's own rows do not read back", "\(error)")
    }
    return 0
}
