/// Strings and characters with the text that breaks storage: canonical twins, control
/// characters and NUL, emoji sequences, noncharacters, markup and JSON look-alikes.
enum RoundTripText {
    /// Canonically equivalent spellings, which Swift compares as equal and storage must keep apart.
    static let twins: [(String, String)] = [
        ("\u{E9}", "e\u{301}"), ("\u{C5}", "A\u{30A}"), ("\u{212B}", "\u{C5}"), ("\u{2126}", "\u{3A9}"),
        ("\u{AC00}", "\u{1100}\u{1161}"), ("\u{AC01}", "\u{1100}\u{1161}\u{11A8}"), ("\u{1EC7}", "e\u{323}\u{302}"),
        ("e\u{323}\u{302}", "e\u{302}\u{323}"), ("\u{F1}", "n\u{303}"), ("\u{1E69}", "s\u{323}\u{307}"),
        ("\u{1F80}", "\u{3B1}\u{313}\u{345}"), ("\u{FB01}", "fi"), ("\u{309C}", "\u{FF9F}"),
    ]

    static let emoji = [
        "👩‍👩‍👧‍👦", "🏳️‍🌈", "🇺🇦", "🇩🇪🇫🇷", "👍🏽", "1️⃣", "🧑🏿‍🚀", "❤️", "❤\u{FE0E}", "👁‍🗨",
        "🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}",
        "😀", "🫠", "\u{200D}", "👨‍❤️‍💋‍👨",
    ]

    /// Noncharacters, the byte-order mark, separators, NUL and line ends. (U+FDD0 is built at
    /// run time: Swift refuses it in a literal.)
    static let specials =
        [
            "\u{FFFF}", "\u{FFFE}", "\u{FEFF}", "\u{FFFD}", "\u{10FFFF}", "\u{10FFFE}", "\u{2028}", "\u{2029}",
            "\u{200B}", "\u{202E}", "\u{1D11E}", "\u{E000}", "\u{0}", "\u{0}\u{0}", "\r\n", "\r", "\n", "\t",
            "\u{7F}", "\u{85}", "\u{9F}", "\u{1FFFE}", "\u{D7FF}", "\u{E0001}", "\u{0}\r\n\u{0}",
        ] + [0xFDD0, 0xFDEF, 0x2FFFF].compactMap { Unicode.Scalar($0).map(String.init) }

    /// Text that means something to a reader of XML, JSON, URLs or the library's own markers.
    static let markup = [
        "<", ">", "&", "]]>", "\"", "\\", "'", "{\"a\":1}", "[1,2]", "$date", "$data", "__TypedDefaults.nil",
        "NaN", "nan", "-0", "inf", "%00", "%", "/", "~", "file:///", "bplist00", "<?xml version=\"1.0\"?>",
        "\\u0000", "\\ud800", "<string>", "&#0;", "yes", "true", "1e999",
    ]

    /// A string: usually a few pieces, sometimes empty, now and then kilobytes long.
    static func string(_ draw: inout Draw) -> String {
        if draw.chance(0.06) { return "" }
        if draw.depth == 0, draw.chance(0.02) { return long(&draw) }
        let pieces = draw.depth == 0 ? draw.int(1...6) : draw.int(1...3)
        var text = ""
        for _ in 0..<pieces { text += piece(&draw) }
        return text
    }

    /// One grapheme cluster, as diverse as the pieces of a string.
    static func character(_ draw: inout Draw) -> Character {
        let source: String
        switch draw.int(0...5) {
        case 0: source = draw.chance(0.5) ? draw.pick(twins).0 : draw.pick(twins).1
        case 1: source = draw.pick(emoji)
        case 2: source = draw.pick(specials)
        case 3: source = combining(&draw)
        case 4: source = String(scalar(&draw))
        default: source = ascii(&draw)
        }
        return source.first ?? "a"
    }

    static func piece(_ draw: inout Draw) -> String {
        switch draw.int(0...9) {
        case 0: draw.chance(0.5) ? draw.pick(twins).0 : draw.pick(twins).1
        case 1: draw.pick(emoji)
        case 2: draw.pick(specials)
        case 3: draw.pick(markup)
        case 4: combining(&draw)
        case 5: String(String.UnicodeScalarView((0..<draw.int(1...4)).map { _ in control(&draw) }))
        case 6: String(String.UnicodeScalarView((0..<draw.int(1...4)).map { _ in scalar(&draw) }))
        default: ascii(&draw)
        }
    }

    /// A base letter and up to four combining marks in any order, canonical or not.
    static func combining(_ draw: inout Draw) -> String {
        var scalars = String.UnicodeScalarView()
        scalars.append(draw.pick(["a", "e", "o", "A", "i", "\u{3B1}", "\u{5D0}", " "]))
        for _ in 0..<draw.int(1...4) {
            let mark = draw.chance(0.8) ? draw.int(0x300...0x36F) : draw.pick([0x323, 0x345, 0x5B4, 0x20DD, 0x1DC0])
            if let scalar = Unicode.Scalar(mark) { scalars.append(scalar) }
        }
        return String(scalars)
    }

    static func ascii(_ draw: inout Draw) -> String {
        let length = draw.int(1...10)
        return String(String.UnicodeScalarView((0..<length).compactMap { _ in Unicode.Scalar(draw.int(0x20...0x7E)) }))
    }

    static func control(_ draw: inout Draw) -> Unicode.Scalar {
        let value = draw.chance(0.7) ? draw.int(0...0x1F) : draw.int(0x7F...0x9F)
        return Unicode.Scalar(value) ?? "\u{0}"
    }

    /// Any scalar: mostly from the basic plane, some astral; never a surrogate (no String holds one).
    static func scalar(_ draw: inout Draw) -> Unicode.Scalar {
        for _ in 0..<8 {
            let value = draw.chance(0.75) ? draw.int(0...0xFFFF) : draw.int(0x10000...0x10FFFF)
            if let scalar = Unicode.Scalar(value) { return scalar }
        }
        return "\u{FFFD}"
    }

    /// Five to fifty kilobytes of pieces.
    static func long(_ draw: inout Draw) -> String {
        let target = draw.int(5_000...50_000)
        var unit = ""
        for _ in 0..<draw.int(1...8) { unit += piece(&draw) }
        let repeats = max(1, target / max(1, unit.utf8.count))
        return String(repeating: unit, count: repeats) + piece(&draw)
    }
}
