import Foundation
import Testing
import TypedDefaults

/// How deep the JSON form nests: every value a suite may hold — 250 arrays and
/// dictionaries — reads back from the text it is written as, though the text may be twice as
/// deep; a value deeper than that is refused as the suite refuses it; and the parser's stack stays
/// bounded whatever the text.
@Suite struct JSONNestingTests {
    static let limit = 250

    /// `levels` arrays around `inner`.
    static func arrays(_ levels: Int, around inner: DefaultsStoredValue = .integer(1)) -> DefaultsStoredValue {
        (0..<levels).reduce(inner) { value, _ in .array([value]) }
    }

    /// `levels` dictionaries whose only key starts with `$`, each written `{"$dictionary": {…}}`.
    static func dollarDictionaries(_ levels: Int, around inner: DefaultsStoredValue) -> DefaultsStoredValue {
        (0..<levels).reduce(inner) { value, _ in .dictionary(["$k": value]) }
    }

    /// A date whose interval is not finite: `{"$date": {"$real": "inf"}}`, two levels of text.
    static let infiniteDate = DefaultsStoredValue.date(Date(timeIntervalSinceReferenceDate: .infinity))

    /// The deepest nesting of brackets in `text`, whose strings hold none.
    static func textDepth(_ text: String) -> Int {
        var (depth, deepest) = (0, 0)
        for character in text {
            if character == "[" || character == "{" { depth += 1 }
            if character == "]" || character == "}" { depth -= 1 }
            deepest = max(deepest, depth)
        }
        return deepest
    }

    @Test func aValueAsDeepAsASuiteHoldsReadsBackThoughItsTextIsTwiceAsDeep() throws {
        let values = [
            Self.arrays(Self.limit),
            Self.dollarDictionaries(Self.limit, around: Self.infiniteDate),
            Self.dollarDictionaries(Self.limit - 1, around: .dictionary(["__TypedDefaults.nil": .integer(0)])),
            Self.arrays(Self.limit - 1, around: .dictionary(["$date": .data(Data([1]))])),
        ]
        for value in values {
            for pretty in [false, true] {
                let text = value.json(pretty: pretty)
                #expect(try DefaultsStoredValue(json: text) == value, "\(text.prefix(60))")
            }
        }
        // 250 `$` dictionaries and the date in them: 502 levels of text.
        #expect(Self.textDepth(Self.dollarDictionaries(Self.limit, around: Self.infiniteDate).json()) == 502)
    }

    @Test func aValueDeeperThanASuiteHoldsIsRefusedAsTheSuiteRefusesIt() throws {
        let tooDeep = [
            String(repeating: "[", count: Self.limit + 1) + String(repeating: "]", count: Self.limit + 1),
            Self.dollarDictionaries(Self.limit + 1, around: .integer(1)).json(),
            // An explicit nil is its marker, a dictionary: one more level.
            String(repeating: "[", count: Self.limit) + "null" + String(repeating: "]", count: Self.limit),
            String(repeating: #"{"a":"#, count: 300) + "1" + String(repeating: "}", count: 300),
        ]
        for text in tooDeep {
            let error = try #require(throws: DefaultsStoredValue.FormatError.self) {
                try DefaultsStoredValue(json: text)
            }
            #expect(error.description == "it nests deeper than the 250 levels a suite may hold", "\(error)")
        }
    }

    /// A suite's object is not a level of its values: read as a suite, a value may nest 250 deep
    /// inside it; read as a value, the same text is one level too deep.
    @Test func aSuitesObjectIsNoLevelOfItsValues() throws {
        let suites: [[DefaultsStoredKey: DefaultsStoredValue]] = [
            ["deep": Self.arrays(Self.limit), "flat": .integer(1)],
            // A lone `$` key: the suite is written `{"$dictionary": {…}}` too, 504 levels.
            ["$only": Self.dollarDictionaries(Self.limit, around: Self.infiniteDate)],
        ]
        for values in suites {
            let text = DefaultsStoredValue.dictionary(values).json(pretty: true)
            #expect(Self.textDepth(text) <= 504)
            #expect(try DefaultsStoredValue(suiteJSON: text) == .dictionary(values))
            #expect(throws: DefaultsStoredValue.FormatError.self) { try DefaultsStoredValue(json: text) }
        }
        let tooDeep = DefaultsStoredValue.dictionary(["deep": Self.arrays(Self.limit + 1)]).json()
        #expect(throws: DefaultsStoredValue.FormatError.self) { try DefaultsStoredValue(suiteJSON: tooDeep) }
        // Text that is no dictionary is read as a value is, its own nesting counted.
        #expect(try DefaultsStoredValue(suiteJSON: #"{"$date": "2026-11-23"}"#).kind == .date)
        #expect(try DefaultsStoredValue(suiteJSON: Self.arrays(Self.limit).json()) == Self.arrays(Self.limit))
        #expect(throws: DefaultsStoredValue.FormatError.self) {
            try DefaultsStoredValue(suiteJSON: Self.arrays(Self.limit + 1).json())
        }
    }

    /// Text nested a million deep is refused where it passes the text's limit, at once: the
    /// parser never recurses deeper than that.
    @Test func textNestedAMillionDeepIsRefusedQuickly() throws {
        let million = 1_000_000
        let texts = [
            String(repeating: "[", count: million),
            String(repeating: #"{"a":"#, count: million),
            String(repeating: #"{"$dictionary":{"$k":"#, count: million),
        ]
        for text in texts {
            let start = ContinuousClock.now
            let asValue = try #require(throws: DefaultsStoredValue.FormatError.self) {
                try DefaultsStoredValue(json: text)
            }
            let asSuite = try #require(throws: DefaultsStoredValue.FormatError.self) {
                try DefaultsStoredValue(suiteJSON: text)
            }
            for error in [asValue, asSuite] {
                #expect(error.description.contains("nested too deeply at byte"), "\(error)")
            }
            #expect(ContinuousClock.now - start < .seconds(2))
        }
    }
}
