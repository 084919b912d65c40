import Foundation
import FuzzSupport

@testable import TypedDefaults
@testable import TypedDefaultsStorage

/// The binary property-list reader (`bplist00`): what it reads survives the writer and reads
/// back the same; the dispatcher picks it for the same bytes and reads the same values.
@main enum BinaryPlistTarget {
    static func main() { runFuzzer(fuzz) }
}

@_cdecl("LLVMFuzzerTestOneInput")
func fuzz(_ input: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let buffer = UnsafeBufferPointer(start: input, count: size)
    let bytes = Array(buffer)
    var reader = BinaryPropertyListReader(bytes: bytes, allowingUIDs: false)
    guard let object = try? reader.read() else { return 0 }
    PropertyListChecks.roundTrip(object, readBy: "the binary reader")
    if bytes.starts(with: BinaryPropertyListReader.magic) {
        let dispatched = try? PropertyListReader.object(from: Data(bytes))
        require(
            dispatched.flatMap { ExactValue(object: $0) } == ExactValue(object: object),
            "PropertyListReader reads a binary file otherwise than the binary reader")
    }
    return 0
}
