import Foundation
import FuzzSupport
import TypedDefaultsToolSupport

@testable import TypedDefaults
@testable import TypedDefaultsSchema

/// The suite imported into: it holds values before each input, written by the library.
let suite = "dev.typeddefaults.fuzz-import"
let store = Scratch.store(suite)
let suiteFile = store.fileURL!
let before: Data = {
    let values: [DefaultsStoredKey: DefaultsStoredValue] = [
        "caf\u{E9}": .string("caf\u{E9}"), "cafe\u{301}": .string("cafe\u{301}"), "count": .integer(7),
        "ratio": .real(0.0), "when": .date(Date(timeIntervalSinceReferenceDate: 0.5)), "blob": .data(Data([0, 1])),
        "list": .array([.boolean(true), .string("\r\n")]), "nested": .dictionary(["a": .integer(-1)]),
    ]
    return DefaultsStoredValue.dictionary(values).propertyListData()
}()

/// The tool's import (`ImportFile.values(in:)`, then one edit of the suite, as
/// `typed-defaults import` makes it): a file that imports reads back the same from its export
/// form, and the suite then stores exactly its values; a refused file, or a refused edit,
/// leaves the suite's file byte for byte as it was.
@main enum ImportTarget {
    static func main() { runFuzzer(fuzz) }
}

@_cdecl("LLVMFuzzerTestOneInput")
func fuzz(_ input: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let buffer = UnsafeBufferPointer(start: input, count: size)
    let bytes = Data(buffer)
    Scratch.write(before, to: suiteFile)
    guard let values = try? ImportFile.values(in: bytes) else {
        require(Scratch.contents(suiteFile) == before, "a refused import changed the suite's file")
        return 0
    }
    let exact = ExactValue(values, nans: .alike)
    for pretty in [false, true] {
        let json = ExportFile.json(values, pretty: pretty)
        do {
            let back = try ImportFile.values(in: Data(json.utf8))
            require(ExactValue(back, nans: .alike) == exact, "the export form imports as other values", json)
        } catch {
            violated("the export form does not import", "\(error)\n\(json)")
        }
    }
    do {
        try store.editStoredValues { stored in
            stored.removeAll()
            stored.merge(values) { _, new in new }
        }
    } catch {
        require(Scratch.contents(suiteFile) == before, "a refused edit changed the suite's file", "\(error)")
        return 0
    }
    do {
        let stored = try store.storedValues()
        require(
            ExactValue(stored) == ExactValue(values), "the suite stores other values than were imported",
            "\(ExactValue(values))\nstored\n\(ExactValue(stored))")
    } catch {
        violated("the suite does not read after an import", "\(error)")
    }
    return 0
}
