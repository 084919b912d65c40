import Foundation
import FuzzSupport

@testable import TypedDefaults
@testable import TypedDefaultsSchema
@testable import TypedDefaultsStorage

/// Date text: a date `DateText.parse` reads is formatted to text that reads back as exactly the
/// same date, and formats the same again; the XML reader and the stored-value parser read that
/// text alike. The input's first 8 bytes are also taken as the bits of a date to format.
@main enum DateTarget {
    static func main() { runFuzzer(fuzz) }
}

@_cdecl("LLVMFuzzerTestOneInput")
func fuzz(_ input: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let buffer = UnsafeBufferPointer(start: input, count: size)
    let text = String(decoding: buffer, as: UTF8.self)
    if let date = DateText.parse(text) {
        let parsed = try? DefaultsStoredValue(parsing: text, as: .date)
        require(
            parsed.map { ExactValue($0) } == ExactValue(.date(date)), "parsing as .date differs from DateText", text)
        guard DateText.format(date) != nil else {
            violated("a date DateText reads has no text", "\(text): \(date.timeIntervalSinceReferenceDate)")
        }
        checkFormatted(date, from: text)
    }
    if size >= 8 {
        var bits: UInt64 = 0
        for byte in buffer.prefix(8) { bits = bits << 8 | UInt64(byte) }
        checkFormatted(Date(timeIntervalSinceReferenceDate: Double(bitPattern: bits)), from: "bits \(bits)")
    }
    return 0
}

/// A date's text, where it has one, reads back as the same instant everywhere dates are read
/// (`-0.0` seconds is written as `0.0` is).
func checkFormatted(_ date: Date, from origin: String) {
    guard let formatted = DateText.format(date) else { return }
    let seconds = date.timeIntervalSinceReferenceDate
    guard let back = DateText.parse(formatted) else {
        violated("DateText refuses its own text", "\(formatted) from \(origin)")
    }
    require(
        back.timeIntervalSinceReferenceDate == seconds, "a formatted date reads back as another",
        "\(seconds) → \(formatted) → \(back.timeIntervalSinceReferenceDate) (from \(origin))")
    require(DateText.format(back) == formatted, "a date's text is not stable", formatted)
    let xml = try? PropertyListReader.object(from: Data("<date>\(formatted)</date>".utf8))
    require(
        (xml as? Date)?.timeIntervalSinceReferenceDate == seconds,
        "the XML reader reads a date's text otherwise", formatted)
    let json = try? DefaultsStoredValue(json: #"{"$date":"\#(formatted)"}"#)
    require(
        json.map { ExactValue($0) } == ExactValue(.date(date)), "the JSON form reads a date's text otherwise", formatted
    )
}
