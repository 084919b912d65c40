import Foundation
import Testing

@testable import TypedDefaults
@testable import TypedDefaultsStorage

/// Keys are exact sequences of Unicode scalars everywhere: another program's `"caf\u{E9}"` and
/// `"cafe\u{301}"`, which Swift's `String` sees as equal, are two keys with two values, and every
/// kind of write keeps both.
@Suite struct ExactKeyTests {
    static let (nfc, nfd) = ("caf\u{E9}", "cafe\u{301}")

    /// What `plistlib` reads of a suite that holds both forms, as first written.
    static let bothForms = [
        #"'caf\xe9' 'one'"#, #"'cafe\u0301' 'two'"#, #"'inner' {'cafe\u0301': 2, 'caf\xe9': 1}"#,
    ]

    /// Python writes a suite with both forms, at the top and in a dictionary value.
    static func writeBothForms(to file: URL, format: String) async throws {
        let script = #"""
            import plistlib, sys
            nfc, nfd = "caf\u00e9", "cafe\u0301"
            d = {nfc: "one", nfd: "two", "inner": {nfc: 1, nfd: 2}}
            fmt = plistlib.FMT_XML if sys.argv[2] == "xml" else plistlib.FMT_BINARY
            open(sys.argv[1], "wb").write(plistlib.dumps(d, fmt=fmt))
            """#
        _ = try await Python.run(script, file.path, format)
    }

    /// Every kind of write of this process, of another key, leaves both forms as they were.
    @Test(
        .plistFilesOnly("`UserDefaults` keeps one of two keys that are equal as Swift strings"), .tags(.childProcess),
        .startsProcesses, arguments: ["xml", "binary"]) func everyKindOfWriteKeepsBothForms(
            format: String
        ) async throws
    {
        let suite = try TestSuite()
        try await Self.writeBothForms(to: suite.plistURL, format: format)
        let store = suite.store
        let immediate = store.durability(.immediate)
        let writes: [(String, () throws -> Void)] = [
            (
                "a coalesced write and a flush",
                {
                    UserDefault(wrappedValue: 0, "plain", store: store).wrappedValue = 1
                    try store.flush()
                }
            ),
            ("an immediate write", { UserDefault(wrappedValue: 0, "immediate", store: immediate).wrappedValue = 2 }),
            ("an update", { UserDefault(wrappedValue: 0, "counter", store: store).update { $0 += 1 } }),
            ("an edit of stored values", { try store.editStoredValues { $0["edited"] = .boolean(true) } }),
            ("a migration", { try store.migrate([.renameKey("plain", to: "renamed")]) }),
            (
                "a reset",
                {
                    store.reset(DefaultsKey<Int>("immediate", default: 0))
                    try store.flush()
                }
            ),
        ]
        for (name, write) in writes {
            try write()
            let entries = try await Python.entries(of: suite.plistURL)
            for expected in Self.bothForms {
                #expect(entries.contains(expected), "after \(name): \(entries)")
            }
        }
        // Each form reads its own value, and a write of one leaves the other.
        let precomposed = UserDefault(wrappedValue: "", Self.nfc, store: store)
        let decomposed = UserDefault(wrappedValue: "", Self.nfd, store: store)
        #expect(precomposed.wrappedValue == "one" && decomposed.wrappedValue == "two")
        precomposed.wrappedValue = "uno"
        try store.flush()
        let entries = try await Python.entries(of: suite.plistURL)
        #expect(entries.contains(#"'caf\xe9' 'uno'"#) && entries.contains(#"'cafe\u0301' 'two'"#), "\(entries)")
        #expect(decomposed.wrappedValue == "two")
        // The stored values and their JSON keep both.
        let values = try store.storedValues()
        #expect(values[DefaultsStoredKey(Self.nfd)] == .string("two"))
        guard case .dictionary(let inner)? = values["inner"] else {
            Issue.record("inner is \(String(describing: values["inner"]))")
            return
        }
        #expect(inner.count == 2)
        #expect(try DefaultsStoredValue(json: values["inner"]?.json() ?? "") == values["inner"])
    }

    /// A child process writes through the engine: the file keeps both forms, each with its value.
    /// (Plain `UserDefaults` cannot: corelibs keeps its domain as a Swift dictionary, and a `set`
    /// of one form replaces the other's value; see the StoresAndDurability article's "The Linux
    /// facts".)
    @Test(.tags(.childProcess), .startsProcesses) func anotherProcessesWritesKeepBothForms() async throws {
        let suite = try TestSuite()
        try await Self.writeBothForms(to: suite.plistURL, format: "binary")
        let touched = try await Probe.run("touch", suite.name)
        #expect(touched.status == 0, "\(touched.errors)")
        let entries = try await Python.entries(of: suite.plistURL)
        for expected in Self.bothForms { #expect(entries.contains(expected), "\(entries)") }
        #expect(entries.contains(#"'after' 'written'"#))
        // Read in this process, each form has its own value.
        #expect(UserDefault(wrappedValue: "", Self.nfd, store: suite.store).wrappedValue == "two")
        #expect(UserDefault(wrappedValue: "", Self.nfc, store: suite.store).wrappedValue == "one")
    }

    /// An observer of one form hears of that form's changes only, made by another program.
    @Test(
        .plistFilesOnly("`UserDefaults` keeps one of two keys that are equal as Swift strings"), .tags(.childProcess),
        .startsProcesses) func observersHearTheirOwnFormOnly() async throws
    {
        let suite = try TestSuite()
        try await Self.writeBothForms(to: suite.plistURL, format: "xml")
        let store = suite.store
        let precomposed = UserDefault(wrappedValue: "", Self.nfc, store: store)
        let decomposed = UserDefault(wrappedValue: "", Self.nfd, store: store)
        #expect(precomposed.wrappedValue == "one" && decomposed.wrappedValue == "two")
        let heardPrecomposed = Counter()
        let heardDecomposed = Counter()
        let first = precomposed.observe { _ in heardPrecomposed.increment() }
        let second = store.observe(keys: [Self.nfd]) { _ in heardDecomposed.increment() }
        defer {
            first.cancel()
            second.cancel()
        }
        // Python replaces the file, changing the decomposed form's value.
        let script = #"""
            import os, plistlib, sys
            with open(sys.argv[1], "rb") as f:
                d = plistlib.load(f)
            d["cafe\u0301"] = "zwei"
            open(sys.argv[1] + ".new", "wb").write(plistlib.dumps(d, fmt=plistlib.FMT_BINARY))
            os.rename(sys.argv[1] + ".new", sys.argv[1])
            """#
        _ = try await Python.run(script, suite.plistURL.path)
        let deadline = Date().addingTimeInterval(5)
        while heardDecomposed.value == 0, Date() < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(heardDecomposed.value == 1)
        #expect(decomposed.wrappedValue == "zwei")
        #expect(precomposed.wrappedValue == "one")
        #expect(heardPrecomposed.value == 0)
    }

    /// A value written over one that Swift's `==` takes for it — a string in the other
    /// normalization, `-0.0` over `0.0` — is a change, and is stored: before, every kind of write
    /// dropped it as unchanged (found by the fuzz-import target, Fuzz/README.md).
    @Test(.plistFilesOnly("corelibs `UserDefaults` writes a string as NFC, and -0.0 as 0"))
    func aWriteOfAnEqualLookingValueIsStored() throws {
        let suite = try TestSuite()
        let store = suite.store.durability(.immediate)
        try store.editStoredValues {
            $0["edited"] = .string(Self.nfc)
            $0["zero"] = .real(0)
        }
        try store.editStoredValues {
            $0["edited"] = .string(Self.nfd)
            $0["zero"] = .real(-0.0)
        }
        let typed = DefaultsKey<String>("typed", default: "")
        store[typed] = Self.nfc
        store[typed] = Self.nfd
        let file = try #require(try suite.fileBytes())
        let contents = try PropertyListReader.suiteContents(from: file)
        for key in ["edited", "typed"] {
            let stored = try #require(contents[DefaultsStoredKey(key)]?.object as? String)
            #expect(Array(stored.unicodeScalars) == Array(Self.nfd.unicodeScalars), "\(key)")
        }
        let zero = try #require(contents["zero"]?.object as? Double)
        #expect(zero == 0 && zero.sign == .minus)
    }

    @Test func storedKeysCompareAndSortByScalars() {
        let (nfc, nfd) = (DefaultsStoredKey(Self.nfc), DefaultsStoredKey(Self.nfd))
        #expect(Self.nfc == Self.nfd)
        #expect(nfc != nfd)
        #expect(Set([nfc, nfd, DefaultsStoredKey(Self.nfc)]).count == 2)
        #expect(nfd < nfc)  // "e" (0x65) before "é" (0xC3 0xA9 in UTF-8)
        #expect(String(reflecting: nfd) == #""cafe\u{301}""#)
        // A bridged string compares as its scalars too.
        let bridged = DefaultsStoredKey(NSString(string: Self.nfd) as String)
        #expect(bridged == nfd && bridged.hashValue == nfd.hashValue)
    }
}
