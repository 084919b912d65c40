import Foundation
import TypedDefaults

/// A secure-coding class nested in another type: corelibs' archiver cannot name it, so on Linux
/// the library refuses it (instead of letting the archiver kill the process).
enum RoundTripHolder {
    final class Nested: NSObject, NSSecureCoding, DefaultsValueConvertible {
        static var supportsSecureCoding: Bool { true }
        let name: String
        init(name: String) { self.name = name }
        func encode(with coder: NSCoder) { coder.encode(name as NSString, forKey: "name") }
        init?(coder: NSCoder) {
            guard let name = coder.decodeObject(of: NSString.self, forKey: "name") else { return nil }
            self.name = name as String
        }
    }
}

extension RoundTripFamily {
    /// Values the SupportedTypes article says are refused when written: each must be reported as
    /// `encodingFailed`, and the value stored before must stay.
    static var refused: [RoundTripFamily] {
        var families: [RoundTripFamily] = [
            .refusals("refused.duration", count: 30, generate: tooLongDuration, fingerprint: { $0.fingerprint }),
            .refusals(
                "refused.codable.nonFinite", count: 30, generate: nonFiniteRecord, fingerprint: { $0.fingerprint }),
            .refusals(
                "refused.measurement.nonFinite", count: 15,
                generate: { draw in
                    let valid = Measurement<UnitLength>.generate(&draw)
                    return (valid, Measurement(value: draw.pick([.nan, .infinity, -.infinity]), unit: valid.unit))
                }, fingerprint: { (value: Measurement<UnitLength>) in value.fingerprint }),
            .refusals(
                "refused.dictionary.duplicateKeys", count: 15,
                generate: { draw in
                    var refused = [Double: Int].generate(&draw).filter { !$0.key.isNaN }
                    // NaN is never equal to NaN: a dictionary holds each as a key of its own, and all are stored as "nan".
                    for index in 0..<draw.int(2...4) { refused[.nan] = index }
                    return ([Double: Int].generate(&draw).filter { !$0.key.isNaN }, refused)
                }, fingerprint: { (value: [Double: Int]) in value.fingerprint }),
            .refusals(
                "refused.nesting", count: 10,
                generate: { draw in
                    var deep = DefaultsStoredValue.string(String.generate(&draw))
                    for _ in 0..<draw.int(251...300) {
                        deep = draw.chance(0.5) ? .array([deep]) : .dictionary(["k": deep])
                    }
                    return (DefaultsStoredValue.generate(&draw), deep)
                }, fingerprint: { (value: DefaultsStoredValue) in value.fingerprint }),
            .refusals(
                "refused.nsArray", count: 10,
                generate: { draw in
                    let valid = RoundTripObjects.array(&draw)
                    let outsider: Any = draw.pick([NSNull(), Set([1, 2]) as Any, NSObject(), UUID()])
                    return (valid, NSArray(array: valid.adding(outsider)))
                }, fingerprint: { (value: NSArray) in DefaultsStoredValue.objectFingerprint(value) }),
        ]
        families.append(
            .refusals(
                "refused.timeZone.seconds", count: 15,
                generate: { draw in
                    // Whole minutes and a few seconds: no identifier names such an offset.
                    let valid = TimeZone.generate(&draw)
                    let seconds = 60 * draw.int(-1_079...1_079) + draw.pick([1, -1]) * draw.int(1...59)
                    return (valid, TimeZone(secondsFromGMT: seconds) ?? valid)
                }, fingerprint: { (zone: TimeZone) in zone.fingerprint }))
        #if os(Linux)
            families.append(
                .refusals(
                    "refused.secureCoding.nested", count: 5,
                    generate: { draw in
                        (RoundTripHolder.Nested(name: "valid"), RoundTripHolder.Nested(name: String.generate(&draw)))
                    }, fingerprint: { Fingerprint.text($0.name) }, validIsRefusedToo: true))
        #endif
        return families
    }

    /// A duration just or far beyond what `Int64` seconds hold, either way (the range is not
    /// symmetric: `Int64.min` seconds, less a fraction, is the shortest).
    private static func tooLongDuration(_ draw: inout Draw) -> (valid: Duration, refused: Duration) {
        let longest = Duration(secondsComponent: .max, attosecondsComponent: 999_999_999_999_999_999)
        let shortest = Duration(secondsComponent: .min, attosecondsComponent: -999_999_999_999_999_999)
        let attosecond = Duration(secondsComponent: 0, attosecondsComponent: 1)
        let beyond: Duration
        switch draw.int(0...3) {
        case 0: beyond = longest + attosecond
        case 1: beyond = longest + .seconds(Int64(draw.int(1...Int.max)))
        case 2: beyond = shortest - attosecond
        default: beyond = shortest - .seconds(Int64(draw.int(1...Int.max)))
        }
        return (Duration.generate(&draw), beyond)
    }

    /// A record with a NaN or an infinity, which JSON cannot hold.
    private static func nonFiniteRecord(_ draw: inout Draw) -> (valid: RoundTripRecord, refused: RoundTripRecord) {
        let valid = RoundTripRecord.generate(&draw)
        var refused = RoundTripRecord.generate(&draw)
        let nonFinite = draw.pick([Double.nan, .infinity, -.infinity])
        switch draw.int(0...3) {
        case 0: refused.ratio = nonFinite
        case 1: refused.single = Float(nonFinite)
        case 2: refused.scores["non-finite"] = nonFinite
        default:
            var inner = RoundTripInner.generate(&draw)
            inner.values.append(nonFinite)
            refused.children.append(inner)
        }
        return (valid, refused)
    }
}
