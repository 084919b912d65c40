import Foundation
import TypedDefaults

extension RoundTripFamily {
    /// Every family of the run, scalars first. Names are stable: they seed each value.
    static var all: [RoundTripFamily] {
        scalars + foundation + programTypes + collections + optionals + keys + outsideText + refused
    }

    static var scalars: [RoundTripFamily] {
        var families: [RoundTripFamily] = [
            .values("bool", Bool.self, count: 20),
            .values("int", Int.self, count: 60),
            .values("int8", Int8.self, count: 30),
            .values("int16", Int16.self, count: 30),
            .values("int32", Int32.self, count: 30),
            .values("int64", Int64.self, count: 40),
            .values("uint", UInt.self, count: 30),
            .values("uint8", UInt8.self, count: 30),
            .values("uint16", UInt16.self, count: 30),
            .values("uint32", UInt32.self, count: 30),
            .values("uint64", UInt64.self, count: 40),
            .values("double", Double.self, count: 150),
            .values("float", Float.self, count: 100),
            .values("string", String.self, count: 250),
            .values("data", Data.self, count: 40),
            .values("date", Date.self, count: 100),
            .values("url", URL.self, count: 100),
            .values("uuid", UUID.self, count: 30),
            .values("decimal", Decimal.self, count: 100),
            .values("character", Character.self, count: 100),
        ]
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            families += [.values("int128", Int128.self, count: 40), .values("uint128", UInt128.self, count: 40)]
        }
        return families
    }

    static var foundation: [RoundTripFamily] {
        [
            .values("range.int", Range<Int>.self, count: 30),
            .values("closedRange.double", ClosedRange<Double>.self, count: 30),
            .values("range.date", Range<Date>.self, count: 20),
            .values("closedRange.string", ClosedRange<String>.self, count: 30),
            .values("range.uint64", Range<UInt64>.self, count: 15),
            .values("closedRange.character", ClosedRange<Character>.self, count: 15),
            .values("range.decimal", Range<Decimal>.self, count: 15),
            .values("duration", Duration.self, count: 60),
            .values("locale", Locale.self, count: 40),
            .values("timeZone", TimeZone.self, count: 40),
            .values("indexPath", IndexPath.self, count: 30),
            .values("measurement.length", Measurement<UnitLength>.self, count: 40),
            .values("measurement.temperature", Measurement<UnitTemperature>.self, count: 20),
            .values("measurement.duration", Measurement<UnitDuration>.self, count: 20),
            .values("measurement.custom", Measurement<UnitEnergy>.self, count: 15),
            .values("dateComponents", DateComponents.self, count: 60),
            .values("cgFloat", CGFloat.self, count: 20),
            .values("cgPoint", CGPoint.self, count: 10),
            .values("cgSize", CGSize.self, count: 10),
            .values("cgRect", CGRect.self, count: 20),
        ]
    }

    static var programTypes: [RoundTripFamily] {
        [
            .values("enum.string", Channel.self, count: 15),
            .values("enum.int", Level.self, count: 15),
            .values("enum.character", RoundTripGlyph.self, count: 15),
            .values("enum.double", RoundTripRatio.self, count: 15),
            .values("enum.preferCodable", Quality.self, count: 10),
            .values("enum.preferCodableInt", Rank.self, count: 10),
            .values("codable", RoundTripRecord.self, count: 120),
            .values("codable.inner", RoundTripInner.self, count: 40),
            .values("secureCoding", RoundTripNote.self, count: 60),
            .values("secureCoding.swatch", Swatch.self, count: 20),
            .values("secureCodingAndCodable", Pin.self, count: 20),
            .values("preferSecureCoding", ArchivedPin.self, count: 20),
            .values("storedValue", DefaultsStoredValue.self, count: 100),
            .values(
                "nsString", count: 20, generate: { NSString(string: String.generate(&$0)) },
                fingerprint: { Fingerprint.text($0 as String) }, typedKey: nil),
            .values(
                "nsNumber", count: 30, generate: RoundTripObjects.number,
                fingerprint: DefaultsStoredValue.objectFingerprint,
                typedKey: nil),
            .values(
                "nsDate", count: 10,
                generate: { NSDate(timeIntervalSinceReferenceDate: Date.generate(&$0).timeIntervalSinceReferenceDate) },
                fingerprint: { ($0 as Date).fingerprint }, typedKey: nil),
            .values(
                "nsData", count: 10, generate: { NSData(data: Data.generate(&$0)) },
                fingerprint: { Fingerprint.data($0 as Data) }, typedKey: nil),
            .values(
                "nsURL", count: 20, generate: { URL.generate(&$0) as NSURL }, fingerprint: { ($0 as URL).fingerprint },
                typedKey: nil),
            .values(
                "nsArray", count: 20, generate: RoundTripObjects.array,
                fingerprint: DefaultsStoredValue.objectFingerprint,
                typedKey: nil),
            .values(
                "nsDictionary", count: 20, generate: RoundTripObjects.dictionary,
                fingerprint: DefaultsStoredValue.objectFingerprint,
                typedKey: nil),
            .values("conversion", Tenths.self, count: 10),
            .values("indirect", Celsius.self, count: 10),
            .values("customCollection", TagList.self, count: 20),
            .values("arrayCollection", Stack.self, count: 20),
        ]
    }
}
