import Foundation
import Testing

@testable import TypedDefaults

/// A `String`-backed enum declared as apps declare theirs, with raw values that need quoting.
private enum TimeFormat: String, Codable, DefaultsValueConvertible {
    case twelveHour = "12-hour", twentyFourHour = "24-hour"
}

/// An `Int`-backed one, which Defaults stores as the JSON of its raw value: `"3600"`.
private enum Interval: Int, Codable, DefaultsValueConvertible { case minute = 60, hour = 3600 }

/// What Defaults stored for an enum that is both `RawRepresentable` and `Codable`: the JSON of
/// its raw value, a quoted string.
@Suite struct DefaultsCodableEnumTests {
    @Test func aJSONStringDefaultsStoredReadsAsItsCaseWithNothingReported() {
        let store = DefaultsStore.inMemory()
        store[DefaultsKey<String>("timeFormat", default: "")] = #""12-hour""#
        let (format, reports) = ReportedErrors.during {
            UserDefault(wrappedValue: TimeFormat.twentyFourHour, "timeFormat", store: store).wrappedValue
        }
        #expect(format == .twelveHour)
        #expect(reports.isEmpty, "\(reports)")
    }

    @Test func aWriteStoresTheRawValueAgain() {
        let store = DefaultsStore.inMemory()
        store[DefaultsKey<String>("timeFormat", default: "")] = #""12-hour""#
        UserDefault(wrappedValue: TimeFormat.twentyFourHour, "timeFormat", store: store).wrappedValue = .twelveHour
        #expect(store[DefaultsKey<String>("timeFormat", default: "")] == "12-hour")
    }

    @Test func aQuotedStringOfNoCaseIsStillAMismatch() {
        let store = DefaultsStore.inMemory()
        store[DefaultsKey<String>("timeFormat", default: "")] = #""36-hour""#
        let (format, reports) = ReportedErrors.during {
            UserDefault(wrappedValue: TimeFormat.twentyFourHour, "timeFormat", store: store).wrappedValue
        }
        #expect(format == .twentyFourHour)
        #expect(reports.count == 1)
    }

    @Test func anIntEnumDefaultsStoredAsJSONTextReadsAsItsCase() {
        let store = DefaultsStore.inMemory()
        store[DefaultsKey<String>("interval", default: "")] = "60"
        let (interval, reports) = ReportedErrors.during {
            UserDefault(wrappedValue: Interval.hour, "interval", store: store).wrappedValue
        }
        #expect(interval == .minute)
        #expect(reports.isEmpty, "\(reports)")
        UserDefault(wrappedValue: Interval.hour, "interval", store: store).wrappedValue = .minute
        #expect(store[DefaultsKey<Int>("interval", default: 0)] == 60, "a write stores the raw value")
    }

    @Test func jsonTextOfAnotherShapeIsStillAMismatch() {
        let store = DefaultsStore.inMemory()
        store[DefaultsKey<String>("interval", default: "")] = "\"hour\""
        let (interval, reports) = ReportedErrors.during {
            UserDefault(wrappedValue: Interval.minute, "interval", store: store).wrappedValue
        }
        #expect(interval == .minute)
        #expect(reports.count == 1)
        #expect("\(reports)".contains("expected Interval"), "the report names the stored form: \(reports)")
    }
}
