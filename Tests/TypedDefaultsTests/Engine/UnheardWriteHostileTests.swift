import Foundation
import Observation
import Testing
import TypedDefaultsStorage

@testable import TypedDefaults

/// An `Observable` model over two keys: what tracking hears of.
@Observable private final class TrackedModel {
    @ObservationIgnored @UserDefault<Int> var level: Int
    @ObservationIgnored @UserDefault<String> var title: String

    init(store: DefaultsStore) {
        _level = UserDefault(wrappedValue: 0, "level", store: store)
        _title = UserDefault(wrappedValue: "", "title", store: store)
    }
}

private enum Mode: Int, DefaultsValueConvertible {
    case off = 0
    case on = 255
    case auto = 256
}

/// What a handler heard, from any thread.
private final class Heard<Element: Sendable>: Sendable {
    private let items = Locked<[Element]>([])
    func append(_ item: Element) { items.withLock { $0.append(item) } }
    var all: [Element] { items.read { $0 } }

    /// Waits until `condition` holds of what was heard, or 30 s passed.
    func wait(until condition: ([Element]) -> Bool) -> [Element] {
        let deadline = Date().addingTimeInterval(30)
        while !condition(all), Date() < deadline { usleep(1_000) }
        return all
    }
}

/// The integers a size could be wrong at: each side of every byte-count boundary, both signs,
/// every power of two and its neighbours, the extremes, and a spread of random ones.
private let boundaryIntegers: [Int] = {
    var values: [Int] = [0, 1, -1, 0xFF, 0x100, 0xFFFF, 0x1_0000, 0xFFFF_FFFF, 0x1_0000_0000, .max, .min]
    for shift in 0..<63 {
        let power = 1 << shift
        values += [power - 1, power, power + 1, -power - 1, -power, -power + 1]
    }
    values += [Int(Int32.max), Int(Int32.min), Int(UInt32.max), Int(Int16.min), Int(UInt16.max), .max - 1, .min + 1]
    var random = SystemRandomNumberGenerator()
    values += (0..<500).map { _ in Int.random(in: .min ... .max, using: &random) }
    values += (0..<500).map { _ in Int.random(in: -70_000...70_000, using: &random) }
    return values
}()

private let boundaryDoubles: [Double] = [
    0, -0.0, 1, -1, 0.5, 255, 256, 65_535, 65_536, 4_294_967_296, 1e300, -1e-300, .leastNonzeroMagnitude,
    .leastNormalMagnitude, .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .infinity, -.infinity, .nan, .pi,
    Double(Int.max), Double(Int.min),
]

/// `object` after a trip through the engine's own file format and back.
private func throughTheEnginesFile(_ object: Any) throws -> Any {
    let read = try PropertyListReader.object(from: try BinaryPropertyList.data(object: [object]))
    return try #require((read as? [Any])?.first)
}

/// `object` after a trip through Foundation's binary property lists, as another program
/// writes the file.
private func throughFoundationsFile(_ object: Any) throws -> Any {
    let data = try PropertyListSerialization.data(fromPropertyList: [object], format: .binary, options: 0)
    let read = try PropertyListSerialization.propertyList(from: data, format: nil)
    return try #require((read as? [Any])?.first)
}

/// A write no one hears of (no observer, `didSet` or administrator's entry) skips the change's
/// bookkeeping and measures a scalar where its type is known. Attacked here: sizes at every
/// boundary against the generic measure and a fresh load, the size limit at its edge, observers
/// and callbacks bound while writes run, callbacks whose owners are gone, writes without
/// propagation, observation tracking, and a refresh after another program's write.
@Suite struct UnheardWriteHostileTests {
    // MARK: Sizes

