import Foundation
import TypedDefaults

// Generators for the Foundation types stored through a conversion.

extension URL: RoundTripValue {
    static func generate(_ draw: inout Draw) -> URL {
        let fallback = URL(fileURLWithPath: "/", isDirectory: true)
        switch draw.int(0...5) {
        case 0, 1:
            // A file URL of any path, directory or not.
            let segments = (0..<draw.int(0...4)).map { _ in
                draw.nested { RoundTripText.string(&$0) }.replacingOccurrences(of: "/", with: "_")
            }
            let path = "/" + segments.filter { !$0.isEmpty && $0 != "." && $0 != ".." }.joined(separator: "/")
            return URL(fileURLWithPath: path, isDirectory: draw.chance(0.3))
        case 2:
            let text = draw.pick([
                "mailto:someone@example.com", "x-app:opaque/part?q", "data:text/plain;base64,SGVsbG8=", "relative/path",
                "urn:isbn:0451450523", "http://[::1]:8080/", "HTTPS://EXAMPLE.COM/A", "https://h/a%2Fb", "tel:+1-555",
                "https://例え.jp/パス?q=é#ü", "https://a.b/a b?c d#e f", "ftp://user:pa%20ss@host/dir/",
            ])
            return URL(string: text) ?? fallback
        default:
            // A web URL with every part, text drawn from the same pieces as strings.
            var text = draw.pick(["https", "http", "ftp", "ws", "x-custom+v1.2"]) + "://"
            if draw.chance(0.2) { text += "user\(draw.int(0...9))@" }
            text += draw.pick(["example.com", "a.b.c.example.org", "127.0.0.1", "xn--r8jz45g.jp", "localhost", "host"])
            if draw.chance(0.3) { text += ":\(draw.int(0...65_535))" }
            for _ in 0..<draw.int(0...3) {
                text += "/" + percentEncoded(draw.nested { RoundTripText.string(&$0) })
            }
            if draw.chance(0.5) {
                text +=
                    "?" + percentEncoded(RoundTripText.ascii(&draw)) + "=" + percentEncoded(RoundTripText.piece(&draw))
            }
            if draw.chance(0.4) { text += "#" + percentEncoded(RoundTripText.piece(&draw)) }
            return URL(string: text) ?? fallback
        }
    }

    private static func percentEncoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "x"
    }

    /// What the library stores (its absolute string) and whether it is a file URL.
    var fingerprint: String { Fingerprint.text(absoluteString) + (isFileURL ? " file" : "") }
}

extension Duration: RoundTripValue {
    static func generate(_ draw: inout Draw) -> Duration {
        switch draw.int(0...4) {
        case 0:
            return draw.pick([
                .zero, .nanoseconds(1), .seconds(-1.5), .seconds(Int64.max), .seconds(Int64.min),
                Duration(secondsComponent: .max, attosecondsComponent: 999_999_999_999_999_999),
                Duration(secondsComponent: .min, attosecondsComponent: -999_999_999_999_999_999),
                Duration(secondsComponent: 0, attosecondsComponent: -1),
            ])
        case 1: return .milliseconds(draw.int(-100_000_000...100_000_000))
        default:
            let seconds = Int64(truncatingIfNeeded: draw.bits()) >> draw.int(0...63)
            let attoseconds = Int64(draw.int(-999_999_999_999_999_999...999_999_999_999_999_999))
            return Duration(secondsComponent: seconds, attosecondsComponent: attoseconds)
        }
    }

    /// Every attosecond; `components` would trap on a duration beyond `Int64` seconds.
    var fingerprint: String {
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) { return "\(attoseconds)as" }
        return "\(components.seconds)s \(components.attoseconds)as"
    }
}

extension Locale: RoundTripValue {
    static func generate(_ draw: inout Draw) -> Locale {
        if draw.chance(0.15) { return Locale(identifier: RoundTripText.piece(&draw)) }
        return Locale(
            identifier: draw.pick([
                "en_US", "de_CH@calendar=buddhist", "zh_Hant_TW", "", "ja_JP@calendar=japanese", "sr_Latn_RS",
                "en_US_POSIX", "ar_EG@numbers=latn", "he_IL", "x", "tlh", "root", "es_419", "pt-BR",
                "fr_FR@currency=EUR;collation=phonebook", "und", "EN_us", "th_TH_TH", "ÄÖ", "zh-Hans-CN-u-nu-hanidec",
            ]))
    }

    var fingerprint: String { Fingerprint.text(identifier) }
}

extension TimeZone: RoundTripValue {
    private static let known = TimeZone.knownTimeZoneIdentifiers.sorted()

    static func generate(_ draw: inout Draw) -> TimeZone {
        let fallback = TimeZone(secondsFromGMT: 0) ?? .current
        if draw.chance(0.3) {
            // Whole minutes: an offset of a few seconds has no identifier that keeps it.
            return TimeZone(secondsFromGMT: 60 * draw.int(-18 * 60...18 * 60)) ?? fallback
        }
        if draw.chance(0.1) {
            return TimeZone(identifier: draw.pick(["UTC", "GMT", "GMT+0530", "GMT-1130"])) ?? fallback
        }
        return known.isEmpty ? fallback : TimeZone(identifier: draw.pick(known)) ?? fallback
    }

    private static let fixedDate = Date(timeIntervalSinceReferenceDate: 800_000_000)

    /// The identifier, and the offset it gives, which is what a time zone is.
    var fingerprint: String { Fingerprint.text(identifier) + " \(secondsFromGMT(for: Self.fixedDate))s" }
}

