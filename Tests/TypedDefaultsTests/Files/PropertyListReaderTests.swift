import Foundation
import Testing

@testable import TypedDefaults
@testable import TypedDefaultsStorage

/// The engine's own reader of property lists from outside: every format another program
/// writes, every key exactly as written, and bounded work whatever the bytes.
@Suite struct PropertyListReaderTests {
    /// A binary property list of hand-made objects (one-byte references and offsets), so tests
    /// can build files no writer would: shared containers, cycles, bad references.
    static func binary(_ objects: [[UInt8]], top: UInt8 = 0) -> Data {
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in objects {
            offsets.append(bytes.count)
            bytes += object
        }
        let tableOffset = bytes.count
        let offsetSize: UInt8 = tableOffset < 256 ? 1 : 2
        for offset in offsets {
            if offsetSize == 2 { bytes.append(UInt8(offset >> 8)) }
            bytes.append(UInt8(offset & 0xFF))
        }
        bytes += [0, 0, 0, 0, 0, 0, offsetSize, 1]
        bytes += [0, 0, 0, 0, 0, 0, 0, UInt8(objects.count)]
        bytes += [0, 0, 0, 0, 0, 0, 0, top]
        bytes += [0, 0, 0, 0, 0, 0, UInt8(tableOffset >> 8), UInt8(tableOffset & 0xFF)]
        return Data(bytes)
    }

    /// `n = [n, n]`, `levels` deep: 2^levels elements in a few bytes, as Python's `plistlib`
    /// writes a list that holds the same list twice.
    static func sharedArrays(levels: Int) -> Data {
        var objects: [[UInt8]] = (0..<levels).map { [0xA2, UInt8($0 + 1), UInt8($0 + 1)] }
        objects.append([0x10, 0x07])
        return binary(objects)
    }

    /// A suite whose one key holds ``sharedArrays(levels:)``.
    static func suiteBomb(levels: Int) -> Data {
        var objects: [[UInt8]] = [[0xD1, 1, 2], [0x51, UInt8(ascii: "k")]]
        objects += (0..<levels).map { [0xA2, UInt8($0 + 3), UInt8($0 + 3)] }
        objects.append([0x10, 0x07])
        return binary(objects)
    }

    /// `file` with the object count of its trailer replaced.
    static func withObjectCount(_ count: UInt64, _ file: Data) -> Data {
        var bytes = [UInt8](file)
        let field = (bytes.count - 24)..<(bytes.count - 16)
        bytes.replaceSubrange(field, with: (0..<8).map { UInt8(truncatingIfNeeded: count >> (56 - 8 * $0)) })
        return Data(bytes)
    }

    func read(_ data: Data) throws -> Any {
        try PropertyListReader.object(from: data)
    }

    func refusal(_ data: Data) -> String? {
        do {
            _ = try PropertyListReader.object(from: data)
            return nil
        } catch {
            return error.description
        }
    }

    @Test func whatTheWriterWritesReadsBackAsTheSameValues() throws {
        let contents = BinaryPropertyListTests.exact(BinaryPropertyListTests.samples)
        let read = try PropertyListReader.suiteContents(from: try BinaryPropertyList.data(contents))
        #expect(read.count == contents.count)
        for (key, value) in contents {
            #expect(StoredObject.same(read[key], Optional(value)), "\(key)")
        }
    }