    /// The size a write measures where the type is known is the size the engine gives the
    /// same value as an unknown object, as an `NSNumber`, as a wider integer, and as read back
    /// from either program's file: otherwise the suite's counted size drifts from a recount.
    @Test func aScalarsSizeIsTheSizeOfTheSameObjectHoweverItIsMet() throws {
        for value in boundaryIntegers {
            let size = try #require(ScalarSize.of(value))
            #expect(size == StoredObject.size(ofTyped: value), "\(value)")
            #expect(size == StoredObject.size(of: value), "\(value) as Any")
            #expect(size == StoredObject.size(of: NSNumber(value: value)), "\(value) as NSNumber")
            #expect(size == StoredObject.size(of: Int64(value)), "\(value) as Int64")
            #expect(size == StoredObject.size(of: try throughTheEnginesFile(value)), "\(value) from the engine's file")
            #expect(size == StoredObject.size(of: try throughFoundationsFile(value)), "\(value) from Foundation's")
            #expect(size == Self.expectedSize(of: value), "\(value)")
        }
        for value in [false, true] {
            let size = try #require(ScalarSize.of(value))
            #expect(size == StoredObject.size(ofTyped: value))
            #expect(size == StoredObject.size(of: value))
            #expect(size == StoredObject.size(of: NSNumber(value: value)), "\(value) as NSNumber")
            #expect(size == StoredObject.size(of: try throughTheEnginesFile(value)))
            #expect(size == StoredObject.size(of: try throughFoundationsFile(value)))
        }
        for value in boundaryDoubles {
            let size = try #require(ScalarSize.of(value))
            #expect(size == StoredObject.size(ofTyped: value), "\(value)")
            #expect(size == StoredObject.size(of: value), "\(value)")
            #expect(size == StoredObject.size(of: NSNumber(value: value)), "\(value) as NSNumber")
            #expect(size == StoredObject.size(of: try throughTheEnginesFile(value)), "\(value)")
            #expect(size == StoredObject.size(of: try throughFoundationsFile(value)), "\(value)")
        }
    }

    /// What the engine's estimate gives an integer, worked out here: 8 bytes for its entries in
    /// the offset table and the reference to it, a marker, and 8 bytes for a negative integer,
    /// else the fewest of 1, 2, 4 or 8 that hold it.
    private static func expectedSize(of value: Int) -> Int {
        9 + (value < 0 ? 8 : value <= 0xFF ? 1 : value <= 0xFFFF ? 2 : value <= 0xFFFF_FFFF ? 4 : 8)
    }

    /// Only `Int`, `Bool` and `Double` are measured by their type: every other type, however
    /// close (an optional, another width, an enum of `Int` raw values), is measured as its
    /// stored object.
    @Test func noOtherTypeIsMeasuredAsAScalar() {
        #expect(ScalarSize.of(Int?.some(5)) == nil)
        #expect(ScalarSize.of(Bool?.some(true)) == nil)
        #expect(ScalarSize.of(Double?.some(1)) == nil)
        #expect(ScalarSize.of(Int64(5)) == nil)
        #expect(ScalarSize.of(Int32(5)) == nil)
        #expect(ScalarSize.of(UInt(5)) == nil)
        #expect(ScalarSize.of(UInt64.max) == nil)
        #expect(ScalarSize.of(Float(1)) == nil)
        #expect(ScalarSize.of(Mode.auto) == nil)
        #expect(ScalarSize.of("5") == nil)
        #expect(ScalarSize.of(Data([5])) == nil)
        #expect(ScalarSize.of(Date()) == nil)
        #expect(ScalarSize.of(NSNumber(value: 5)) == nil)
        #expect(ScalarSize.of(5 as Any) == nil, "an existential is not its contents' type")
    }

    /// The state's counted size, and the size counted again from its slots, under the lock.
    private static func sizes(of state: SuiteState) -> (counted: Int?, recounted: Int) {
        state.lock.withLock {
            let counted = state.sizeInBytes
            state.sizeInBytes = nil
            let recounted = state.currentSize()
            state.sizeInBytes = counted
            return (counted, recounted)
        }
    }

