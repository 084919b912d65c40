import Foundation
import Testing

@testable import TypedDefaults
@testable import TypedDefaultsStorage

/// Dates as ISO 8601 text: every year from ISO 8601's expanded years to the far future, each
/// instant checked against one computed here apart from `DateText`'s arithmetic.
@Suite struct DateTextTests {
    /// Seconds from 2001-01-01T00:00:00Z to the given UTC time in the proleptic Gregorian
    /// calendar, counted year by year and month by month: another way than `DateText`'s.
    static func secondsSince2001(
        _ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, _ second: Int = 0
    ) -> Double {
        func isLeap(_ year: Int) -> Bool { (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 }
        var days = 0
        for whole in min(year, 2001)..<max(year, 2001) { days += (isLeap(whole) ? 366 : 365) * (year < 2001 ? -1 : 1) }
        let lengths = [31, isLeap(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        days += lengths.prefix(month - 1).reduce(0, +) + day - 1
        return Double(days * 86_400 + hour * 3600 + minute * 60 + second)
    }

    @Test func theCountingAboveAgreesWithJulianDayNumbers() {
        // Julian day numbers (noon UT) of proleptic Gregorian dates, as astronomers tabulate them;
        // 2001-01-01 is day 2451911.
        let days: [(year: Int, month: Int, day: Int, julianDay: Double)] = [
            (2000, 1, 1, 2_451_545), (1, 1, 1, 1_721_426), (0, 1, 1, 1_721_060), (-44, 3, 15, 1_705_063),
        ]
        for (year, month, day, julianDay) in days {
            #expect(Self.secondsSince2001(year, month, day, 12) == (julianDay - 2_451_911) * 86_400 + 43_200)
        }
    }

    @Test func negativeYearsAreISOExpandedYearsOfTheProlepticGregorianCalendar() throws {
        // -0044 is 45 BC, 0000 is 1 BC (a leap year), each at the instant counted independently.
        let dates: [(String, Double)] = [
            ("-0044-03-15T12:00:00Z", Self.secondsSince2001(-44, 3, 15, 12)),
            ("-0044-03-15T12:00:00Z", -64_527_624_000),
            ("0000-02-29T00:00:00Z", Self.secondsSince2001(0, 2, 29)),
            ("0000-01-01T00:00:00Z", Self.secondsSince2001(0, 1, 1)),
            ("-0001-12-31T23:59:59Z", Self.secondsSince2001(0, 1, 1) - 1),
            ("-0004-02-29T00:00:00Z", Self.secondsSince2001(-4, 2, 29)),
            ("-0100-03-01T00:00:00Z", Self.secondsSince2001(-100, 3, 1)),
            ("-0400-02-29T06:30:15Z", Self.secondsSince2001(-400, 2, 29, 6, 30, 15)),
            ("-12345-06-07T08:09:10Z", Self.secondsSince2001(-12_345, 6, 7, 8, 9, 10)),
            ("-999999-01-01T00:00:00Z", Self.secondsSince2001(-999_999, 1, 1)),
            ("0001-01-01T00:00:00Z", Self.secondsSince2001(1, 1, 1)),
            ("1582-10-10T00:00:00Z", Self.secondsSince2001(1582, 10, 10)),
            ("9999-12-31T23:59:59Z", Self.secondsSince2001(9999, 12, 31, 23, 59, 59)),
            ("+10000-01-01T00:00:00Z", Self.secondsSince2001(10_000, 1, 1)),
            ("+999999-12-31T23:59:59Z", Self.secondsSince2001(999_999, 12, 31, 23, 59, 59)),
        ]
        for (text, seconds) in dates {
            let date = Date(timeIntervalSinceReferenceDate: seconds)
            #expect(DateText.parse(text) == date, "\(text)")
            #expect(DateText.format(date) == text, "\(text)")
            #expect(try DefaultsStoredValue(parsing: text, as: .date) == .date(date), "\(text)")
            #expect(DefaultsStoredValue.date(date).json() == #"{"$date":"\#(text)"}"#)
        }
        // The other spellings of one instant.
        let ides = Date(timeIntervalSinceReferenceDate: -64_527_624_000)
        for text in [
            "-0044-03-15 12:00:00 +0000", "-0044-03-15T13:30:00+01:30", "-0044-03-15T12:00:00.000Z",
            "-00044-03-15T12:00:00Z",
        ] {
            #expect(DateText.parse(text) == ides, "\(text)")
        }
        #expect(DateText.parse("-0044-03-15") == Date(timeIntervalSinceReferenceDate: -64_527_667_200))
        #expect(DateText.parse("+2026-11-23T10:00:00Z") == DateText.parse("2026-11-23T10:00:00Z"))
    }

    @Test func fractionsBeforeYearZeroReadBackExactly() throws {
        let instants = [
            Self.secondsSince2001(-44, 3, 15, 12) + 0.25, Self.secondsSince2001(0, 1, 1) - 0.001,
            Self.secondsSince2001(-1, 6, 30) + 0.123_456_789, Self.secondsSince2001(-999_999, 1, 1) + 0.5,
            Self.secondsSince2001(999_999, 12, 31, 23, 59, 59) + 0.75, -0.5, 1e-9,
        ]
        for seconds in instants {
            let date = Date(timeIntervalSinceReferenceDate: seconds)
            let text = try #require(DateText.format(date), "\(seconds)")
            let back = try #require(DateText.parse(text), "\(text)")
            #expect(back.timeIntervalSinceReferenceDate.bitPattern == seconds.bitPattern, "\(text)")
        }
        #expect(
            DateText.format(Date(timeIntervalSinceReferenceDate: Self.secondsSince2001(-44, 3, 15) + 0.5))
                == "-0044-03-15T00:00:00.5Z")
    }

    @Test func textThatIsNoDateIsRefused() throws {
        let refused = [
            "-0000-01-01", "-00000-01-01T00:00:00Z", "-044-03-15", "-1234567-01-01", "+1000000-01-01",
            "10000-01-01", "12345-01-01T00:00:00Z", "--0044-03-15", "- 0044-03-15", "0000-02-30",
            "-0001-02-29", "-0100-02-29", "+-0044-03-15", "-0044-3-15", "",
            // Past the last year the text holds once the offset is applied.
            "+999999-12-31T23:59:59-01:00", "-999999-01-01T00:00:00+01:00",
            // A fraction that rounds up to the next second, the first of year 1000000: it read as
            // a date with no text (found by the fuzz-date target, Fuzz/README.md).
            "+999999-12-31T23:59:59.9999999999Z",
        ]
        for text in refused {
            #expect(DateText.parse(text) == nil, "\(text)")
        }
        // Beyond the years the text holds: no text, and the JSON form writes seconds instead.
        let far = Date(timeIntervalSinceReferenceDate: Self.secondsSince2001(1_000_000, 1, 1))
        #expect(DateText.format(far) == nil)
        #expect(DateText.format(Date(timeIntervalSinceReferenceDate: Self.secondsSince2001(-1_000_000, 12, 31))) == nil)
        #expect(DateText.format(Date(timeIntervalSinceReferenceDate: .infinity)) == nil)
        // A fraction before 2001 finer than the whole seconds can carry: seconds, as before.
        #expect(DateText.format(Date(timeIntervalSinceReferenceDate: -0.3)) == nil)
        #expect(try DefaultsStoredValue(json: DefaultsStoredValue.date(far).json()) == .date(far))
    }
}