    @Test func whatFoundationWritesReadsAsFoundationReadsIt() throws {
        // Without dates in XML (whole seconds there) and NaN (never equal), every sample.
        var samples = BinaryPropertyListTests.samples
        samples["date"] = Date(timeIntervalSinceReferenceDate: 800_000_000)
        samples["nan"] = nil
        for format in [PropertyListSerialization.PropertyListFormat.xml, .binary] {
            let data = try PropertyListSerialization.data(fromPropertyList: samples, format: format, options: 0)
            let ours = try PropertyListReader.suiteContents(from: data)
            let theirs = try #require(PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
            #expect(ours.count == theirs.count)
            for (key, value) in theirs {
                #expect(
                    StoredObject.same(ours[DefaultsStoredKey(key)], Optional(StoredObject(value))), "\(format) \(key)")
            }
        }
    }

    @Test func xmlAsWritersWriteIt() throws {
        func value(_ body: String) throws -> Any {
            try read(Data("<?xml version=\"1.0\" encoding=\"UTF-8\"?><plist version=\"1.0\">\(body)</plist>".utf8))
        }
        #expect(try value("<integer>0x10</integer>") as? Int == 16)
        #expect(try value("<integer>+5</integer>") as? Int == 5)
        #expect(try value("<integer>-9223372036854775808</integer>") as? Int == .min)
        #expect(try value("<integer>18446744073709551615</integer>") as? UInt64 == .max)
        #expect(try value("<real>-infinity</real>") as? Double == -.infinity)
        #expect(try (value("<real>nan</real>") as? Double)?.isNaN == true)
        #expect(try value("<real>.5</real>") as? Double == 0.5)
        #expect(try value("<true></true>") as? Bool == true)
        #expect(try value("<data> AA E= </data>") as? Data == Data([0, 1]))
        #expect(try value("<string>a&#0;b&lt;&#x1F600;<![CDATA[<x>]]></string>") as? String == "a\u{0}b<😀<x>")
        // corelibs writes control characters and NUL raw, which XML forbids: read as written.
        #expect(try value("<string>a\u{1}\u{0}\u{7F}b</string>") as? String == "a\u{1}\u{0}\u{7F}b")
        #expect(try value("<string a=\"b\">x</string >") as? String == "x")
        #expect(try value("<date>2020-01-01T00:00:00Z</date>") as? Date == Date(timeIntervalSince1970: 1_577_836_800))
        #expect(
            try value("<date>2020-01-01T00:00:00.25Z</date>") as? Date == Date(timeIntervalSince1970: 1_577_836_800.25))
        #expect(try read(Data("\u{FEFF}<dict><key>k</key><array/></dict>".utf8)) is [String: Any])
        // Empty elements, comments between elements.
        let dictionary = try #require(
            try value("<dict><!-- c --><key>a</key><dict/><key/><string/></dict>") as? [String: Any])
        #expect(dictionary.count == 2 && dictionary[""] as? String == "")
    }

    /// corelibs writes a year as it comes, `-028` or `10101`: each reads back as the same date.
    @Test func xmlDatesOfAnyYearAsCoreFoundationWritesThem() throws {
        let year = 365.2425 * 86_400
        let dates = [-3000.0, -2100, -2050, -2030, -2001.5, -2000.7, -1000, 0, 8100, 10_000, 200_000].map {
            Date(timeIntervalSinceReferenceDate: ($0 * year).rounded())
        }
        for date in dates {
            let data = try PropertyListSerialization.data(fromPropertyList: ["d": date], format: .xml, options: 0)
            let read = try PropertyListReader.suiteContents(from: data)
            #expect(read["d"]?.object as? Date == date, "\(String(decoding: data, as: UTF8.self))")
        }
    }

    @Test func xmlThatIsNoPropertyListIsRefused() {
        for body in [
            "<integer></integer>", "<integer>-9223372036854775809</integer>", "<integer> 5 </integer>",
            "<real>0x1p3</real>", "<date>2020-13-01T00:00:00Z</date>", "<data>AA<![CDATA[AA]]></data>",
            "<string>&#xD800;</string>", "<string>&foo;</string>", "<string>a<!-- c -->b</string>",
            "<dict><key>a</key></dict>", "<dict><string>a</string><true/></dict>", "<true/><false/>",
            "<ustring>x</ustring>", "<string>\u{FF}</string>",
        ] {
            var bytes = Array("<plist version=\"1.0\">".utf8) + Array(body.utf8) + Array("</plist>".utf8)
            if body == "<string>\u{FF}</string>" { bytes = Array("<string>".utf8) + [0xFF] + Array("</string>".utf8) }
            #expect(refusal(Data(bytes)) != nil, "\(body)")
        }
        #expect(refusal(Data("<?xml version=\"1.0\" encoding=\"UTF-16\"?><plist><true/></plist>".utf8)) != nil)
    }

    /// What corelibs reads that strict parsers refuse is read as corelibs reads it (each
    /// expectation measured with `PropertyListSerialization` on this toolchain): Base64 with
    /// stray characters, padding inside and a last group cut short; the encodings a declaration
    /// names that Python's `ElementTree` and corelibs write or convert; processing instructions
    /// anywhere between elements.
    @Test func xmlAsCorelibsReadsIt() throws {
        func data(_ base64: String) throws -> [UInt8] {
            try [UInt8](#require(read(Data("<plist><data>\(base64)</data></plist>".utf8)) as? Data))
        }
        #expect(try data("A@AE=") == [0, 1])
        #expect(try data("AA==AA==") == [0, 0])
        #expect(try data("A===") == [0])
        #expect(try data("QU=JD") == [65, 64, 9])
        #expect(try data("AB=C") == [0, 16, 2])
        #expect(try data("QUJDRA") == [65, 66, 67])
        #expect(try data("AAE") == [])
        #expect(try data("&#65;A") == [])
        let latin1 =
            Array("<?xml version='1.0' encoding='ISO-8859-1'?><!-- \u{E9} --><plist><dict><key>".utf8) + [0xE9]
            + Array("</key><string>Zo".utf8) + [0xEB, 0xFF] + Array("</string></dict></plist>".utf8)
        #expect(try read(Data(latin1)) as? [String: String] == ["\u{E9}": "Zo\u{EB}\u{FF}"])
        let ascii = "<?xml version=\"1.0\" encoding=\"us-ascii\"?><plist><string>Zo&#235;</string></plist>"
        #expect(try read(Data(ascii.utf8)) as? String == "Zo\u{EB}")
        for body in [
            "<?xml version=\"1.0\"?><?editor a?><plist><?b?><array><?c?><true/><?d ?></array><?e?></plist><?f?>",
            "<plist><dict><?x?><key>k</key><?y?><true/></dict></plist>",
        ] {
            let value = try read(Data(body.utf8))
            #expect(value as? [Bool] == [true] || value as? [String: Bool] == ["k": true], "\(body)")
        }
        // A declaration after the first element names no encoding. Other encodings are refused,
        // a documented choice: corelibs converts more (KOI8-R here).
        #expect(
            refusal(Data("<plist><?xml version=\"1.0\" encoding=\"latin1\"?><string>\u{E9}</string></plist>".utf8))
                == nil)
        #expect(refusal(Data("<?xml version=\"1.0\" encoding=\"koi8-r\"?><plist><true/></plist>".utf8)) != nil)
        // Corelibs' OpenStep octal escapes are bytes of the NeXTSTEP set; past \377 their low bits.
        let openStep = #"{ a = "\200\351\376"; b = "\501"; c = "\101"; }"#
        let strings = try #require(read(Data(openStep.utf8)) as? [String: String])
        #expect(strings == ["a": "\u{A0}\u{D8}\u{0}", "b": "A", "c": "A"])
    }

    /// Entities declared in a doctype are never expanded: no document grows as it is read.
    @Test func anXMLEntityBombIsRefusedAtOnce() {
        var doctype = "<!DOCTYPE plist [<!ENTITY a0 \"ha\">"
        for level in 1...30 { doctype += "<!ENTITY a\(level) \"&a\(level - 1);&a\(level - 1);\">" }
        doctype += "]>"
        let text = doctype + "<plist><dict><key>k</key><string>&a30;</string></dict></plist>"
        #expect(refusal(Data(text.utf8))?.contains("&a30;") == true)
    }

    @Test func openStepAsCoreFoundationReadsIt() throws {
        let text = """
            // a comment
            { name = "Ada \\"L\\" \\U00e9\\n\\101"; bare = a_b$c/d:e.f-g+1; data = <00 ff 7F>;
              list = (one, "two", (), ); nested = { }; /* another */ }
            """
        let value = try #require(try read(Data(text.utf8)) as? [String: Any])
        #expect(value["name"] as? String == "Ada \"L\" é\nA")
        #expect(value["bare"] as? String == "a_b$c/d:e.f-g+1")
        #expect(value["data"] as? Data == Data([0, 255, 127]))
        #expect((value["list"] as? [Any])?.count == 3)
        let strings = try #require(try read(Data("a = b; \"c d\" = (e);".utf8)) as? [String: Any])
        #expect(strings["a"] as? String == "b" && strings.count == 2)
        for refused in ["{ a = b }", "( a b )", "<0f0>", "\"\\UD800\"", "{ a = b; } c"] {
            #expect(refusal(Data(refused.utf8)) != nil, "\(refused)")
        }
    }

    /// Another program's keys that differ only in their normalization are kept apart: at the
    /// top of a suite, and in a dictionary value, in every format.
    @Test func keysEqualAsSwiftStringsStayTwo() throws {
        let (nfc, nfd) = ("caf\u{E9}", "cafe\u{301}")
        let xml = """
            <plist><dict><key>\(nfc)</key><string>one</string><key>\(nfd)</key><string>two</string>
            <key>inner</key><dict><key>\(nfc)</key><integer>1</integer><key>\(nfd)</key><integer>2</integer></dict>
            </dict></plist>
            """
        let openStep = "{ \"\(nfc)\" = one; \"\(nfd)\" = two; inner = { \"\(nfc)\" = 1; \"\(nfd)\" = 2; }; }"
        let fromXML = try PropertyListReader.suiteContents(from: Data(xml.utf8))
        let fromOpenStep = try PropertyListReader.suiteContents(from: Data(openStep.utf8))
        let fromBinary = try PropertyListReader.suiteContents(from: try BinaryPropertyList.data(fromXML))
        for contents in [fromXML, fromOpenStep, fromBinary] {
            #expect(contents.count == 3)
            #expect(contents[DefaultsStoredKey(nfc)]?.object as? String == "one")
            #expect(contents[DefaultsStoredKey(nfd)]?.object as? String == "two")
            let inner = try #require(contents["inner"]?.object as? StoredObject.ExactDictionary)
            #expect(inner.entries.count == 2)
            // A typed read of it cannot hold both: a mismatch, never one of them silently.
            #expect(StoredObject.dictionary(inner) == nil)
        }
        #expect(StoredObject.same(fromXML["inner"], fromBinary["inner"]))
    }

    @Test func sharedObjectsAreCountedAtEachReference() throws {
        // 2^40 elements in 224 bytes: refused before anything is decoded.
        let bomb = Self.sharedArrays(levels: 40)
        #expect(bomb.count < 300)
        #expect(refusal(bomb)?.contains("elements") == true)
        // 18 levels, 2^18 elements: past what 8 per byte allows for a file of 130 bytes.
        #expect(refusal(Self.sharedArrays(levels: 18))?.contains("elements") == true)
        // Shared scalars, as CoreFoundation writes equal strings once: read, each reference.
        let sharedString = Self.binary([[0xA3, 1, 1, 1], [0x53] + Array("abc".utf8)])
        #expect(try read(sharedString) as? [String] == ["abc", "abc", "abc"])
        // A few levels of shared arrays are within the limit, and decode to equal values.
        let small = try #require(try read(Self.sharedArrays(levels: 3)) as? [Any])
        #expect(small.count == 2)
    }

    @Test func binaryFilesNoWriterMakesAreRefused() {
        let refused: [(String, Data)] = [
            ("a cycle", Self.binary([[0xA1, 0]])),
            ("a reference past the objects", Self.binary([[0xA1, 5]])),
            ("a lone surrogate", Self.binary([[0x61, 0xD8, 0x00]])),
            ("an ASCII string with a high byte", Self.binary([[0x51, 0xE9]])),
            ("a UID", Self.binary([[0x80, 0x01]])),
            ("a null", Self.binary([[0x00]])),
            ("a dictionary keyed by a number", Self.binary([[0xD1, 1, 1], [0x10, 0x01]])),
            (
                "a 128-bit integer beyond 64 bits",
                Self.binary([[0x14] + [0, 0, 0, 0, 0, 0, 0, 1] + [UInt8](repeating: 0, count: 8)])
            ),
            ("a count past the end", Self.binary([[0x5F, 0x10, 0xFF, 0x61]])),
            ("a root past the objects", Self.binary([[0x09]], top: 3)),
            ("a trailer alone", Data(Array("bplist00".utf8) + [UInt8](repeating: 0, count: 32))),
            // Crashed the process (an overflow adding the count to the header's size): found by
            // the fuzz-binary-plist target, Fuzz/README.md.
            ("a trailer naming 2^64 - 4 objects", Self.withObjectCount(UInt64.max - 3, Self.binary([[0x09]]))),
        ]
        for (name, data) in refused {
            #expect(refusal(data) != nil, "\(name)")
        }
        // A UID is read where a keyed archive allows one.
        #expect(
            (try? PropertyListReader.object(from: Self.binary([[0x80, 0x07]]), allowingUIDs: true)) as? ArchiveUID
                == ArchiveUID(value: 7))
    }

    /// Nesting as deep as a file's bytes allow ends in a refusal, never in a stack overflow.
    @Test func deepNestingIsRefusedInEveryFormat() {
        let depth = 100_000
        let xml = String(repeating: "<array>", count: depth) + String(repeating: "</array>", count: depth)
        let openStep = String(repeating: "(", count: depth) + String(repeating: ")", count: depth)
        for data in [Data(xml.utf8), Data(openStep.utf8)] {
            #expect(refusal(data)?.contains("nests deeper") == true)
        }
        // A chain of 600 arrays, two-byte references: built with the writer's layout by hand.
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        for index in 0..<600 {
            offsets.append(bytes.count)
            bytes += index < 599 ? [0xA1, UInt8((index + 1) >> 8), UInt8((index + 1) & 0xFF)] : [0x09]
        }
        let table = bytes.count
        for offset in offsets { bytes += [UInt8(offset >> 8), UInt8(offset & 0xFF)] }
        bytes += [0, 0, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 0, 0, 0x02, 0x58, 0, 0, 0, 0, 0, 0, 0, 0]
        bytes += [0, 0, 0, 0, 0, 0, UInt8(table >> 8), UInt8(table & 0xFF)]
        #expect(refusal(Data(bytes))?.contains("nests deeper") == true)
    }
}
