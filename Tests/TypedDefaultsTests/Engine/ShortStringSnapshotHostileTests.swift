import Foundation
import Testing
import TypedDefaultsStorage

@testable import TypedDefaults

/// A plain class's property: its reads take the inlined cached path of the enclosing instance.
private final class Profile: @unchecked Sendable {  // only read and written through its store
    @UserDefault var motto: String

    init(store: DefaultsStore) {
        _motto = UserDefault(wrappedValue: "fallback", "motto", store: store)
    }
}

/// A reference whose release a copy that skipped its retain would outlive.
private final class Name: Sendable {
    let text: String
    init(_ text: String) { self.text = text }
}

/// Two words that are not a `String`, and not trivial: two references.
private struct NamePair: DefaultsValueConvertible, Equatable, Sendable {
    let first: Name
    let second: Name

    init(_ first: String, _ second: String) {
        self.first = Name(first)
        self.second = Name(second)
    }

    init(defaultsRepresentation: String) throws {
        let parts = defaultsRepresentation.split(separator: "|", omittingEmptySubsequences: false)
        guard parts.count == 2 else { throw CocoaError(.coderReadCorrupt) }
        self.init(String(parts[0]), String(parts[1]))
    }

    func defaultsRepresentation() throws -> String { first.text + "|" + second.text }

    static func == (lhs: NamePair, rhs: NamePair) -> Bool {
        lhs.first.text == rhs.first.text && lhs.second.text == rhs.second.text
    }
}

/// A `String` in a struct of its own: the same two words, another type.
private struct Wrapped: DefaultsValueConvertible, Equatable, Sendable {
    var text: String
    init(_ text: String) { self.text = text }
    init(defaultsRepresentation: String) { text = defaultsRepresentation }
    func defaultsRepresentation() -> String { text }
}

/// Texts around the 15 UTF-8 bytes a string's own two words hold: ASCII, two- and four-byte
/// characters, NUL bytes, and long ones of each.
private let texts: [String] = [
    "", "a", "\u{0}", "fourteen bytes", "fifteen bytes!!", "sixteen bytes!!!", "ééééééé" + "a", "éééééééé",
    "💾💾💾abc", "💾💾💾💾", String(repeating: "\u{0}", count: 15), String(repeating: "\u{0}", count: 16),
    "a\u{0}b\u{0}c", String(repeating: "settings that stay ", count: 4), String(repeating: "ü", count: 40),
]

/// Each text as a program may come by it, made afresh on every call, so that the caller holds
/// its only reference: a literal, built at run time, with storage reserved, cut from a longer
/// string, bridged through `NSString`, decoded from JSON or a property list (Foundation's coders,
/// its serialization, the engine's own reader), and from `Data`.
private func stringMakers() -> [(origin: String, make: @Sendable () -> String)] {
    var makers: [(origin: String, make: @Sendable () -> String)] = []
    for (index, text) in texts.enumerated() {
        func add(_ origin: String, _ make: @escaping @Sendable () -> String) {
            makers.append(("text \(index) (\(text.utf8.count) bytes), \(origin)", make))
        }
        add("literal") { text }
        add("decoded") { String(decoding: Array(text.utf8), as: UTF8.self) }
        add("appended") {
            var built = ""
            for scalar in text.unicodeScalars { built.unicodeScalars.append(scalar) }
            return built
        }
        add("reserved") {
            var reserved = ""
            reserved.reserveCapacity(64)
            reserved.append(contentsOf: text)
            return reserved
        }
        add("substring") { String(("<" + text + ">").dropFirst().dropLast()) }
        add("NSString") { NSString(string: text).substring(from: 0) }
        add("NSString appending") { NSString(string: "").appending(text) }
        add("JSON") {
            let data = (try? JSONEncoder().encode([text])) ?? Data()
            let decoded: [String]? = try? JSONDecoder().decode([String].self, from: data)
            return decoded?.first ?? "JSON failed"
        }
        add("property-list coder") {
            let data = (try? PropertyListEncoder().encode([text])) ?? Data()
            let decoded: [String]? = try? PropertyListDecoder().decode([String].self, from: data)
            return decoded?.first ?? "coder failed"
        }
        add("property-list serialization") {
            let data = try? PropertyListSerialization.data(fromPropertyList: [text], format: .binary, options: 0)
            let read = data.flatMap { try? PropertyListSerialization.propertyList(from: $0, format: nil) }
            return (read as? [String])?.first ?? "serialization failed"
        }
        add("engine's reader") {
            let data = try? BinaryPropertyList.data(object: [text])
            let read = data.flatMap { try? PropertyListReader.object(from: $0) }
            return (read as? [String])?.first ?? "reader failed"
        }
        add("Data") { String(data: Data(text.utf8), encoding: .utf8) ?? "Data failed" }
    }
    return makers
}

