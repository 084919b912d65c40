import Foundation
import FuzzSupport

@testable import TypedDefaults
@testable import TypedDefaultsStorage

/// The XML property-list reader: what it reads survives the writer and reads back the same.
@main enum XMLPlistTarget {
    static func main() { runFuzzer(fuzz) }
}

@_cdecl("LLVMFuzzerTestOneInput")
func fuzz(_ input: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let buffer = UnsafeBufferPointer(start: input, count: size)
    let bytes = Array(buffer)
    var reader = XMLPropertyListReader(bytes: bytes, start: 0)
    guard let object = try? reader.read() else { return 0 }
    PropertyListChecks.roundTrip(object, readBy: "the XML reader")
    return 0
}