extension IndexPath: RoundTripValue {
    static func generate(_ draw: inout Draw) -> IndexPath { IndexPath(indexes: [Int].generate(&draw)) }
    var fingerprint: String { Array(self).fingerprint }
}

extension CGFloat: RoundTripValue {
    static func generate(_ draw: inout Draw) -> CGFloat { CGFloat(Double.generate(&draw)) }
    var fingerprint: String { Fingerprint.real(Double(self)) }
}

extension CGRect: RoundTripValue {
    static func generate(_ draw: inout Draw) -> CGRect {
        CGRect(
            x: CGFloat.generate(&draw), y: CGFloat.generate(&draw), width: CGFloat.generate(&draw),
            height: CGFloat.generate(&draw))
    }

    var fingerprint: String {
        [origin.x, origin.y, size.width, size.height].map(\.fingerprint).joined(separator: " ")
    }
}

extension CGPoint: RoundTripValue {
    static func generate(_ draw: inout Draw) -> CGPoint {
        CGPoint(x: CGFloat.generate(&draw), y: CGFloat.generate(&draw))
    }

    var fingerprint: String { "\(x.fingerprint) \(y.fingerprint)" }
}

extension CGSize: RoundTripValue {
    static func generate(_ draw: inout Draw) -> CGSize {
        CGSize(width: CGFloat.generate(&draw), height: CGFloat.generate(&draw))
    }

    var fingerprint: String { "\(width.fingerprint) \(height.fingerprint)" }
}

/// Units to draw for each dimension, besides custom ones.
enum RoundTripUnits {
    static func standard(_ type: Dimension.Type) -> [Dimension] {
        switch type {
        case is UnitLength.Type: [UnitLength.meters, UnitLength.kilometers, UnitLength.miles, UnitLength.lightyears]
        case is UnitTemperature.Type: [UnitTemperature.celsius, UnitTemperature.fahrenheit, UnitTemperature.kelvin]
        case is UnitDuration.Type: [UnitDuration.seconds, UnitDuration.hours, UnitDuration.milliseconds]
        default: []
        }
    }
}

extension Measurement: RoundTripValue where UnitType: Dimension {
    static func generate(_ draw: inout Draw) -> Measurement<UnitType> {
        let units = RoundTripUnits.standard(UnitType.self).compactMap { $0 as? UnitType }
        let unit: UnitType
        if units.isEmpty || draw.chance(0.3) {
            // A unit of the program's own: any symbol, a linear conversion with an offset.
            let converter = UnitConverterLinear(
                coefficient: Double.finite(&draw), constant: draw.chance(0.5) ? 0 : Double.finite(&draw))
            unit = UnitType(symbol: RoundTripText.string(&draw), converter: converter)
        } else {
            unit = draw.pick(units)
        }
        return Measurement(value: Double.finite(&draw), unit: unit)
    }

    /// The value, the unit's symbol and its conversion, so 5 km is not 5,000 m.
    var fingerprint: String {
        let converter = unit.converter
        return [
            Fingerprint.real(value), Fingerprint.text(unit.symbol),
            Fingerprint.real(converter.baseUnitValue(fromValue: 0)),
            Fingerprint.real(converter.baseUnitValue(fromValue: 1)),
        ].joined(separator: " ")
    }
}

extension DateComponents: RoundTripValue {
    private static let calendars: [Calendar.Identifier] = [
        .gregorian, .japanese, .buddhist, .chinese, .hebrew, .islamic, .islamicCivil, .iso8601, .persian, .coptic,
        .indian, .republicOfChina,
    ]

    static func generate(_ draw: inout Draw) -> DateComponents {
        func field() -> Int? {
            guard draw.chance(0.5) else { return nil }
            return draw.chance(0.1) ? Int.generate(&draw) : draw.int(-10_000...10_000)
        }
        var components = DateComponents()
        if draw.chance(0.5) {
            var calendar = Calendar(identifier: draw.pick(calendars))
            calendar.timeZone = TimeZone.generate(&draw)
            components.calendar = calendar
        }
        if draw.chance(0.5) { components.timeZone = TimeZone.generate(&draw) }
        components.era = field()
        components.year = field()
        components.month = field()
        components.day = field()
        components.hour = field()
        components.minute = field()
        components.second = field()
        components.nanosecond = field()
        components.weekday = field()
        components.weekdayOrdinal = field()
        components.quarter = field()
        components.weekOfMonth = field()
        components.weekOfYear = field()
        components.yearForWeekOfYear = field()
        if draw.chance(0.3) { components.isLeapMonth = draw.chance(0.5) }
        return components
    }

    var fingerprint: String {
        let fields: [(String, Int?)] = [
            ("era", era), ("year", year), ("month", month), ("day", day), ("hour", hour), ("minute", minute),
            ("second", second), ("nanosecond", nanosecond), ("weekday", weekday), ("weekdayOrdinal", weekdayOrdinal),
            ("quarter", quarter), ("weekOfMonth", weekOfMonth), ("weekOfYear", weekOfYear),
            ("yearForWeekOfYear", yearForWeekOfYear),
        ]
        var parts = fields.compactMap { name, value in value.map { "\(name)=\($0)" } }
        if let isLeapMonth { parts.append("isLeapMonth=\(isLeapMonth)") }
        if let calendar {
            parts.append("calendar=\(calendar.identifier) in \(calendar.timeZone.fingerprint)")
        }
        if let timeZone { parts.append("timeZone=\(timeZone.fingerprint)") }
        return "(" + parts.joined(separator: " ") + ")"
    }
}