/// Allocates and keeps strings of the sizes a freed string's storage had, so that a read of
/// freed storage would read these bytes instead.
private func reuseFreedMemory() -> [String] {
    (0..<4000).map { String(repeating: "#", count: 16 + $0 % 96) }
}

/// Runs each body on a thread of its own, all at once; returns once every one has ended.
private func onThreads(_ bodies: [@Sendable () -> Void]) {
    let group = DispatchGroup()
    for body in bodies {
        group.enter()
        Thread {
            body()
            group.leave()
        }.start()
    }
    group.wait()
}

/// The lock-free copy of the cache holds a `String` only when its two words are the whole
/// string, and reads it back without a retain. Attacked here: strings of every origin and length
/// around 15 bytes, other two-word types that are not trivial, reads kept while the key
/// changes, is reset, or is rewritten by another program, and readers racing writers that
/// switch a key between short and long strings.
@Suite struct ShortStringSnapshotHostileTests {
    #if !canImport(Darwin)
        /// Whether `T` is kept out of the copy: not held, no words for `value`, and boxed when
        /// cached.
        private static func isKeptOut<T>(_ value: T) -> Bool {
            !CacheSnapshot.holds(T.self, identifiedBy: ObjectIdentifier(T.self))
                && CacheSnapshot.words(of: value) == nil && CachedDecode(value).box != nil
        }

        /// Only `String` itself is told apart as a string: the other types of two words that hold
        /// references (an optional string, a character, a struct of two references, a wrapped
        /// string, a string's views) are boxed, even when their bytes look like a short string's.
        @Test func noOtherTwoWordTypeIsTakenForAString() {
            // The types of the attack are the size of a string: otherwise they prove nothing.
            #expect(MemoryLayout<String?>.size == 16)
            #expect(MemoryLayout<Character>.size == 16)
            #expect(MemoryLayout<NamePair>.size == 16)
            #expect(MemoryLayout<Wrapped>.size == 16)
            #expect(MemoryLayout<String.UTF8View>.size == 16)
            #expect(Self.isKeptOut(String?.some("short")), "String?")
            #expect(Self.isKeptOut(String?.none), "String? nil")
            #expect(Self.isKeptOut(Character("é")), "Character")
            #expect(Self.isKeptOut(NamePair("a", "b")), "two references")
            #expect(Self.isKeptOut(Wrapped("short")), "a wrapped string")
            #expect(Self.isKeptOut("short".utf8), "a UTF-8 view")
            #expect(Self.isKeptOut("short".unicodeScalars), "a scalar view")
            #expect(Self.isKeptOut(Substring("short")), "Substring")
            #expect(Self.isKeptOut(DefaultsStoredKey("short")), "a stored key")
            #expect(Self.isKeptOut(["a": 1] as [String: Int]?), "[String: Int]?")
            #expect(Self.isKeptOut(["a"] as [String]?), "[String]?")
            #expect(Self.isKeptOut(Optional(Optional("short"))), "String??")
            #expect(Self.isKeptOut((Name("a"), Name("b"))), "a tuple of references")
            #expect(Self.isKeptOut(NSString(string: "short")), "NSString")
        }

