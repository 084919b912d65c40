import Foundation

/// Dates as ISO 8601 text that reads back as exactly the same `Date`.
///
/// `ISO8601DateFormatter` keeps milliseconds at most, and property-list XML whole seconds; a
/// `Date()` stored in a setting has a fraction finer than both. The text written here carries
/// the fraction with as many digits as it takes for the parse to give back the same 64-bit
/// time, and the parse adds the fraction to the whole seconds exactly as the writer split them.
/// The calendar arithmetic is the proleptic Gregorian calendar in UTC, done on integers.
///
/// Years are ISO 8601's astronomical years: year 0000 is 1 BC, -0044 is 45 BC. A year outside
/// 0000–9999 is written in ISO 8601's expanded form, a sign and four to six digits (`-0044`,
/// `+10000`), as far as ``yearLimit``.
package enum DateText {
    /// Seconds from 1970-01-01 to 2001-01-01, `Date`'s reference date.
    private static let referenceOffset: Int64 = 978_307_200

    /// The largest year, and the smallest negated, that the text holds: six digits.
    static let yearLimit: Int64 = 999_999

    /// `2026-11-23T10:00:00Z`, `2026-11-23T10:00:00.123456Z`, `-0044-03-15T12:00:00Z`; `nil` for
    /// a date that is not finite, beyond the years ±``yearLimit``, or whose fraction no decimal
    /// text can give back, and for `-0.0` seconds, which the text of 2001-01-01 would give back
    /// as `0.0`.
    package static func format(_ date: Date) -> String? {
        let time = date.timeIntervalSinceReferenceDate
        // Past ±3.2 million years, and within what the integer arithmetic below holds.
        guard time.isFinite, abs(time) < 1e14, time != 0 || time.sign == .plus else { return nil }
        let whole = time.rounded(.down)
        var fraction = time - whole
        // `time - whole` may round; the fraction to write is one whose sum with `whole` is `time`.
        var candidates = [fraction]
        for _ in 0..<4 {
            fraction = fraction.nextUp
            candidates.append(fraction)
        }
        fraction = candidates[0]
        for _ in 0..<4 {
            fraction = fraction.nextDown
            candidates.append(fraction)
        }
        guard let exact = candidates.first(where: { $0 >= 0 && $0 < 1 && whole + $0 == time }) else { return nil }
        let seconds = Int64(whole) + referenceOffset
        let days = wholeDays(in: seconds)
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = civil(fromDays: days)
        guard abs(year) <= yearLimit else { return nil }
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let digits = String(abs(year))
        let padded = String(repeating: "0", count: max(0, 4 - digits.count)) + digits
        let yearText = (0...9999).contains(year) ? padded : (year < 0 ? "-" : "+") + padded
        var text = "\(yearText)-\(two(month))-\(two(day))T\(two(secondOfDay / 3600)):\(two(secondOfDay / 60 % 60)):"
        text += two(secondOfDay % 60)
        if exact > 0 { text += "." + fractionDigits(exact) }
        return text + "Z"
    }

    /// Parses `2026-11-23`, `2026-11-23T10:00:00Z`, with a fraction of any length and an offset
    /// (`+02:00`, `+0200`), or macOS `defaults`' `2026-11-23 10:00:00 +0000`. The year is four
    /// digits, or a sign and four to six (`-0044`, `+10000`); `-0000` is refused, as ISO 8601
    /// writes year 0 `0000`.
    package static func parse(_ text: String) -> Date? {
        var scanner = Scanner(Array(text.utf8))
        guard let year = scanner.year(), scanner.take("-"), let month = scanner.digits(2), scanner.take("-"),
            let day = scanner.digits(2), (1...12).contains(month), (1...daysIn(month, year)).contains(day)
        else { return nil }
        var seconds = days(fromCivil: year, month, day) * 86_400
        var fraction = 0.0
        if !scanner.atEnd {
            guard scanner.take("T") || scanner.take(" "), let hour = scanner.digits(2), scanner.take(":"),
                let minute = scanner.digits(2), scanner.take(":"), let second = scanner.digits(2),
                hour < 24, minute < 60, second < 60
            else { return nil }
            seconds += hour * 3600 + minute * 60 + second
            if scanner.take(".") {
                let digits = scanner.run { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
                guard !digits.isEmpty, let value = Double("0." + digits) else { return nil }
                fraction = value
            }
            _ = scanner.take(" ")
            if scanner.take("Z") {
            } else if let sign = scanner.sign() {
                guard let hours = scanner.digits(2) else { return nil }
                _ = scanner.take(":")
                guard let minutes = scanner.digits(2), hours < 24, minutes < 60 else { return nil }
                seconds -= sign * (hours * 3600 + minutes * 60)
            } else {
                return nil
            }
        }
        guard scanner.atEnd else { return nil }
        let time = Double(seconds - referenceOffset) + fraction
        // An offset, or a fraction that rounds up to the next second, may carry a date at the
        // edge past the years `format` writes.
        let whole = Int64(time.rounded(.down)) + referenceOffset
        guard abs(civil(fromDays: wholeDays(in: whole)).year) <= yearLimit else { return nil }
        return Date(timeIntervalSinceReferenceDate: time)
    }

    /// The digits after the point of a fraction in `0..<1`, as few as give it back exactly.
    private static func fractionDigits(_ fraction: Double) -> String {
        // Swift's description is the shortest text that reads back as the same Double.
        let description = "\(fraction)"
        guard let exponentMark = description.firstIndex(of: "e") else {
            return String(description.drop { $0 != "." }.dropFirst())
        }
        let mantissa = description[..<exponentMark].filter { $0 != "." }
        let exponent = Int(description[description.index(after: exponentMark)...]) ?? 0
        return String(repeating: "0", count: max(0, -exponent - 1)) + mantissa
    }

    private static func daysIn(_ month: Int64, _ year: Int64) -> Int64 {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// The whole days in `seconds` from 1970-01-01, rounded down (toward the past before 1970).
    private static func wholeDays(in seconds: Int64) -> Int64 {
        seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
    }

    /// Days from 1970-01-01 to the date (Howard Hinnant's `days_from_civil`).
    private static func days(fromCivil year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date `days` after 1970-01-01 (Howard Hinnant's `civil_from_days`).
    private static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private struct Scanner {
        let bytes: [UInt8]
        var position = 0

        init(_ bytes: [UInt8]) {
            self.bytes = bytes
        }

        var atEnd: Bool { position == bytes.count }

        mutating func take(_ character: Unicode.Scalar) -> Bool {
            guard position < bytes.count, bytes[position] == UInt8(ascii: character) else { return false }
            position += 1
            return true
        }

        mutating func run(while matches: (UInt8) -> Bool) -> String {
            let start = position
            while position < bytes.count, matches(bytes[position]) { position += 1 }
            return String(decoding: bytes[start..<position], as: UTF8.self)
        }

        mutating func digits(_ count: Int) -> Int64? {
            guard bytes.count - position >= count else { return nil }
            let slice = bytes[position..<position + count]
            guard slice.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
            position += count
            return Int64(String(decoding: slice, as: UTF8.self))
        }

        /// Four digits, or a sign and four to six; not `-0000`.
        mutating func year() -> Int64? {
            guard let sign = sign() else { return digits(4) }
            let digits = run { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
            guard (4...6).contains(digits.utf8.count), let magnitude = Int64(digits), sign > 0 || magnitude > 0
            else { return nil }
            return sign * magnitude
        }

        mutating func sign() -> Int64? {
            if take("+") { return 1 }
            if take("-") { return -1 }
            return nil
        }
    }
}