    /// The size a suite counts as writes go, heard and not, of every scalar and string at its
    /// boundaries, removals among them, is the size counted again from its slots, and the size
    /// another state counts of the same suite loaded from the file.
    @Test(.plistFilesOnly("a fresh state loads the suite's file"))
    func theCountedSizeIsTheSizeOfAFreshLoad() throws {
        let suite = try TestSuite()
        let store = suite.store.durability(.coalesced(within: .seconds(60)))
        let integer = UserDefault(wrappedValue: 0, "integer", store: store)
        let flag = UserDefault(wrappedValue: false, "flag", store: store)
        let real = UserDefault(wrappedValue: 0.0, "real", store: store)
        let text = UserDefault(wrappedValue: "", "text", store: store)
        let blob = UserDefault(wrappedValue: Data(), "blob", store: store)
        let mode = UserDefault(wrappedValue: Mode.off, "mode", store: store)
        let optional = UserDefault<Int?>("optional", store: store)
        // Two types on one key: a Bool over an Int and back.
        let shared = UserDefault(wrappedValue: 0, "shared", store: store)
        let sharedFlag = UserDefault(wrappedValue: false, "shared", store: store)
        let texts = ["", "a", "fourteen bytes", "fifteen bytes!!", "é", String(repeating: "ü", count: 20)]
        let state = store.ownState
        var observation: DefaultsObservation?
        for (index, value) in boundaryIntegers.prefix(400).enumerated() {
            // Heard for a stretch in the middle: the change's way and the quiet way alternate.
            if index == 150 { observation = integer.observe { _ in } }
            if index == 250 { observation?.cancel() }
            integer.wrappedValue = value
            flag.wrappedValue = value % 2 == 0
            real.wrappedValue = boundaryDoubles[index % boundaryDoubles.count]
            text.wrappedValue = texts[index % texts.count]
            blob.wrappedValue = Data(count: index % 20)
            mode.wrappedValue = [Mode.off, .on, .auto][index % 3]
            optional.wrappedValue = index % 4 == 0 ? nil : value
            if index % 2 == 0 { shared.wrappedValue = value } else { sharedFlag.wrappedValue = value % 3 == 0 }
            if index % 37 == 0 { integer.reset() }
            if index % 53 == 0 { text.reset() }
            if index % 50 == 0 {
                let (counted, recounted) = Self.sizes(of: state)
                #expect(counted == recounted, "after write \(index)")
            }
        }
        let (counted, recounted) = Self.sizes(of: state)
        #expect(counted != nil, "the writes counted the size")
        #expect(counted == recounted)
        try store.flush()
        let fresh = SuiteRegistry.unlistedState(
            backend: PlistFileBackend(file: PlistFile(url: suite.plistURL), suiteName: suite.name), label: suite.name,
            fileURL: suite.plistURL)
        let freshSize = fresh.withLoadedLock { fresh.currentSize() }
        #expect(counted == freshSize, "counted \(counted ?? -1), a fresh load \(freshSize)")
    }

    /// A size limit exactly at the suite's size admits a write that keeps the size (an integer
    /// of as many bytes) and refuses one that grows it by a byte (0xFF to 0x100, 0xFFFF to
    /// 0x10000, a positive integer to a negative one, a Bool to an Int), for the quiet write as
    /// for the heard one; the refusal names the size the write would have made.
    @Test func aLimitAtTheSuitesSizeRefusesExactlyTheWritesThatGrowIt() {
        let pairs: [(from: Int, to: Int)] = [
            (0, 0xFF), (0xFF, 0x100), (0x100, 0xFFFF), (0xFFFF, 0x1_0000), (0x1_0000, 0xFFFF_FFFF),
            (0xFFFF_FFFF, 0x1_0000_0000), (0x1_0000_0000, .max), (.max, .min), (1, -1), (-1, .max), (0x100, 0xFF),
            (-1, 0),
        ]
        for heard in [false, true] {
            for (from, to) in pairs {
                let store = DefaultsStore.inMemory()
                let observation = heard ? store.observe(DefaultsKey<Int>("n", default: 0)) { _ in } : nil
                defer { observation?.cancel() }
                let handle = UserDefault(wrappedValue: 0, "n", store: store)
                handle.wrappedValue = from
                handle.wrappedValue = from  // now loaded, and written the quiet way when unheard
                let state = store.ownState
                let size = state.withLoadedLock { state.currentSize() }
                let limited = UserDefault(wrappedValue: 0, "n", store: store.sizeLimit(.bytes(size)))
                let growth = Self.expectedSize(of: to) - Self.expectedSize(of: from)
                let (_, reported) = ReportedErrors.during { limited.wrappedValue = to }
                let refusals = reported.compactMap { error -> Int? in
                    if case .sizeLimitExceeded(_, _, let size, _) = error { return size }
                    return nil
                }
                let what = "\(from) to \(to)\(heard ? ", heard" : "")"
                if growth > 0 {
                    #expect(refusals == [size + growth], "\(what): \(reported)")
                    #expect(handle.wrappedValue == from, "\(what)")
                } else {
                    #expect(refusals.isEmpty, "\(what): \(reported)")
                    #expect(handle.wrappedValue == to, "\(what)")
                }
            }
        }
    }

