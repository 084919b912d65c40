import Foundation
import Testing

@testable import TypedDefaults

/// A `String`-backed enum declared as apps declare theirs, with raw values that need quoting.
private enum TimeFormat: String, Codable, DefaultsValueConvertible {
    case twelveHour = "12-hour", twentyFourHour = "24-hour"
}

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
}
