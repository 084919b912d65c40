import Foundation
import Testing
import TypedDefaults

/// Defects the generated round trips (RoundTripTests, issue 28) found, each with the smallest
/// value that shows it.
@Suite struct RoundTripDefectTests {
    /// Seed 209321284 (key outside.storedValue.49): `json()` wrote a date of `-0.0` seconds as
    /// `"2001-01-01T00:00:00Z"`, which reads back as `0.0`.
    @Test func negativeZeroDateReadsBackFromJSON() throws {
        let date = DefaultsStoredValue.date(Date(timeIntervalSinceReferenceDate: -0.0))
        for text in [date.json(), date.json(pretty: true)] {
            guard case .date(let read) = try DefaultsStoredValue(json: text) else {
                Issue.record("\(text) did not read as a date")
                continue
            }
            #expect(read.timeIntervalSinceReferenceDate.sign == .minus, "\(text)")
        }
        // Whole seconds otherwise keep their text.
        #expect(
            DefaultsStoredValue.date(Date(timeIntervalSinceReferenceDate: 0)).json()
                == #"{"$date":"2001-01-01T00:00:00Z"}"#)
    }
}