    // MARK: Who hears

    /// The problems of the changes an observer heard of a key written the values `0, 1, 2…`
    /// in turn (`index` tells a value's place): each change names the one before as its old
    /// value, and no value written between two is missing.
    private static func chainProblems<Value>(_ changes: [DefaultsValueChange<Value>], index: (Value) -> Int?)
        -> [String]
    {
        var problems: [String] = []
        for (previous, change) in zip(changes, changes.dropFirst()) {
            guard let before = index(previous.newValue), let old = index(change.oldValue),
                let new = index(change.newValue)
            else {
                problems.append("heard \(change.oldValue) → \(change.newValue), which was never written")
                continue
            }
            if old != before { problems.append("heard \(change.oldValue) → \(change.newValue) after \(before)") }
            if new != old + 1 { problems.append("the writes between \(old) and \(new) went unheard") }
        }
        return problems
    }

    /// The value a writer writes in its round `index`: with `long`, every third one a string
    /// with storage.
    private static func written(_ index: Int, long: Bool) -> String {
        long && index % 3 == 0 ? "L\(index)|" + String(repeating: "x", count: 24) : "v\(index)"
    }

    /// The round ``written(_:long:)`` wrote `value` in.
    private static func round(of value: String) -> Int? {
        Int(value.dropFirst().prefix { $0.isNumber })
    }

