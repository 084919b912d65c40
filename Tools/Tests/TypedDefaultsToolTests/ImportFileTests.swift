import Foundation
import Testing
import TypedDefaults
import TypedDefaultsToolSupport

/// The import's parsing as a fuzz target calls it: in this process, any bytes, a typed error.
@Suite struct ImportFileTests {
    @Test func jsonAndPropertyListsGiveTheirValues() throws {
        #expect(
            try ImportFile.values(in: Data(#" {"a": 1, "b": [true]}"#.utf8)) == [
                "a": .integer(1), "b": .array([.boolean(true)]),
            ])
        let xml = try PropertyListSerialization.data(fromPropertyList: ["s": "x"], format: .xml, options: 0)
        #expect(try ImportFile.values(in: xml) == ["s": .string("x")])
        let binary = try PropertyListSerialization.data(fromPropertyList: ["n": 2.5], format: .binary, options: 0)
        #expect(try ImportFile.values(in: binary) == ["n": .real(2.5)])
        #expect(try ImportFile.values(in: Data("{ o = 1; }".utf8)) == ["o": .string("1")])
    }

    @Test func eachWayAFileFailsIsItsOwnError() {
        let failures: [(Data, ImportFileError)] = [
            (Data([0x7B, 0xFF, 0x7D]), .notUTF8),
            (Data("not anything".utf8), .notPropertyList(reason: "")),
            (Data(), .notPropertyList(reason: "")),
            (Data("[1, 2]".utf8), .notPropertyList(reason: "")),
            (Data("( 1, 2 )".utf8), .notADictionary(found: "an array")),
            (Data("\"text\"".utf8), .notADictionary(found: "a string")),
            (Data(#"{"$date": "2026-11-23T10:00:00Z"}"#.utf8), .notADictionary(found: "a date")),
        ]
        for (data, expected) in failures {
            #expect("\(String(decoding: data, as: UTF8.self))") {
                try ImportFile.values(in: data)
            } throws: { error in
                // A property list's refusal says why; any reason is that case.
                switch (error as? ImportFileError, expected) {
                case (.notPropertyList(let reason)?, .notPropertyList): !reason.isEmpty
                default: error as? ImportFileError == expected
                }
            }
        }
        #expect {
            try ImportFile.values(in: Data("{".utf8))
        } throws: { error in
            guard case .notJSON(let reason) = error as? ImportFileError else { return false }
            return !reason.isEmpty
        }
    }
}
