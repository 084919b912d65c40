import Foundation
import FuzzSupport

@testable import TypedDefaults
@testable import TypedDefaultsStorage

let suite = "dev.typeddefaults.fuzz-suite"
let store = Scratch.store(suite)
let suiteFile = store.fileURL!
let probe = DefaultsKey<Int>("fuzz.probe", default: 0)
nonisolated(unsafe) var writes = 0

/// Suite files: the bytes are written as a suite's file and a store opened on it. A file the
/// reader accepts reads as exactly its values, and a write keeps every other key exactly; a
/// read never changes the file; a file the store refuses is left byte for byte as it was by a
/// read and an edit, and a plain write keeps its bytes aside. A refused file costs the store's
/// reads and moves, so one refused input in 256 (by its bytes) goes to the store; every input
/// goes to the reader. The files are written at rest (dated a minute back), so the store reads
/// them without its wait for a writer halfway through one.
@main enum SuiteFileTarget {
    static func main() { runFuzzer(fuzz) }
}

@_cdecl("LLVMFuzzerTestOneInput")
func fuzz(_ input: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let buffer = UnsafeBufferPointer(start: input, count: size)
    let bytes = Data(buffer)
    let read = try? PropertyListReader.suiteContents(from: bytes)
    if let read {
        guard let exact = ExactValue(suite: read) else { violated("the reader returned no property list") }
        checkAccepted(bytes, exact)
    } else if sampled(bytes) {
        checkRefused(bytes)
    }
    return 0
}

/// One input in 256, chosen by its bytes (FNV-1a) so a rerun of the input does the same.
func sampled(_ bytes: Data) -> Bool {
    var hash: UInt32 = 2_166_136_261
    for byte in bytes { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
    return hash % 256 == 0
}

func checkAccepted(_ bytes: Data, _ exact: ExactValue) {
    Scratch.write(bytes, to: suiteFile)
    guard case .dictionary(let entries) = exact else { violated("a suite's contents are no dictionary") }
    let holdable = entries.allSatisfy { PropertyListChecks.depth(of: $0.value) < StoredObject.maximumNestingDepth }
    do {
        let values = try store.storedValues()
        require(ExactValue(values) == exact, "storedValues() reads other values than the reader", "\(exact)")
    } catch {
        require(!holdable, "storedValues() refuses a file the reader accepts", "\(error)")
    }
    require(Scratch.contents(suiteFile) == bytes, "a read changed the suite's file")
    writes += 1
    let expected = ExactValue.dictionary(
        (entries.filter { $0.key != Array("fuzz.probe".utf8) }
            + [ExactValue.Entry(key: Array("fuzz.probe".utf8), value: .integer(Int64(writes)))])
            .sorted { $0.key.lexicographicallyPrecedes($1.key) })
    do {
        try store.editStoredValues { $0["fuzz.probe"] = .integer(Int64(writes)) }
        require(holdable, "an edit wrote values deeper than a suite holds")
        requireFile(holds: expected, "an edit")
    } catch {
        require(!holdable, "an edit of a file the reader accepts failed", "\(error)")
        require(Scratch.contents(suiteFile) == bytes, "a refused edit changed the suite's file", "\(error)")
    }
    Scratch.write(bytes, to: suiteFile)
    writes += 1
    store[probe] = writes
    let afterWrite = ExactValue.dictionary(
        (entries.filter { $0.key != Array("fuzz.probe".utf8) }
            + [ExactValue.Entry(key: Array("fuzz.probe".utf8), value: .integer(Int64(writes)))])
            .sorted { $0.key.lexicographicallyPrecedes($1.key) })
    requireFile(holds: afterWrite, "a plain write")
}

/// The suite's file, read by the reader, holds `expected`.
func requireFile(holds expected: ExactValue, _ after: String) {
    guard let file = Scratch.contents(suiteFile) else { violated("\(after) removed the suite's file") }
    do {
        let contents = try PropertyListReader.suiteContents(from: file)
        require(
            ExactValue(suite: contents) == expected, "\(after) lost or changed other keys",
            "expected \(expected)\nfound \(ExactValue(suite: contents) as Any)")
    } catch {
        violated("\(after) wrote a file the reader refuses", "\(error)")
    }
}

func checkRefused(_ bytes: Data) {
    Scratch.write(bytes, to: suiteFile)
    let isBlank = bytes.allSatisfy { [0x20, 0x09, 0x0A, 0x0D].contains($0) }
    do {
        let values = try store.storedValues()
        require(isBlank && values.isEmpty, "storedValues() reads a file the reader refuses", "\(ExactValue(values))")
    } catch {
        require(!isBlank, "storedValues() refuses a blank file, an empty suite", "\(error)")
    }
    require(Scratch.contents(suiteFile) == bytes, "a read changed a refused suite file")
    if !isBlank {
        do {
            try store.editStoredValues { $0["fuzz.probe"] = .integer(1) }
            violated("an edit wrote over a file the reader refuses")
        } catch {
            require(Scratch.contents(suiteFile) == bytes, "a refused edit changed the suite's file", "\(error)")
        }
    }
    writes += 1
    store[probe] = writes
    requireFile(holds: .dictionary([.init(key: Array("fuzz.probe".utf8), value: .integer(Int64(writes)))]), "a write")
    let folder = suiteFile.deletingLastPathComponent()
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    let aside = names.filter { $0.hasPrefix(suiteFile.lastPathComponent + ".corrupt-") }
    if !isBlank {
        require(
            aside.contains { Scratch.contents(folder.appendingPathComponent($0)) == bytes },
            "a write over a refused file kept no copy of its bytes", "\(aside)")
    }
    for name in aside { try? FileManager.default.removeItem(at: folder.appendingPathComponent(name)) }
}