    /// Observers added and cancelled while a writer writes, quietly between them: each hears
    /// the writes made after it was added, every one, in order, from the value it was added
    /// at; none is missed because the writer found no one to hear it. (Kept to thousands of
    /// changes: see `StoredCallbackHostileTests`.)
    @Test(arguments: [false, true]) func anObserverAddedWhileWritesRunHearsEveryLaterOne(long: Bool) throws {
        let suite = try TestSuite()
        let store = suite.store.durability(.coalesced(within: .milliseconds(5)))
        let handle = UserDefault(wrappedValue: Self.written(0, long: long), "written", store: store)
        handle.wrappedValue = Self.written(0, long: long)
        let progress = Heard<Int>()
        let stop = Heard<Bool>()
        // A few thousand writes at most, whatever happens to the observers, and slower under
        // ThreadSanitizer, whose observers fall behind.
        let (limit, pauseEvery) = isThreadSanitized ? (5_000, 10) : (15_000, 100)
        let writer = Thread {
            var index = 0
            while stop.all.isEmpty, index < limit {
                index += 1
                handle.wrappedValue = Self.written(index, long: long)
                // A pause now and then, for observers to come and go between the writes.
                if index % pauseEvery == 0 { usleep(1_000) }
            }
            progress.append(index)
        }
        writer.start()
        var observations: [(DefaultsObservation, Heard<DefaultsValueChange<String>>)] = []
        for round in 0..<6 {
            let heard = Heard<DefaultsValueChange<String>>()
            let observation = handle.observe(initial: true) { heard.append($0) }
            observations.append((observation, heard))
            let early = heard.wait { $0.count >= 50 }
            #expect(early.count >= 50, "round \(round): \(early.count - 1) changes heard while the writer wrote on")
            // Half of them are cancelled while the writer runs: the others hear to the end.
            if round % 2 == 0 { observation.cancel() }
        }
        stop.append(true)
        let final = try #require(progress.wait { !$0.isEmpty }.first)
        let finalValue = Self.written(final, long: long)
        #expect(final < limit, "the writer stopped before the observers were done with it")
        for (round, (observation, heard)) in observations.enumerated() {
            let changes = round % 2 == 0 ? heard.all : heard.wait { $0.last?.newValue == finalValue }
            observation.cancel()
            #expect(changes.first.map { $0.oldValue == $0.newValue } ?? false, "round \(round): no initial value")
            let problems = Self.chainProblems(changes, index: Self.round(of:))
            #expect(problems.isEmpty, "round \(round): \(problems.prefix(3))")
            if round % 2 != 0 { #expect(changes.last?.newValue == finalValue, "round \(round)") }
        }
        #expect(handle.wrappedValue == finalValue)
    }

    /// A `didSet` bound while a writer writes hears every write after it, in order, each with
    /// the value before it as the old value, to the last.
    @Test func aDidSetBoundWhileWritesRunHearsEveryLaterOne() throws {
        let store = DefaultsStore.inMemory()
        let handle = UserDefault(wrappedValue: 0, "level", store: store)
        handle.wrappedValue = 0
        let progress = Heard<Int>()
        let stop = Heard<Bool>()
        let writer = Thread {
            var value = 0
            while stop.all.isEmpty {
                value += 1
                handle.wrappedValue = value
                if value == 100 { progress.append(value) }
            }
            progress.append(value)
        }
        writer.start()
        _ = progress.wait { !$0.isEmpty }
        let heard = Heard<(new: Int, old: Int)>()
        let withCallback = UserDefault(wrappedValue: 0, "level", store: store).didSet { heard.append(($0, $1)) }
        _ = heard.wait { $0.count >= 2_000 }
        stop.append(true)
        let final = try #require(progress.wait { $0.count == 2 }.last)
        let changes = heard.wait { $0.last?.new == final }
        #expect(!changes.isEmpty, "the callback heard nothing")
        let gaps = changes.filter { $0.new != $0.old + 1 }
        #expect(gaps.isEmpty, "\(gaps.prefix(3))")
        for (previous, change) in zip(changes, changes.dropFirst()) where change.old != previous.new {
            Issue.record("heard \(change.old) → \(change.new) after \(previous.new)")
            break
        }
        #expect(changes.last?.new == final)
        #expect(withCallback.wrappedValue == final)
    }

    /// A callback whose owner is gone is not called, the writes after it land and read back,
    /// and a callback bound after hears the next write with the value the quiet writes left.
    @Test func aCallbackWhoseOwnerIsGoneLeavesTheWritesAfterItWhole() {
        let store = DefaultsStore.inMemory()
        let plain = UserDefault(wrappedValue: 0, "count", store: store)
        let gone = Heard<Int>()
        do {
            let withCallback = UserDefault(wrappedValue: 0, "count", store: store).didSet { new, _ in gone.append(new) }
            withCallback.wrappedValue = 1
        }
        #expect(gone.all == [1])
        for value in [2, 0xFF, 0x100, -1] { plain.wrappedValue = value }
        #expect(gone.all == [1], "a callback without its owner ran")
        #expect(plain.wrappedValue == -1)
        let heard = Heard<(new: Int, old: Int)>()
        let again = UserDefault(wrappedValue: 0, "count", store: store).didSet { heard.append(($0, $1)) }
        plain.wrappedValue = 7
        #expect(heard.all.map(\.old) == [-1])
        #expect(heard.all.map(\.new) == [7])
        #expect(again.wrappedValue == 7)
    }

    /// A write without propagation is stored, quiet to observers and `didSet`, and the next
    /// change names it as the old value; with no one to hear, it is the quiet write, and an
    /// observer added after starts from it.
    @Test func aWriteWithoutPropagationIsStoredAndTheNextChangeNamesIt() {
        let store = DefaultsStore.inMemory()
        let handle = UserDefault(wrappedValue: 0, "volume", store: store)
        DefaultsStore.withoutPropagation { handle.wrappedValue = 3 }
        #expect(handle.wrappedValue == 3)
        let observed = Heard<DefaultsValueChange<Int>>()
        let observation = handle.observe(initial: true) { observed.append($0) }
        let called = Heard<(new: Int, old: Int)>()
        let withCallback = UserDefault(wrappedValue: 0, "volume", store: store).didSet { called.append(($0, $1)) }
        DefaultsStore.withoutPropagation { handle.wrappedValue = 5 }
        #expect(handle.wrappedValue == 5)
        handle.wrappedValue = 6
        let changes = observed.wait { $0.count >= 2 }
        observation.cancel()
        #expect(changes.map(\.oldValue) == [3, 5])
        #expect(changes.map(\.newValue) == [3, 6])
        #expect(called.all.map(\.old) == [5])
        #expect(called.all.map(\.new) == [6])
        #expect(withCallback.wrappedValue == 6)
    }

    /// Tracking of an `Observable` model hears a write through another handle, after quiet
    /// writes made before the model was first read, and one made without propagation; once the
    /// model is gone, writes are quiet again and read back.
    @Test func observationTrackingHearsWritesAfterQuietOnes() {
        let store = DefaultsStore.inMemory()
        let level = UserDefault(wrappedValue: 0, "level", store: store)
        let title = UserDefault(wrappedValue: "", "title", store: store)
        for value in 1...3 {
            level.wrappedValue = value
            title.wrappedValue = "quiet \(value)"
        }
        var model: TrackedModel? = TrackedModel(store: store)
        for write in ["another handle", "without propagation", "a long title"] {
            let changes = Counter()
            withObservationTracking {
                _ = model?.level
                _ = model?.title
            } onChange: {
                changes.increment()
            }
            switch write {
            case "another handle": level.wrappedValue = 10
            case "without propagation": DefaultsStore.withoutPropagation { level.wrappedValue = 11 }
            default: title.wrappedValue = String(repeating: "a long title ", count: 3)
            }
            #expect(changes.value == 1, "\(write)")
        }
        #expect(model?.level == 11)
        #expect(model?.title == String(repeating: "a long title ", count: 3))
        model = nil
        level.wrappedValue = 12
        title.wrappedValue = "after"
        #expect(level.wrappedValue == 12)
        #expect(title.wrappedValue == "after")
    }

    // MARK: Another program

    /// Writes not yet flushed, made the quiet way, are still this process's pending writes: an
    /// explicit refresh takes another program's later write of the same key over them, keeps
    /// them where it wrote other keys only, and the suite's size is counted again from what it
    /// then holds.
    @Test(.plistFilesOnly("the test writes the suite's file itself"))
    func aRefreshWeighsQuietPendingWritesAgainstAnotherProgramsLaterOnes() throws {
        let suite = try TestSuite()
        let store = suite.store.durability(.coalesced(within: .seconds(60)))
        let taken = UserDefault(wrappedValue: 0, "taken", store: store)
        let kept = UserDefault(wrappedValue: 0, "kept", store: store)
        let text = UserDefault(wrappedValue: "", "text", store: store)
        taken.wrappedValue = 1
        kept.wrappedValue = 1
        text.wrappedValue = "one"
        try store.flush()
        // Quiet writes, pending: no one hears of them, and the flush is a minute away.
        for value in [2, 0xFF, 0x100] {
            taken.wrappedValue = value
            kept.wrappedValue = value
            text.wrappedValue = "pending \(value)"
        }
        try rewriteAsAnotherProgram(suite.plistURL) { contents in
            contents["taken"] = 7
            contents["other"] = "theirs"
        }
        store.refresh()
        #expect(taken.wrappedValue == 7, "another program's later write of the key")
        #expect(kept.wrappedValue == 0x100, "a pending write of a key the other program left alone")
        #expect(text.wrappedValue == "pending 256")
        #expect(UserDefault(wrappedValue: "", "other", store: store).wrappedValue == "theirs")
        kept.wrappedValue = 0x1_0000
        let (counted, recounted) = Self.sizes(of: store.ownState)
        #expect(counted == recounted)
        try store.flush()
        let bytes = try #require(FileManager.default.contents(atPath: suite.plistURL.path))
        let file = try #require(try PropertyListSerialization.propertyList(from: bytes, format: nil) as? [String: Any])
        #expect(file["taken"] as? Int == 7)
        #expect(file["kept"] as? Int == 0x1_0000)
        #expect(file["text"] as? String == "pending 256")
        #expect(file["other"] as? String == "theirs")
    }
}
