import Foundation
import TypedDefaults

// Types of a program's own, of every kind the library stores: enums, Codable structs and
// secure-coding classes, each with a generator.

enum RoundTripGlyph: Character, CaseIterable, DefaultsValueConvertible {
    case precomposed = "\u{E9}", family = "👩‍👩‍👧‍👦", nul = "\u{0}", crlf = "\r\n", noncharacter = "\u{FFFF}"
}

enum RoundTripRatio: Double, CaseIterable, DefaultsValueConvertible {
    case tiny = 2.2250738585072014e-308, half = 0.5, huge = 1.7976931348623157e308, negative = -2.5
}

enum RoundTripMood: String, CaseIterable, Codable, Sendable { case calm, tense = "te\u{301}nse", empty = "" }

/// A `Codable` struct nested in another, with optionals, every scalar and text as strings have it.
struct RoundTripInner: Codable, Hashable, Sendable, DefaultsValueConvertible {
    var name: String
    var values: [Double]
    var flag: Bool?
    var mood: RoundTripMood?
    var byNumber: [Int: String]
}

struct RoundTripRecord: Codable, Hashable, Sendable, DefaultsValueConvertible {
    var title: String
    var note: String?
    var count: Int
    var large: UInt64
    var small: Int64?
    var ratio: Double
    var single: Float
    var flag: Bool
    var when: Date
    var id: UUID
    var link: URL?
    var bytes: Data
    var tags: [String]
    var scores: [String: Double]
    var inner: RoundTripInner?
    var children: [RoundTripInner]
    var mood: RoundTripMood
}

extension RoundTripInner: RoundTripValue {
    static func generate(_ draw: inout Draw) -> RoundTripInner {
        draw.nested { draw in
            RoundTripInner(
                name: String.generate(&draw), values: (0..<draw.count()).map { _ in Double.finite(&draw) },
                flag: draw.chance(0.5) ? nil : draw.chance(0.5),
                mood: draw.chance(0.3) ? nil : draw.pick(RoundTripMood.allCases),
                byNumber: [Int: String].generate(&draw))
        }
    }

    var fingerprint: String {
        "Inner(\(name.fingerprint) \(values.fingerprint) \(flag.fingerprint) \(Fingerprint.text(mood?.rawValue ?? "-"))"
            + " \(byNumber.fingerprint))"
    }
}

extension RoundTripRecord: RoundTripValue {
    /// A record JSON can hold: finite numbers only (a NaN is refused; see the refusals).
    static func generate(_ draw: inout Draw) -> RoundTripRecord {
        var single = Float.generate(&draw)
        if !single.isFinite { single = 0.25 }
        return RoundTripRecord(
            title: String.generate(&draw), note: String?.generate(&draw), count: Int.generate(&draw),
            large: UInt64.generate(&draw), small: Int64?.generate(&draw), ratio: Double.finite(&draw), single: single,
            flag: Bool.generate(&draw), when: finiteDate(&draw), id: UUID.generate(&draw),
            link: draw.chance(0.5) ? nil : URL.generate(&draw), bytes: draw.nested { Data.generate(&$0) },
            tags: [String].generate(&draw), scores: [String: Double].generate(&draw).mapValues { $0.isFinite ? $0 : 0 },
            inner: draw.chance(0.5) ? nil : RoundTripInner.generate(&draw),
            children: draw.nested { draw in (0..<min(3, draw.count())).map { _ in RoundTripInner.generate(&draw) } },
            mood: draw.pick(RoundTripMood.allCases))
    }

    private static func finiteDate(_ draw: inout Draw) -> Date {
        let date = Date.generate(&draw)
        return date.timeIntervalSinceReferenceDate.isFinite ? date : .distantPast
    }

    var fingerprint: String {
        let parts = [
            title.fingerprint, note.fingerprint, count.fingerprint, large.fingerprint, small.fingerprint,
            ratio.fingerprint,
            single.fingerprint, flag.fingerprint, when.fingerprint, id.fingerprint, link.fingerprint, bytes.fingerprint,
            tags.fingerprint, scores.fingerprint, inner.fingerprint, children.fingerprint,
            Fingerprint.text(mood.rawValue),
        ]
        return "Record(" + parts.joined(separator: " ") + ")"
    }
}

/// A secure-coding class with fields of every archived kind, and a nested object.
final class RoundTripNote: NSObject, NSSecureCoding, RoundTripValue {
    static var supportsSecureCoding: Bool { true }
    let text: String
    let number: Int64
    let ratio: Double
    let bytes: Data
    let when: Date
    let tags: [String]
    let child: RoundTripNote?

    init(text: String, number: Int64, ratio: Double, bytes: Data, when: Date, tags: [String], child: RoundTripNote?) {
        (self.text, self.number, self.ratio, self.bytes, self.when) = (text, number, ratio, bytes, when)
        (self.tags, self.child) = (tags, child)
    }

    func encode(with coder: NSCoder) {
        coder.encode(text as NSString, forKey: "text")
        coder.encode(number, forKey: "number")
        coder.encode(ratio, forKey: "ratio")
        coder.encode(bytes as NSData, forKey: "bytes")
        coder.encode(when as NSDate, forKey: "when")
        coder.encode(tags.map { $0 as NSString } as NSArray, forKey: "tags")
        if let child { coder.encode(child, forKey: "child") }
    }

