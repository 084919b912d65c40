import Foundation
import Testing
import TypedDefaults

/// Defects the generated round trips (RoundTripTests) found, each with the smallest value that
/// shows it.
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

    /// A fixed offset with seconds, `TimeZone(secondsFromGMT: 19_801)`, is named `GMT+0530` and
    /// read back as 19,800 s (Foundation's `==` calls the two equal): it is refused on write and
    /// the stored zone stays; whole minutes are stored as before.
    @Test func offsetWithSecondsIsRefusedNotRounded() throws {
        let store = DefaultsStore.inMemory()
        let utc = try #require(TimeZone(identifier: "UTC"))
        let zone = UserDefault(wrappedValue: utc, "zone", store: store)
        let india = try #require(TimeZone(secondsFromGMT: 19_800))
        zone.wrappedValue = india
        for seconds in [19_801, 59, -3_599] {
            let odd = try #require(TimeZone(secondsFromGMT: seconds))
            let (_, reported) = ReportedErrors.during { zone.wrappedValue = odd }
            #expect(reported.count == 1, "\(seconds): \(reported)")
            #expect(reported.allSatisfy { if case .encodingFailed = $0 { true } else { false } }, "\(reported)")
            #expect(try store.storedValues()["zone"] == .string("GMT+0530"))
        }
        #expect(try zone.load().secondsFromGMT() == 19_800)
    }
}
