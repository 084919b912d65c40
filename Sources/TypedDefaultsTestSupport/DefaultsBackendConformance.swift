import Foundation
import TypedDefaults
import TypedDefaultsSchema

/// Checks that a `DefaultsBackend` keeps the promises the engine relies on, from
/// any test framework:
///
/// ```swift
/// @Test func myBackendConforms() {
///     let failures = DefaultsBackendConformance.check(
///         makeBackend: { MyDatabaseBackend(suite: "conformance.\(UUID())") },
///         reopen: { backend in MyDatabaseBackend(suite: backend.location) })
///     #expect(failures.isEmpty, "\(failures)")
/// }
/// ```
///
/// `makeBackend` gives a backend of a new, empty suite, with a location no other suite has, on
/// each call. `reopen`, when given, gives a second backend on the same suite, standing for
/// another process or machine: the checks then include that each sees the other's commits and
/// is told of them (`DefaultsBackend.observeChanges(_:)`) within five seconds (a
/// bound for a loaded machine running many tests at once, not a latency to aim at).
public enum DefaultsBackendConformance {
    /// A check the backend did not pass.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        /// The check's name.
        public let check: String
        /// What went wrong.
        public let problem: String

        public var description: String { "\(check): \(problem)" }
    }

    /// Runs every check, each on a new suite; returns the failures (none for a conforming backend).
    public static func check(
        makeBackend: () throws -> any DefaultsBackend,
        reopen: ((any DefaultsBackend) throws -> any DefaultsBackend)? = nil
    ) -> [Failure] {
        var failures: [Failure] = []
        for (name, run) in checks(reopen: reopen) {
            do {
                try run(try makeBackend())
            } catch let failure as Failure {
                failures.append(failure)
            } catch {
                failures.append(Failure(check: name, problem: "threw \(error)"))
            }
        }
        return failures
    }

    /// Every value kind, with the edges a backend must keep exactly.
    public static let sampleValues: [DefaultsStoredKey: DefaultsStoredValue] = [
        "string": .string("Ada & \"Grace\" é 😀 \u{1}\r\n"),
        "empty": .string(""),
        "min": .integer(.min),
        "max": .integer(.max),
        "unsigned": .unsignedInteger(.max),
        "real": .real(0.1),
        "whole": .real(1),
        "negativeZero": .real(-0.0),
        "infinity": .real(.infinity),
        "true": .boolean(true),
        "false": .boolean(false),
        "date": .date(Date(timeIntervalSinceReferenceDate: 123_456_789.123_456_789)),
        "data": .data(Data([0, 1, 254, 255])),
        "array": .array([.integer(1), .string("two"), .array([]), .dictionary(["k": .boolean(false)])]),
        "dictionary": .dictionary(["nested": .dictionary(["deep": .array([.real(2.5)])]), "": .string("empty key")]),
        "key with spaces and ✓": .integer(7),
    ]

    /// Keys that differ only in their Unicode normalization, which Swift's `String` sees as
    /// equal and a suite keeps apart: at the top and in a nested dictionary.
    public static let normalizationValues: [DefaultsStoredKey: DefaultsStoredValue] = [
        "caf\u{E9}": .string("precomposed"),
        "cafe\u{301}": .string("decomposed"),
        "normalization": .dictionary(["\u{C5}": .integer(1), "A\u{30A}": .integer(2), "\u{212B}": .integer(3)]),
    ]

    private typealias Check = (String, (any DefaultsBackend) throws -> Void)

    private static func checks(reopen: ((any DefaultsBackend) throws -> any DefaultsBackend)?) -> [Check] {
        var checks: [Check] = [
            ("a new suite is empty", startsEmpty),
            ("every value is kept exactly", keepsEveryValue),
            ("keys that differ only in their normalization are two keys", keepsKeysApart),
            ("nil removes a key", removes),
            ("an edit sees the changes and its own edits are stored", editsAreStored),
            ("an edit that throws stores nothing", throwingEditStoresNothing),
            ("concurrent read-modify-writes lose nothing", concurrentIncrements),
            ("a store on the backend reads, writes, updates and migrates", throughAStore),
            ("a change announced from inside load() is taken in, and nothing hangs", announcedFromLoad),
            ("a change announced right after commit() holds back no write", announcedAfterCommit),
        ]
        if let reopen {
            checks.append(("another handle sees commits and is told of them", { try otherHandle($0, reopen) }))
        }
        return checks
    }

    static func expect(_ condition: Bool, _ check: String, _ problem: @autoclosure () -> String) throws {
        if !condition { throw Failure(check: check, problem: problem()) }
    }

    private static func startsEmpty(_ backend: any DefaultsBackend) throws {
        let values = try backend.load()
        try expect(values.isEmpty, "a new suite is empty", "load() gave \(values.count) keys: \(values.keys.sorted())")
    }

    private static func keepsEveryValue(_ backend: any DefaultsBackend) throws {
        let check = "every value is kept exactly"
        let returned = try backend.commit(sampleValues.mapValues { $0 }, before: .now + .seconds(60)) { _ in }
        try expect(same(returned, sampleValues), check, "commit returned \(difference(returned, sampleValues))")
        let loaded = try backend.load()
        try expect(same(loaded, sampleValues), check, "load() gave \(difference(loaded, sampleValues))")
    }

    private static func keepsKeysApart(_ backend: any DefaultsBackend) throws {
        let check = "keys that differ only in their normalization are two keys"
        let returned = try backend.commit(normalizationValues.mapValues { $0 }, before: .now + .seconds(60)) { _ in }
        try expect(
            same(returned, normalizationValues), check, "commit returned \(difference(returned, normalizationValues))")
        _ = try backend.commit(["unrelated": .integer(1)], before: .now + .seconds(60)) { _ in }
        var expected = normalizationValues
        expected["unrelated"] = .integer(1)
        let loaded = try backend.load()
        try expect(same(loaded, expected), check, "after another commit, load() gave \(difference(loaded, expected))")
    }

    private static func removes(_ backend: any DefaultsBackend) throws {
        let check = "nil removes a key"
        _ = try backend.commit(["a": .integer(1), "b": .integer(2)], before: .now + .seconds(60)) { _ in }
        let returned = try backend.commit(["a": nil, "missing": nil], before: .now + .seconds(60)) { _ in }
        try expect(returned == ["b": .integer(2)], check, "commit returned \(returned)")
        let loaded = try backend.load()
        try expect(loaded == ["b": .integer(2)], check, "load() gave \(loaded)")
    }

    private static func editsAreStored(_ backend: any DefaultsBackend) throws {
        let check = "an edit sees the changes and its own edits are stored"
        _ = try backend.commit(["kept": .string("x")], before: .now + .seconds(60)) { _ in }
        var seen: [DefaultsStoredKey: DefaultsStoredValue] = [:]
        _ = try backend.commit(["a": .integer(1)], before: .now + .seconds(60)) { values in
            seen = values
            values["b"] = .integer(2)
            values["kept"] = nil
        }
        try expect(seen == ["kept": .string("x"), "a": .integer(1)], check, "the edit saw \(seen)")
        let loaded = try backend.load()
        try expect(loaded == ["a": .integer(1), "b": .integer(2)], check, "load() gave \(loaded)")
    }

    private static func throwingEditStoresNothing(_ backend: any DefaultsBackend) throws {
        let check = "an edit that throws stores nothing"
        _ = try backend.commit(["kept": .integer(1)], before: .now + .seconds(60)) { _ in }
        let refusal = DefaultsError.writeFailed(path: "conformance", underlying: CocoaError(.userCancelled))
        do {
            _ = try backend.commit(["change": .integer(2)], before: .now + .seconds(60)) {
                values throws(DefaultsError) in
                values["kept"] = .integer(3)
                throw refusal
            }
            throw Failure(check: check, problem: "commit returned although its edit threw")
        } catch let error as DefaultsError {
            try expect("\(error)" == "\(refusal)", check, "commit threw \(error), not the edit's error")
        }
        let loaded = try backend.load()
        try expect(loaded == ["kept": .integer(1)], check, "load() gave \(loaded)")
    }

    private static func concurrentIncrements(_ backend: any DefaultsBackend) throws {
        let check = "concurrent read-modify-writes lose nothing"
        let errors = Collected()
        // Eight threads of their own (a concurrent perform would use one per core), started together.
        let group = DispatchGroup()
        let start = DispatchSemaphore(value: 0)
        for _ in 0..<8 {
            group.enter()
            Thread.detachNewThread {
                start.wait()
                for _ in 0..<25 {
                    do {
                        _ = try backend.commit([:], before: .now + .seconds(30)) { values in
                            guard case .integer(let count)? = values["count"] ?? .integer(0) else { return }
                            values["count"] = .integer(count + 1)
                        }
                    } catch {
                        errors.append("\(error)")
                    }
                }
                group.leave()
            }
        }
        for _ in 0..<8 { start.signal() }
        group.wait()
        try expect(errors.all.isEmpty, check, "commits threw: \(errors.all.prefix(3))")
        let loaded = try backend.load()
        try expect(
            loaded["count"] == .integer(200), check,
            "200 increments from 8 threads left \(String(describing: loaded["count"]))")
    }

    private static func throughAStore(_ backend: any DefaultsBackend) throws {
        let check = "a store on the backend reads, writes, updates and migrates"
        let store = DefaultsStore(backend: backend, durability: .immediate)
        let count = DefaultsKey<Int>("count", default: 0, store: store)
        let name = DefaultsKey<String?>("name", store: store)
        store[count] = 41
        store.update(count) { $0 += 1 }
        store[name] = "Ada"
        try expect(
            store[count] == 42 && store[name] == "Ada", check,
            "the store read \(store[count]), \(String(describing: store[name]))")
        try store.migrate([.renameKey("name", to: "displayName")])
        let loaded = try backend.load()
        try expect(
            loaded["count"] == .integer(42) && loaded["displayName"] == .string("Ada") && loaded["name"] == nil, check,
            "after the store's writes and a migration, load() gave \(loaded)")
        let heard = Collected()
        let observation = store.observe(keys: ["count"]) { heard.append($0.key) }
        store[count] = 1
        try expect(eventually { heard.all == ["count"] }, check, "an observer heard \(heard.all)")
        observation.cancel()
        store.removeAll()
        let emptied = try backend.load()
        try expect(emptied.isEmpty, check, "after removeAll(), load() gave \(emptied)")
    }

    private static func otherHandle(
        _ backend: any DefaultsBackend, _ reopen: (any DefaultsBackend) throws -> any DefaultsBackend
    ) throws {
        let check = "another handle sees commits and is told of them"
        let other = try reopen(backend)
        let told = Collected()
        other.observeChanges { told.append("changed") }
        _ = try backend.commit(["shared": .integer(1)], before: .now + .seconds(60)) { _ in }
        let loaded = try other.load()
        try expect(loaded["shared"] == .integer(1), check, "the other handle loaded \(loaded)")
        try expect(eventually { !told.all.isEmpty }, check, "the other handle was not told of the commit in 5 s")
        _ = try other.commit([:], before: .now + .seconds(60)) { values in values["shared"] = .integer(2) }
        let back = try backend.load()
        try expect(back["shared"] == .integer(2), check, "the first handle loaded \(back)")
    }

    /// Waits up to five seconds for `condition`.
    static func eventually(_ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(5)
        while !condition() {
            if Date() > deadline { return false }
            usleep(2_000)
        }
        return true
    }

    /// Values compared as stored: NaN equal to NaN, and -0.0 apart from 0.0.
    private static func same(
        _ first: [DefaultsStoredKey: DefaultsStoredValue], _ second: [DefaultsStoredKey: DefaultsStoredValue]
    ) -> Bool {
        first.count == second.count && first.allSatisfy { key, value in second[key].map { same(value, $0) } ?? false }
    }

    private static func same(_ first: DefaultsStoredValue, _ second: DefaultsStoredValue) -> Bool {
        switch (first, second) {
        case (.real(let a), .real(let b)): a.bitPattern == b.bitPattern || (a.isNaN && b.isNaN)
        case (.date(let a), .date(let b)): a.timeIntervalSinceReferenceDate == b.timeIntervalSinceReferenceDate
        case (.array(let a), .array(let b)): a.count == b.count && zip(a, b).allSatisfy(same)
        case (.dictionary(let a), .dictionary(let b)): same(a, b)
        default: first == second
        }
    }

    private static func difference(
        _ found: [DefaultsStoredKey: DefaultsStoredValue], _ expected: [DefaultsStoredKey: DefaultsStoredValue]
    )
        -> String
    {
        let keys = Set(found.keys).union(expected.keys).sorted().filter { key in
            switch (found[key], expected[key]) {
            case (let a?, let b?): !same(a, b)
            default: true
            }
        }
        return keys.map {
            "\(String(reflecting: $0)): \(found[$0].map { $0.json() } ?? "nothing") (expected \(expected[$0].map { $0.json() } ?? "nothing"))"
        }
        .joined(separator: "; ")
    }

    /// Strings gathered from any thread.
    final class Collected: @unchecked Sendable {  // `items` is only touched under `lock`.
        private let lock = NSLock()
        private var items: [String] = []

        func append(_ item: String) { lock.withLock { items.append(item) } }
        var all: [String] { lock.withLock { items } }
    }
}
