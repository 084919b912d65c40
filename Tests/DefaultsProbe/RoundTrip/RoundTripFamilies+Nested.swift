import Foundation
import TypedDefaults

extension RoundTripFamily {
    /// Arrays, sets and dictionaries of every key kind the SupportedTypes article lists, nested in
    /// each other.
    static var collections: [RoundTripFamily] {
        var families: [RoundTripFamily] = [
            .values("array.int", [Int].self, count: 40),
            .values("array.array.string", [[String]].self, count: 40),
            .values("array.url", [URL].self, count: 30),
            .values("array.data", [Data].self, count: 20),
            .values("array.decimal", [Decimal].self, count: 20),
            .values("array.duration", [Duration].self, count: 20),
            .values("array.codable", [RoundTripRecord].self, count: 20),
            .values("array.closedRange", [ClosedRange<Int>].self, count: 15),
            .values("array.dateComponents", [DateComponents].self, count: 10),
            .values("array.measurement", [Measurement<UnitLength>].self, count: 10),
            .values("array.secureCoding", [RoundTripNote].self, count: 15),
            .values("array.dictionary.set.uuid", [[String: Set<UUID>]].self, count: 30),
            .values("set.string", Set<String>.self, count: 40),
            .values("set.double", Set<Double>.self, count: 20),
            .values("set.character", Set<Character>.self, count: 20),
            .values("set.array.int", Set<[Int]>.self, count: 20),
            .values("set.date", Set<Date>.self, count: 15),
            .values("set.url", Set<URL>.self, count: 15),
            .values("dictionary.string", [String: Int].self, count: 40),
            .values("dictionary.int", [Int: String].self, count: 40),
            .values("dictionary.int8", [Int8: Bool].self, count: 20),
            .values("dictionary.uint64", [UInt64: Double].self, count: 20),
            .values("dictionary.bool", [Bool: String].self, count: 15),
            .values("dictionary.double", [Double: Int].self, count: 30),
            .values("dictionary.float", [Float: String].self, count: 20),
            .values("dictionary.character", [Character: [URL]].self, count: 30),
            .values("dictionary.uuid", [UUID: Date].self, count: 30),
            .values("dictionary.enum.string", [Channel: [String?]].self, count: 30),
            .values("dictionary.enum.int", [Level: Decimal].self, count: 20),
            .values("dictionary.enum.character", [RoundTripGlyph: Data].self, count: 15),
            .values("dictionary.enum.double", [RoundTripRatio: Duration].self, count: 15),
            .values("dictionary.codable", [String: RoundTripRecord?].self, count: 20),
            .values("dictionary.nested", [String: [String: [Int?]]].self, count: 40),
            .values("dictionary.deep", [String: [String: [String: String]]].self, count: 20),
        ]
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            families.append(.values("dictionary.int128", [Int128: Set<Int>].self, count: 20))
        }
        return families
    }

    /// Optionals, nested optionals and optionals in collections, over nil and non-nil defaults.
    static var optionals: [RoundTripFamily] {
        [
            .values("optional.int", Int?.self, count: 40),
            .values("optional.optional.int", Int??.self, count: 50),
            .values("optional.optional.string", String??.self, count: 30),
            .values("optional.array.optional.string", [String?]?.self, count: 50),
            .values("array.optional.optional.int", [Int??].self, count: 30),
            .values("array.optional.array.optional.int", [[Int?]?].self, count: 20),
            .values("optional.double", Double?.self, count: 20),
            .values("optional.url", URL?.self, count: 20),
            .values("optional.optional.date", Date??.self, count: 20),
            .values("optional.codable", RoundTripRecord?.self, count: 20),
            .values("optional.dictionary", [String: Int?]?.self, count: 20),
            .values("optional.storedValue", DefaultsStoredValue?.self, count: 20),
        ]
    }

    static var outsideText: [RoundTripFamily] {
        [
            .outsideJSON("outside.codable", RoundTripRecord.self, count: 80),
            .outsideJSON("outside.codable.inner", RoundTripInner.self, count: 40),
            .outsideJSON("outside.dateComponents", DateComponents.self, count: 20),
            .storedValueJSON("outside.storedValue", count: 100),
        ]
    }
}
