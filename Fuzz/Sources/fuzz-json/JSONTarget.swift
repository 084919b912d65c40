import Foundation
import FuzzSupport

@testable import TypedDefaults
@testable import TypedDefaultsSchema

/// JSON text: the parser's tree writes back to text that parses to the same tree, and a value
/// read by `DefaultsStoredValue(json:)` survives `.json()` (compact and pretty) and the
/// property-list writer, and writes the same text again.
@main enum JSONTarget {
    static func main() { runFuzzer(fuzz) }
}

@_cdecl("LLVMFuzzerTestOneInput")
func fuzz(_ input: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let buffer = UnsafeBufferPointer(start: input, count: size)
    let text = String(decoding: buffer, as: UTF8.self)
    guard let tree = try? JSONText.parse(text) else {
        require((try? DefaultsStoredValue(json: text)) == nil, "DefaultsStoredValue(json:) reads what JSONText refuses")
        return 0
    }
    for pretty in [false, true] {
        let written = JSONText.write(tree, pretty: pretty)
        guard let again = try? JSONText.parse(written) else { violated("JSONText refuses its own text", written) }
        require(JSONText.write(again, pretty: pretty) == written, "JSONText's text parses to another tree", written)
    }
    guard let value = try? DefaultsStoredValue(json: text) else { return 0 }
    let exact = ExactValue(value, nans: .alike)
    let json = value.json()
    for form in [json, value.json(pretty: true)] {
        do {
            let back = try DefaultsStoredValue(json: form)
            require(ExactValue(back, nans: .alike) == exact, "json() reads back as other values", "\(exact)\n\(form)")
            require(back.json() == json, "equal values give equal JSON text", form)
        } catch {
            violated("DefaultsStoredValue(json:) refuses json()", "\(error)\n\(form)")
        }
    }
    do {
        let back = try DefaultsStoredValue(propertyList: value.propertyListData())
        require(ExactValue(back) == ExactValue(value), "a JSON value changes through a property list", "\(exact)")
    } catch {
        violated("a JSON value's property list does not read back", "\(error); \(exact)")
    }
    return 0
}