        /// A short string cached as another type's value is no `String` to a read: the slot
        /// answers a read as `String` from neither its box nor its words, and the copy sends it
        /// to the lock.
        @Test func aStringCachedAsAnotherTypeIsNotReadAsAString() {
            let slot = KeySlot(key: "k")
            let identifier = ObjectIdentifier(String.self)
            slot.cache(CachedDecode(String?.some("short")))
            #expect(slot.decoded != nil, "an optional string is boxed")
            #expect(slot.cachedValue(as: String?.self) == "short")
            #expect(slot.cachedValue(as: String.self) == nil)
            #expect(slot.snapshot.read(as: String.self, identifiedBy: identifier) == nil)
            slot.cache(CachedDecode(Wrapped("short")))
            #expect(slot.cachedValue(as: String.self) == nil)
            #expect(slot.snapshot.read(as: String.self, identifiedBy: identifier) == nil)
            slot.cache(CachedDecode("short"))
            #expect(slot.cachedValue(as: String?.self) == nil, "the words are a String's only")
            #expect(slot.cachedValue(as: Wrapped.self) == nil)
            #expect(
                slot.snapshot.read(as: String?.self, identifiedBy: ObjectIdentifier(String?.self)) == nil)
        }

        /// A string is copied only when it has no storage: never one longer than 15 bytes, never
        /// one whose storage was reserved, whatever made it; and what is copied reads back whole.
        @Test func onlyAStringWithoutStorageIsCopiedWhateverMadeIt() {
            var copied = 0
            for (origin, make) in stringMakers() {
                let string = make()
                let expected = Array(string.utf8)
                guard let words = CacheSnapshot.words(of: string) else { continue }
                copied += 1
                let hasStorage = expected.count > 15 || origin.hasSuffix("reserved")
                #expect(!hasStorage, "\(origin): a string with storage copied without a retain")
                // Its words hold a reference no retain counted: made a string, it would free it.
                guard !hasStorage else { continue }
                #expect(CacheSnapshot.isShortString(words))
                #expect(Array(CacheSnapshot.value(of: words, as: String.self).utf8) == expected, "\(origin)")
            }
            #expect(copied > 0, "no string was copied: the copy's string path went untested")
        }

        /// A short string read from the copy while the copy changes is either the string that
        /// was there, or no answer: a change in progress, or a copy that holds another type.
        @Test func aCopyBeingChangedNeverAnswersWithAString() {
            let snapshot = CacheSnapshot()
            let identifier = ObjectIdentifier(String.self)
            snapshot.store(CacheSnapshot.words(of: "first"), of: identifier)
            let even = snapshot.sequence.load(ordering: .relaxed)
            snapshot.sequence.store(even + 1, ordering: .relaxed)
            #expect(snapshot.read(as: String.self, identifiedBy: identifier) == nil)
            snapshot.sequence.store(even + 2, ordering: .relaxed)
            guard case .value(let read)? = snapshot.read(as: String.self, identifiedBy: identifier) else {
                Issue.record("no value read")
                return
            }
            #expect(read == "first")
            snapshot.store(CacheSnapshot.words(of: 7), of: ObjectIdentifier(Int.self))
            #expect(snapshot.read(as: String.self, identifiedBy: identifier) == nil, "an Int's words")
            snapshot.disable()
            snapshot.store(CacheSnapshot.words(of: "after"), of: identifier)
            #expect(snapshot.read(as: String.self, identifiedBy: identifier) == nil, "a disabled copy")
        }
    #endif

    /// A string read from the store stays the string it was after the key changes, is reset,
    /// and the memory of every value since is reused: a read that skipped a retain would read
    /// freed storage. Through a handle, a typed key and a class's property, for strings of every
    /// origin.
    @Test func aStringReadOutlivesEveryLaterChangeOfTheKey() {
        let store = DefaultsStore.inMemory()
        let handle = UserDefault(wrappedValue: "fallback", "motto", store: store)
        let key = DefaultsKey<String>("motto", default: "fallback")
        let profile = Profile(store: store)
        var reads: [(origin: String, expected: [UInt8], read: String)] = []
        for (index, (origin, make)) in stringMakers().enumerated() {
            let expected: [UInt8]
            do {
                let written = make()
                expected = Array(written.utf8)
                switch index % 3 {
                case 0: handle.wrappedValue = written
                case 1: store[key] = written
                default: profile.motto = written
                }
            }
            // Each read twice: the first may decode, the second is the cached read.
            for _ in 0..<2 {
                reads.append(("\(origin), handle", expected, handle.wrappedValue))
                reads.append(("\(origin), key", expected, store[key]))
                reads.append(("\(origin), property", expected, profile.motto))
            }
        }
        handle.reset()
        #expect(profile.motto == "fallback")
        let reused = reuseFreedMemory()
        for read in reads {
            #expect(Array(read.read.utf8) == read.expected, "\(read.origin)")
        }
        #expect(reused.count == 4000)
    }

    /// Two words of references that are no `String` are retained by every read: a read kept
    /// past the next write, and past the release of every other copy of the value, is whole.
    @Test func aTwoReferenceValueReadOutlivesTheKeysChange() {
        let store = DefaultsStore.inMemory()
        let pair = UserDefault(wrappedValue: NamePair("", ""), "pair", store: store)
        let wrapped = UserDefault(wrappedValue: Wrapped(""), "wrapped", store: store)
        var reads: [(expected: String, pair: NamePair, wrapped: Wrapped)] = []
        for round in 0..<200 {
            let text = round % 2 == 0 ? "r\(round)" : String(repeating: "long \(round) ", count: 5)
            do {
                pair.wrappedValue = NamePair(String(decoding: Array(text.utf8), as: UTF8.self), text + "!")
                wrapped.wrappedValue = Wrapped(String(decoding: Array(text.utf8), as: UTF8.self))
            }
            reads.append((text, pair.wrappedValue, wrapped.wrappedValue))
            reads.append((text, pair.wrappedValue, wrapped.wrappedValue))
        }
        pair.reset()
        wrapped.reset()
        let reused = reuseFreedMemory()
        for read in reads {
            #expect(read.pair.first.text == read.expected && read.pair.second.text == read.expected + "!")
            #expect(read.wrapped.text == read.expected)
        }
        #expect(reused.count == 4000)
    }

    /// A key written as one type and read as another of two words sees the stored value as
    /// that type: a `String` written is a `String?`, a `Character` and a wrapped string, and
    /// the reads in turn leave a `String` read whole.
    @Test func oneKeyReadAsEveryTwoWordTypeReadsTheStoredValue() {
        let store = DefaultsStore.inMemory()
        let text = UserDefault(wrappedValue: "fallback", "shared", store: store)
        let optional = UserDefault<String?>("shared", store: store)
        let character = UserDefault(wrappedValue: Character("?"), "shared", store: store)
        let wrapped = UserDefault(wrappedValue: Wrapped("fallback"), "shared", store: store)
        for value in ["é", "short", "fifteen bytes!!", "sixteen bytes!!!", String(repeating: "long ", count: 9)] {
            text.wrappedValue = String(decoding: Array(value.utf8), as: UTF8.self)
            for _ in 0..<2 {
                #expect(text.wrappedValue == value)
                #expect(optional.wrappedValue == value)
                #expect(wrapped.wrappedValue == Wrapped(value))
                #expect(character.wrappedValue == (value.count == 1 ? value.first : Character("?")))
                #expect(text.wrappedValue == value)
            }
        }
        optional.wrappedValue = nil
        #expect(text.wrappedValue == "fallback")
        #expect(wrapped.wrappedValue == Wrapped("fallback"))
    }

    /// What "nothing stored" and a stored string read as stay apart: the empty string (whose
    /// first word is zero), NUL bytes, and after a reset, a removal of every key and a stored
    /// initial value, the default or the initial value, never the string of before.
    @Test func resetsRemovalsAndEmptyStringsReadAsStored() {
        let store = DefaultsStore.inMemory()
        let short = UserDefault(wrappedValue: "fb", "short", store: store)
        let long = UserDefault(wrappedValue: String(repeating: "fallback ", count: 4), "long", store: store)
        let optional = UserDefault<String?>("short", store: store)
        for value in ["", "\u{0}", "x", String(repeating: "\u{0}", count: 15)] {
            short.wrappedValue = value
            long.wrappedValue = value
            #expect(short.wrappedValue == value && short.wrappedValue.utf8.count == value.utf8.count)
            #expect(long.wrappedValue == value)
            #expect(optional.wrappedValue == value)
            #expect(short.hasStoredValue)
            short.reset()
            #expect(short.wrappedValue == "fb")
            #expect(optional.wrappedValue == nil)
            #expect(!short.hasStoredValue)
            short.wrappedValue = value
            store.removeAll()
            #expect(short.wrappedValue == "fb")
            #expect(long.wrappedValue == String(repeating: "fallback ", count: 4))
        }
        let initial = DefaultsKey<String>("initial", initialValue: "first run")
        #expect(store[initial] == "first run")
        store[initial] = "changed"
        #expect(store[initial] == "changed")
        store.reset(initial)
        #expect(store[initial] == "first run", "a reset key takes its initial value again")
        #expect(store[initial] == "first run")
    }

    /// Strings another program stored in the suite's file (NUL bytes, 15 and 16 bytes, non-ASCII)
    /// read back whole, and a read kept across the file's next change stays the string it was.
    @Test(.plistFilesOnly("the test writes the suite's file itself"))
    func stringsFromTheFileReadWholeAndOutliveItsNextChange() throws {
        let suite = try TestSuite()
        let store = suite.store.durability(.coalesced(within: .seconds(60)))
        try rewriteAsAnotherProgram(suite.plistURL) { contents in
            for (index, text) in texts.enumerated() { contents["text\(index)"] = text }
        }
        let handles = texts.indices.map { UserDefault(wrappedValue: "fallback", "text\($0)", store: store) }
        let optionals = texts.indices.map { UserDefault<String?>("text\($0)", store: store) }
        var reads: [(expected: String, read: String)] = []
        for (index, text) in texts.enumerated() {
            reads.append((text, handles[index].wrappedValue))
            reads.append((text, handles[index].wrappedValue))
            #expect(optionals[index].wrappedValue == text)
        }
        try rewriteAsAnotherProgram(suite.plistURL) { contents in
            for index in texts.indices { contents["text\(index)"] = texts[texts.count - 1 - index] }
        }
        store.refresh()
        for (index, handle) in handles.enumerated() {
            #expect(Array(handle.wrappedValue.utf8) == Array(texts[texts.count - 1 - index].utf8), "text\(index)")
        }
        try rewriteAsAnotherProgram(suite.plistURL) { $0 = [:] }
        store.refresh()
        #expect(handles.allSatisfy { $0.wrappedValue == "fallback" })
        let reused = reuseFreedMemory()
        for read in reads { #expect(Array(read.read.utf8) == Array(read.expected.utf8)) }
        #expect(reused.count == 4000)
    }

    /// Readers racing a writer that switches one key between short strings and long ones made
    /// afresh (so that the cache's box holds the only reference to each), resets, removes every
    /// key and refreshes: every read is a string that was written, or the default, and stays so
    /// after its value's storage is freed. Read as `String` (the copy), `String?` (the lock) and
    /// a class's property at once.
    @Test func readersRacingAWriterOfShortAndLongStringsReadOnlyWrittenOnes() throws {
        let suite = try TestSuite()
        let store = suite.store.durability(.coalesced(within: .milliseconds(2)))
        let templates = [
            "", "a", "fifteen bytes!!", "sixteen bytes!!!", "ééééééé" + "a", "éééééééé", "\u{0}",
            String(repeating: "a long one with storage ", count: 3), String(repeating: "💾", count: 20),
        ]
        let allowed = Set(templates + ["fallback"])
        let handle = UserDefault(wrappedValue: "fallback", "motto", store: store)
        let optional = UserDefault<String?>("motto", store: store)
        let profile = Profile(store: store)
        let rounds = isThreadSanitized ? 4_000 : 40_000
        let done = Locked(false)
        let problems = Locked<[String]>([])
        let writer: @Sendable () -> Void = {
            for round in 0..<rounds {
                switch round % 13 {
                case 0: handle.reset()
                case 1 where round % 1_001 == 1: store.removeAll()
                case 2 where round % 4_001 == 2: store.refresh()
                default:
                    let template = templates[round % templates.count]
                    handle.wrappedValue = String(decoding: Array(template.utf8), as: UTF8.self)
                }
            }
            done.withLock { $0 = true }
        }
        let reader: @Sendable (Int) -> Void = { kind in
            var found: [String] = []
            var kept: [String] = []
            var reads = 0
            while !done.read({ $0 }) || reads < 1_000 {
                for _ in 0..<50 {
                    let read: String
                    switch kind {
                    case 0: read = handle.wrappedValue
                    case 1: read = optional.wrappedValue ?? "fallback"
                    default: read = profile.motto
                    }
                    if !allowed.contains(read) { found.append("read \(read.debugDescription)") }
                    kept.append(read)
                    if kept.count > 64 { kept.removeFirst() }
                }
                reads += 50
            }
            // Kept across thousands of later writes: each still one of the strings written.
            for read in kept where !allowed.contains(read) { found.append("kept \(read.debugDescription)") }
            problems.withLock { $0 += found }
        }
        onThreads([writer, { reader(0) }, { reader(1) }, { reader(2) }, { reader(0) }])
        let found = problems.read { $0 }
        #expect(found.isEmpty, "\(found.count) bad reads, such as \(found.prefix(3))")
        let last = handle.wrappedValue
        #expect(optional.wrappedValue ?? "fallback" == last)
        #expect(profile.motto == last)
    }

    /// Another program rewriting the suite's file, between a short string and a long one, while
    /// readers read the key and this process takes each file in: every read is one of the two,
    /// or the default, and the last file's string is what every handle reads in the end.
    @Test(.plistFilesOnly("the test writes the suite's file itself"))
    func readersWhileAnotherProgramRewritesTheFileReadOnlyItsStrings() throws {
        let suite = try TestSuite()
        let store = suite.store
        let url = suite.plistURL
        let strings = ["short one", String(repeating: "a long string from the file ", count: 2)]
        let allowed = Set(strings + ["fallback"])
        let handle = UserDefault(wrappedValue: "fallback", "motto", store: store)
        let profile = Profile(store: store)
        _ = handle.wrappedValue
        let rounds = isThreadSanitized ? 60 : 300
        let done = Locked(false)
        let problems = Locked<[String]>([])
        let otherProgram: @Sendable () -> Void = {
            do {
                for round in 0..<rounds {
                    try rewriteAsAnotherProgram(url) { $0["motto"] = strings[round % 2] }
                    if round % 3 == 0 { store.refresh() }
                }
                store.refresh()
            } catch {
                problems.withLock { $0.append("the file could not be written: \(error)") }
            }
            done.withLock { $0 = true }
        }
        let reader: @Sendable (Bool) -> Void = { throughProperty in
            var found: [String] = []
            var reads = 0
            while !done.read({ $0 }) || reads < 1_000 {
                let read = throughProperty ? profile.motto : handle.wrappedValue
                if !allowed.contains(read) { found.append(read.debugDescription) }
                reads += 1
            }
            problems.withLock { $0 += found }
        }
        onThreads([otherProgram, { reader(false) }, { reader(true) }])
        let found = problems.read { $0 }
        #expect(found.isEmpty, "\(found.prefix(3))")
        #expect(handle.wrappedValue == strings[(rounds - 1) % 2])
        #expect(profile.motto == strings[(rounds - 1) % 2])
    }
}