    init?(coder: NSCoder) {
        guard let text = coder.decodeObject(of: NSString.self, forKey: "text"),
            let bytes = coder.decodeObject(of: NSData.self, forKey: "bytes"),
            let when = coder.decodeObject(of: NSDate.self, forKey: "when"),
            let tags = coder.decodeObject(of: [NSArray.self, NSString.self], forKey: "tags") as? [String]
        else { return nil }
        (self.text, self.bytes, self.when, self.tags) = (text as String, bytes as Data, when as Date, tags)
        number = coder.decodeInt64(forKey: "number")
        ratio = coder.decodeDouble(forKey: "ratio")
        child = coder.containsValue(forKey: "child") ? coder.decodeObject(of: RoundTripNote.self, forKey: "child") : nil
    }

    static func generate(_ draw: inout Draw) -> RoundTripNote {
        var (strings, dates): ([String], [Date]) = ([], [])
        return generate(&draw, strings: &strings, dates: &dates)
    }

    /// corelibs' archiver keeps one object for objects that `isEqual` calls equal, and its
    /// `NSString` compares by canonical equivalence: of `"\u{E9}"` and `"e\u{301}"` in one
    /// archive both read back as the first, and of the dates `0.0` and `-0.0` both as the first
    /// (a loss of the platform, not of the library). So no string or date of a note's archive
    /// is such a twin of another.
    private static func generate(_ draw: inout Draw, strings: inout [String], dates: inout [Date]) -> RoundTripNote {
        func distinct(_ text: String) -> String? {
            let twin = strings.contains { $0 == text && !$0.unicodeScalars.elementsEqual(text.unicodeScalars) }
            if twin { return nil }
            strings.append(text)
            return text
        }
        let text = distinct(String.generate(&draw)) ?? ""
        let (number, ratio) = (Int64.generate(&draw), Double.generate(&draw))
        var when = Date.generate(&draw)
        if dates.contains(where: { $0 == when && $0.fingerprint != when.fingerprint }) { when = .distantFuture }
        dates.append(when)
        let bytes = draw.nested { Data.generate(&$0) }
        let tags = [String].generate(&draw).compactMap(distinct)
        let child =
            draw.depth < 2 && draw.chance(0.3)
            ? draw.nested { generate(&$0, strings: &strings, dates: &dates) } : nil
        return RoundTripNote(
            text: text, number: number, ratio: ratio, bytes: bytes, when: when, tags: tags, child: child)
    }

    var fingerprint: String {
        "Note(\(text.fingerprint) \(number) \(ratio.fingerprint) \(bytes.fingerprint) \(when.fingerprint)"
            + " \(tags.fingerprint) \(child?.fingerprint ?? "-"))"
    }
}

// MARK: - The fixtures' types, shared with the probe's fixed cases

extension Channel: RoundTripValue {
    static func generate(_ draw: inout Draw) -> Channel { draw.pick(allCases) }
    var fingerprint: String { rawValue }
}

extension Pin: RoundTripValue {
    static func generate(_ draw: inout Draw) -> Pin { Pin(label: String.generate(&draw)) }
    var fingerprint: String { "Pin(\(Fingerprint.text(label)))" }
}

extension ArchivedPin: RoundTripValue {
    static func generate(_ draw: inout Draw) -> ArchivedPin { ArchivedPin(label: String.generate(&draw)) }
    var fingerprint: String { "ArchivedPin(\(Fingerprint.text(label)))" }
}

extension Swatch: RoundTripValue {
    static func generate(_ draw: inout Draw) -> Swatch {
        Swatch(name: String.generate(&draw), hue: Int.generate(&draw))
    }
    var fingerprint: String { "Swatch(\(Fingerprint.text(name)) \(hue))" }
}

extension Level: RoundTripValue {
    static func generate(_ draw: inout Draw) -> Level { draw.chance(0.5) ? .low : .high }
    var fingerprint: String { "\(rawValue)" }
}

extension RoundTripGlyph: RoundTripValue {
    static func generate(_ draw: inout Draw) -> RoundTripGlyph { draw.pick(allCases) }
    var fingerprint: String { Fingerprint.text(String(rawValue)) }
}

extension RoundTripRatio: RoundTripValue {
    static func generate(_ draw: inout Draw) -> RoundTripRatio { draw.pick(allCases) }
    var fingerprint: String { rawValue.fingerprint }
}

extension Quality: RoundTripValue {
    static func generate(_ draw: inout Draw) -> Quality { draw.chance(0.5) ? .low : .high }
    var fingerprint: String { rawValue }
}

extension Rank: RoundTripValue {
    static func generate(_ draw: inout Draw) -> Rank { draw.chance(0.5) ? .first : .second }
    var fingerprint: String { "\(rawValue)" }
}

extension Tenths: RoundTripValue {
    static func generate(_ draw: inout Draw) -> Tenths { Tenths(Int.generate(&draw)) }
    var fingerprint: String { "\(count)" }
}

extension Celsius: RoundTripValue {
    /// Whole tenths, which the conversion keeps exactly.
    static func generate(_ draw: inout Draw) -> Celsius { Celsius(Double(draw.int(-1_000_000...1_000_000)) / 10) }
    var fingerprint: String { degrees.fingerprint }
}

extension TagList: RoundTripValue {
    static func generate(_ draw: inout Draw) -> TagList { TagList([String].generate(&draw)) }
    var fingerprint: String { Array(self).fingerprint }
}

extension Stack: RoundTripValue {
    static func generate(_ draw: inout Draw) -> Stack { Stack(array: [Int].generate(&draw)) }
    var fingerprint: String { items.fingerprint }
}
